#!/bin/sh
# tests/core/search_signature_test.sh - the engine's pinned search signature and
# perft with every move made (tests/core/search_signature.c); prints TAP.
#
# The signature is the node count, best move and score of fixed-depth
# searches from fixed positions (as chess engines keep with their bench
# command), checked against tests/data/search_signature.txt. Any change of
# search behaviour (ordering, pruning, evaluation, move generation) shows
# here. When search behaviour changes on purpose, regenerate with
#   sh tests/core/search_signature_test.sh --update
# and explain the change (and why the new numbers are right) in the commit.
#
# Perft is counted both ways (bulk counting at the last ply, and every move
# made, the path of chk_perft(p, d, false, stop) that only the bench used)
# against the numbers of docs/reference/rules.md, worked out independently of this
# program, and against hand counts for positions where a side has just lost
# its last king (see the comments below). Then C API edges: kinds named by
# letter, tablebase builds, a root answered by the tables, chk_weight_name
# out of range and chk_search_new failing.
# Needs build/libcheskers.a (make). Run from the repository root.
set -u
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pinned=tests/data/search_signature.txt
. tests/tap.sh

. tests/cprog.sh
cprog tests/core/search_signature.c "$tmp/sig" -lm -lpthread

if [ "${1:-}" = "--update" ]; then
  "$tmp/sig" signature >"$tmp/new" || { echo "search_signature failed" >&2; exit 1; }
  { sed -n '/^#/p' "$pinned" 2>/dev/null; cat "$tmp/new"; } >"$tmp/file"
  cp "$tmp/file" "$pinned"
  echo "wrote $pinned:"; cat "$tmp/new"
  exit 0
fi

# ---- the signature ----------------------------------------------------------
if "$tmp/sig" signature >"$tmp/now" 2>"$tmp/err"; then
  grep -v '^#' "$pinned" >"$tmp/want"
  if cmp -s "$tmp/want" "$tmp/now"; then
    ok "the search signature is the pinned one ($(wc -l <"$tmp/now") fixed searches)"
  else
    not_ok "the search signature changed (if on purpose: sh $0 --update, and explain it in the commit)"
    diff "$tmp/want" "$tmp/now" | sed 's/^/# /'
  fi
else
  not_ok "the signature program failed"; sed 's/^/# /' "$tmp/err"
fi

# ---- perft, both ways ---------------------------------------------------------
# check NAME RULES FEN "COUNT..." : perft 1.. with bulk counting and with
# every move made must both give the counts.
check() {
  name=$1 rules=$2 fen=$3 want=$4
  depths=$(i=0; for _ in $want; do i=$((i + 1)); printf '%d ' "$i"; done)
  # shellcheck disable=SC2086 # depths is a list of numbers
  if ! "$tmp/sig" perft "$rules" "$fen" $depths >"$tmp/p" 2>"$tmp/err"; then
    not_ok "$name: the perft program failed"; sed 's/^/# /' "$tmp/err"; return
  fi
  got_bulk=$(sed 's/^bulk=\([0-9-]*\) made=.*/\1/' "$tmp/p" | tr '\n' ' ')
  got_made=$(sed 's/^bulk=.* made=\([0-9-]*\)$/\1/' "$tmp/p" | tr '\n' ' ')
  [ "$got_bulk" = "$want " ] && ok "$name: bulk counting gives $want" \
    || not_ok "$name: bulk counting gives $got_bulk, not $want"
  [ "$got_made" = "$want " ] && ok "$name: every move made gives $want" \
    || not_ok "$name: every move made gives $got_made, not $want"
}
START="1c1k1k1b/p1p1p1p1/1p1p1p1p/8/8/P1P1P1P1/1P1P1P1P/B1K1K1C1 b 0 1"
# docs/reference/rules.md, "Perft reference numbers"
check "start, golomb" golomb "$START" "9 81 652 4395 30239"
check "start, majority=false" majority=false "$START" "9 81 652 4395 30239"
check "start, capture=jumps majority=false" "capture=jumps majority=false" "$START" "9 81 652 4335 28670"
# White: king a1, pawn c3; Black: king d4 (its last), pawn h6. White must jump
# c3xe5 (its one legal move: the king a1 has only b2, and a jump is
# compulsory); Black then has no king: the game is over, no move follows,
# though the pawn h6 could step. So 1, then 0 at every depth.
check "after the last black king is taken" golomb "8/8/7p/8/3k4/2P5/8/K7 w 0 1" "1 0 0"
# The same for Black: pawn d6 must jump d6xf4 over White's last king e5
# (Black's king h8 has no jump); White's pawn a3 could step, but the game is
# over.
check "after the last white king is taken" golomb "7k/8/3p4/4K3/8/P7/8/8 b 0 1" "1 0 0"
# A position with a promotion by a jump and kings that jump: both counting
# ways must agree with each other (no hand count: this one checks the
# made-move path against the bulk path on a richer position).
"$tmp/sig" perft golomb "3k1k2/8/1p3p2/2P5/8/4P3/3K4/2B5 w 3 20" 1 2 3 4 5 >"$tmp/p" 2>&1
if [ "$(grep -c 'bulk=\([0-9]*\) made=\1$' "$tmp/p")" -eq 5 ]; then
  ok "a middle game: bulk counting and every move made agree to depth 5"
