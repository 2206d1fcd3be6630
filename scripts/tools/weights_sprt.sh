#!/bin/sh
# scripts/tools/weights_sprt.sh - the runs behind the default evaluation
# weights and the strength scale of engine:level (docs/engine.md, "How the
# default weights were proven"; docs/bots.md, "The strength scale").
#
#   sh scripts/tools/weights_sprt.sh tune     the self-play games and the fit (runs/tune1, runs/w1.lua)
#   sh scripts/tools/weights_sprt.sh sprt     today's defaults against the weights before them
#   sh scripts/tools/weights_sprt.sh scale    the tournament of engine:level=1..10, greedy, random
#                                             (GAMES a pairing, default 80), its Elo with random = 0
#
# Run from the source tree, after make. Every game has a node budget, so the
# results are the same on any machine (only the time differs); the outputs go
# to runs/ (not tracked). JOBS (default: the number of cores) runs that many
# processes at once.
set -eu
JOBS=${JOBS:-$(nproc)}
mkdir -p runs
# The default weights before this tuning (pawn 100 and extra 250 unchanged),
# as a weights file (docs/engine.md, "Weights files").
cat > runs/old_weights.lua <<'EOF'
return { weights = { pawn = 100, king = 220, bishop = 300, camel = 250, extra = 250, lone_king = -50,
  advance = 6, pawn_near = 30, mobility = 8, king_attacked = -100, attacked = 0, king_guard = 6,
  back_rank = 8, center = 8, tempo = 10 } }
EOF
OLD=engine:weights=runs/old_weights.lua

case "${1:-}" in
tune)
    # 20,000 games of the old defaults at 1500 nodes a move, then the fit
    # with the scale fixed by pawn = 100: the weights shipped.
    parallel -j "$JOBS" ./cheskers tune --out runs/tune1 --bot "$OLD" --games 20000 --nodes 1500 \
        --shard {}/2 --quiet ::: 1 2
    ./cheskers tune --fit runs/tune1 --anchor pawn --save runs/w1.lua
    ;;
sprt)
    # A sequential test at each budget, then a fixed number of games (another
    # seed: other openings) for the Elo and its interval.
    parallel -j "$JOBS" --keep-order ::: \
        "./cheskers match engine $OLD --nodes 4000 --games 4000 --opening-plies 8 --sprt 0,50 --out runs/sprt4000.jsonl --restart --quiet" \
        "./cheskers match engine $OLD --nodes 250 --games 4000 --opening-plies 8 --sprt=-25,0 --out runs/sprt250.jsonl --restart --quiet" \
        "./cheskers match engine $OLD --nodes 4000 --games 2000 --opening-plies 8 --seed 2 --out runs/fixed4000.jsonl --restart --quiet" \
        "./cheskers match engine $OLD --nodes 250 --games 2000 --opening-plies 8 --seed 2 --out runs/fixed250.jsonl --restart --quiet"
    ;;
scale)
    # the ten levels with today's weights, levels 1, 3 and 5 with the old
    # ones (the strengths of the study in docs/findings.md), and the baselines
    parallel -j "$JOBS" ./cheskers tournament random greedy engine:level=1 engine:level=2 engine:level=3 \
        engine:level=4 engine:level=5 engine:level=6 engine:level=7 engine:level=8 engine:level=9 \
        engine:level=10 "$OLD,level=1" "$OLD,level=3" "$OLD,level=5" --games "${GAMES:-80}" --opening-plies 8 --out runs/scale --shard {}/"$JOBS" --quiet \
        ::: $(seq "$JOBS")
    ./cheskers tournament --report runs/scale
    ./cheskers scripts/tools/anchored.lua runs/scale random
    ./cheskers scripts/tools/anchored.lua runs/scale engine:level=1
    ;;
*)
    echo "usage: sh scripts/tools/weights_sprt.sh tune|sprt|scale" >&2
    exit 2
    ;;
esac
