#!/bin/sh
# scripts/tools/weights_sprt.sh - the runs behind the default evaluation
# weights and the strength scale of engine:level (docs/notes/engine-history.md, "How the
# default weights were proven"; docs/guide/bots.md, "The strength scale").
#
#   sh scripts/tools/weights_sprt.sh tune     the self-play games and the fit (runs/tune1, runs/w1.lua)
#   sh scripts/tools/weights_sprt.sh sprt     w1 (the defaults of the first round) against the weights before them
#   sh scripts/tools/weights_sprt.sh features the games of w1's engine, the fit of the features after
#                                             tempo (runs/tune5, runs/w4_refit.lua) and the matches of w4
#   sh scripts/tools/weights_sprt.sh headline today's engine against the engine of issue 23's start
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
# as a weights file (docs/notes/engine-history.md, "Weights files"); the features after
# tempo did not exist then: 0 (a weight left out would get today's default).
NEW0="free_pawn = 0, free_advance = 0, chess_mobility = 0, king_trapped = 0, king_danger = 0,
  advance_end = 0, trade = 0, backed = 0, edge = 0"
cat > runs/old_weights.lua <<EOF
return { weights = { pawn = 100, king = 220, bishop = 300, camel = 250, extra = 250, lone_king = -50,
  advance = 6, pawn_near = 30, mobility = 8, king_attacked = -100, attacked = 0, king_guard = 6,
  back_rank = 8, center = 8, tempo = 10,
  $NEW0 } }
EOF
OLD=engine:weights=runs/old_weights.lua
# w1: the defaults of the first round (the fit of the tune step), likewise
cat > runs/w1_weights.lua <<EOF
return { weights = { pawn = 100, king = 159, bishop = 574, camel = 361, extra = 250, lone_king = -144,
  advance = 13, pawn_near = 217, mobility = 25, king_attacked = -111, attacked = -37, king_guard = 25,
  back_rank = 61, center = 13, tempo = 37,
  $NEW0 } }
EOF
W1=engine:weights=runs/w1_weights.lua

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
        "./cheskers match $W1 $OLD --nodes 4000 --games 4000 --opening-plies 8 --sprt 0,50 --out runs/sprt4000.jsonl --restart --quiet" \
        "./cheskers match $W1 $OLD --nodes 250 --games 4000 --opening-plies 8 --sprt=-25,0 --out runs/sprt250.jsonl --restart --quiet" \
        "./cheskers match $W1 $OLD --nodes 4000 --games 2000 --opening-plies 8 --seed 2 --out runs/fixed4000.jsonl --restart --quiet" \
        "./cheskers match $W1 $OLD --nodes 250 --games 2000 --opening-plies 8 --seed 2 --out runs/fixed250.jsonl --restart --quiet"
    ;;
features)
    # The third round (docs/notes/engine-history.md, "New features"): 20,000 games of w1's
    # engine (the defaults of the second round; the features after tempo at
    # 0) at 1500 nodes, the fit of every weight (w4), its SPRTs against w1,
    # then fixed-length matches (other openings) against w1 and against the
    # old weights with the old search. (w4 itself was fitted with a
    # candidate king_end, which fit to noise and left the program: a fit
    # today differs a little; the shipped w4 is runs/w4_weights.lua below.)
    parallel -j "$JOBS" ./cheskers tune --out runs/tune5 --bot "$W1" --games 20000 --nodes 1500 \
        --shard {}/2 --quiet ::: 1 2
    ./cheskers tune --fit runs/tune5 --anchor pawn --save runs/w4_refit.lua
    cat > runs/w4_weights.lua <<EOF
return { weights = { pawn = 100, king = 196, bishop = 533, camel = 341, extra = 250, lone_king = -108,
  advance = -19, pawn_near = 98, mobility = 14, king_attacked = -68, attacked = -20, king_guard = 15,
  back_rank = 33, center = 7, tempo = 23, free_pawn = -37, free_advance = 20, chess_mobility = 6,
  king_trapped = 15, king_danger = -16, advance_end = 17, trade = 6, backed = -16, edge = -24 } }
EOF
    W4=engine:weights=runs/w4_weights.lua
    parallel -j "$JOBS" --keep-order ::: \
        "./cheskers match $W4 $W1 --nodes 4000 --games 20000 --opening-plies 8 --sprt 0,10 --out runs/f_sprt4000.jsonl --restart --quiet" \
        "./cheskers match $W4 $W1 --nodes 250 --games 20000 --opening-plies 8 --sprt=-25,0 --out runs/f_sprt250.jsonl --restart --quiet" \
        "./cheskers match $W4 $W1 --nodes 4000 --games 2000 --opening-plies 8 --seed 2 --out runs/f_fixed4000.jsonl --restart --quiet" \
        "./cheskers match $W4 $OLD,rfp=false,aspiration=false,fp=false,delta=false --nodes 4000 --games 2000 --opening-plies 8 --seed 2 --out runs/f_old4000.jsonl --restart --quiet" \
        "./cheskers match $W4 $OLD,rfp=false,aspiration=false,fp=false,delta=false --nodes 250 --games 2000 --opening-plies 8 --seed 2 --out runs/f_old250.jsonl --restart --quiet"
    ;;
headline)
    # issue 23's measure: today's engine against the engine of the issue's
    # start (the old weights and the old search: every later search change
    # off, no context kept), a fixed number of games at each budget
    OLD_ENGINE="$OLD,rfp=false,aspiration=false,fp=false,delta=false,keep=false"
    parallel -j "$JOBS" --keep-order ::: \
        "./cheskers match engine $OLD_ENGINE --nodes 4000 --games 2000 --opening-plies 8 --seed 2 --out runs/headline4000.jsonl --restart --quiet" \
        "./cheskers match engine $OLD_ENGINE --nodes 250 --games 2000 --opening-plies 8 --seed 2 --out runs/headline250.jsonl --restart --quiet"
    ;;
scale)
    # the ten levels with today's weights, levels 1, 3 and 5 with the old
    # ones (the strengths of the study in docs/notes/findings.md), and the baselines;
    # from an empty folder: a folder's games say which bots played, not which
    # program, so games of an earlier engine would be taken as done
    rm -rf runs/scale
    parallel -j "$JOBS" ./cheskers tournament random greedy engine:level=1 engine:level=2 engine:level=3 \
        engine:level=4 engine:level=5 engine:level=6 engine:level=7 engine:level=8 engine:level=9 \
        engine:level=10 "$OLD,level=1" "$OLD,level=3" "$OLD,level=5" --games "${GAMES:-80}" --opening-plies 8 --out runs/scale --shard {}/"$JOBS" --quiet \
        ::: $(seq "$JOBS")
    ./cheskers tournament --report runs/scale
    ./cheskers scripts/tools/anchored.lua runs/scale random
    ./cheskers scripts/tools/anchored.lua runs/scale engine:level=1
    ;;
*)
    echo "usage: sh scripts/tools/weights_sprt.sh tune|sprt|features|headline|scale" >&2
    exit 2
    ;;
esac