else
  not_ok "a middle game: bulk counting and every move made disagree"; sed 's/^/# /' "$tmp/p"
fi

# ---- the hash after a move, without making it --------------------------------
# chk__hash_after (core/internal.h), for a search's prefetch of a child's
# hash table entry, against the hash chk_make leaves, over whole trees:
# steps, slides, leaps, takes, jump chains, promotions (by step and by jump,
# to each kind), flying kings and backward pawn captures. And at every node
# of those trees where the side to move has no jump, chk__gen_tactical_fast
# (the quiescence search's captures and promotions) against the captures
# and promotions of the whole list, in order (the count of lists checked
# must not be 0: under flying kings none is, those rules are not fast_count).
hash_after() { # name rules fen depth [slow: rules the fast generators do not know]
  got=$("$tmp/sig" hash-after "$2" "$3" "$4" 2>&1)
  lists="[1-9]*"
  [ "${5:-}" = slow ] && lists=0
  case $got in
    [1-9]*" moves, 0 hashes differ; "$lists" tactical lists, 0 differ") ok "chk__hash_after, chk__gen_tactical_fast, $1: $got" ;;
    *) not_ok "chk__hash_after, chk__gen_tactical_fast, $1: $got" ;;
  esac
}
hash_after "start" golomb "$START" 4
hash_after "a middle game" golomb "3k1k2/8/1p3p2/2P5/8/4P3/3K4/2B5 w 3 20" 4
hash_after "promotions by step and by jump" golomb "3k4/2P1p3/1p6/8/8/6p1/5P1P/2K5 w 0 30" 4
hash_after "flying kings, backward captures" "flying_kings=true pawns_capture_backward=true" \
  "3k1k2/p7/1p1p4/8/3P4/P7/3K1K2/8 b 0 12" 4 slow
hash_after "bishops and camels taking" golomb "3k4/p3k3/5b1p/p1c5/5P1P/P3P1P1/1P6/B1K1K3 b 0 11" 4
hash_after "backward captures" "pawns_capture_backward=true" "3k1k2/p3p3/3b4/6p1/1P1B4/4P3/3K4/2K5 b 0 15" 4

# ---- kinds named through the C API -------------------------------------------
# The default kinds are P K B C (indices 0..3): a new kind is index 4, and
# 'n' names the kind N (chk_rules_kind takes either case).
"$tmp/sig" kinds >"$tmp/k" 2>&1
if grep -qx 'n: set 0 finish 0 kind of N 4 kind of n 4 letter N' "$tmp/k"; then
  ok "chk_rules_set_kind: a lower-case letter names the upper-case kind"
else
  not_ok "chk_rules_set_kind: a lower-case letter"; sed 's/^/# /' "$tmp/k"
