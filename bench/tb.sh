#!/bin/sh
# bench/tb.sh - the tablebase figures (run by bench/run.sh, make bench):
# every table with up to 4 pieces for the default rules built from scratch
# (time, size on disk in zstd blocks, peak memory), probes per second from C
# from the compressed files, cold (a fresh tables object: each block
# decompressed on first touch) and warm, then a few 5-piece signatures alone
# for the 5-piece estimates, with the same probes of random positions of each
# (TB_BENCH_FIVE: the signatures, default KKKvKK). The tables go to a
# temporary directory.
set -u
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p build
${CC:-cc} -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Icore bench/tb_bench.c build/libcheskers.a \
  -lpthread -lzstd -o build/tb_bench || exit 1
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
./build/tb_bench "$tmp" 4 | grep -v '^  ' || exit 1
for sig in ${TB_BENCH_FIVE:-KKKvKK}; do
  ./build/tb_bench "$tmp" 5 "$sig" | grep -v '^  ' || exit 1
done