fi
if grep -qx "1: set -1: piece kind '1' must be a letter" "$tmp/k"; then
  ok "chk_rules_set_kind: a kind named by a digit is refused"
else
  not_ok "chk_rules_set_kind: a kind named by a digit"; sed 's/^/# /' "$tmp/k"
fi

# ---- a tablebase build of a signature that does not exist ---------------------
# Two pieces at most allow only KvK (a king each side): "KBvK" has three, so
# a build limited to it (opts.only) builds nothing and says so.
got=$("$tmp/sig" tb-only "$tmp/tb" KBvK 2>&1)
if [ "$got" = "KBvK: error: no signature KBvK with up to 2 pieces" ]; then
  ok "chk_tb_build: a signature out of reach is refused with its name"
else
  not_ok "chk_tb_build: a signature out of reach"; echo "# $got"
fi

# Building the 2-piece tables (KvK) writes files: every descriptor opened
# for them is closed again.
got=$("$tmp/sig" tb-fds "$tmp/tb2" 2>&1)
if [ "$got" = "build 0, descriptors all closed" ]; then
  ok "chk_tb_build: no file descriptor left open"
else
  not_ok "chk_tb_build: file descriptors"; echo "# $got"
fi

# ---- a root answered by the tables ---------------------------------------------
# White Ke5, Black kh8 (its corner: g7 is its one square), White to move.
# e5-f6 leaves Black only h8-g7, next to f6 with h8 empty behind it, so
# White jumps f6xh8 and Black has no king: a win in 3 plies (no win in 1:
# the kings are not adjacent; f6 is White's only square that reaches f6,
# h6 or f8, from where g7 can be jumped). The answer is the whole line to
# the end of the game, scored WIN - 3 = 29997 (core/cheskers.h).
got=$("$tmp/sig" tb-search "$tmp/tb3" 2>&1)
if [ "$got" = "status 0 tb 1 score 29997 line e5-f6 h8-g7 f6xh8" ]; then
  ok "chk_search_run with tables: a covered root gets the tables' whole line"
else
  not_ok "chk_search_run with tables: a covered root"; echo "# $got"
fi

# ---- C API edges of the engine ------------------------------------------------
# chk_weight_name out of range answers NULL without reading the table: a
# read past its 15 names often finds a zero there, so core/eval.c is built
# with AddressSanitizer for this check (linked before the library, whose
# eval.o is then not used), which stops at such a read.
if ${CC:-cc} -std=c11 -O1 -g -fsanitize=address -D_POSIX_C_SOURCE=200809L -Icore \
    tests/core/search_signature.c core/eval.c build/libcheskers.a -lzstd -lm -lpthread -o "$tmp/sig-asan" 2>"$tmp/err"; then
  got=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$tmp/sig-asan" weight-names 2>&1)
else
  got="the AddressSanitizer build failed: $(head -3 "$tmp/err")"
fi
if [ "$got" = "-1: none, 24: none" ]; then
  ok "chk_weight_name: no name out of range (-1, CHK_NWEIGHTS = 24)"
else
  not_ok "chk_weight_name out of range"; echo "$got" | head -8 | sed 's/^/# /'
fi
# (Under make sanitize the program is instrumented: the sanitizer must then
# let the too-large allocation fail instead of stopping there, and it warns
# about each: to stderr here, not to the run's report folder, where any
# file counts as a sanitizer report. An error would still fail the test.)
# (clang's runtimes share one log path, so UBSAN_OPTIONS says it too.)
got=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:log_path=stderr" \
      UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=stderr" \
      timeout 60 "$tmp/sig" search-new 2>"$tmp/err")
if [ "$got" = "50 of 50 failed, no memory kept" ]; then
  ok "chk_search_new: a table too large (2^62, 2^63, SIZE_MAX) fails cleanly, keeping no memory"
else
  not_ok "chk_search_new with a table too large"; echo "# $got"; head -5 "$tmp/err" | sed 's/^/# /'
fi

echo "1..$n"
[ "$failed" -eq 0 ]
