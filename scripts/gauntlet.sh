#!/usr/bin/env bash
# A gauntlet: Waggle against one or more other UHP engines, each opening of
# bench-positions/openings.txt played twice with colours swapped.
#
# Usage:
#   scripts/gauntlet.sh [OTHER ENGINE COMMAND]...
#
# Examples:
#   scripts/gauntlet.sh "nokamute uhp" "/opt/mzinga/MzingaEngine"
#   GAMES=100 TIME=1 CONCURRENCY=2 scripts/gauntlet.sh "nokamute uhp"
#
# With no engine given, Waggle plays a second Waggle searching one ply less,
# which is a quick way to see the arena work.
#
# Settings (environment variables):
#   WAGGLE       the waggle binary (default: target/release/waggle, else target/debug/waggle)
#   GAMES        games per opponent (default 20)
#   DEPTH        depth per move, used when TIME is empty (default 2)
#   TIME         seconds per move, e.g. 0.5 (default: empty, use DEPTH)
#   CONCURRENCY  games at once (default 1)
#   OUT          output folder (default gauntlet-games): PGN files, games.txt,
#                results.csv (see scripts/plot.py elo) and arena.log
set -euo pipefail
cd "$(dirname "$0")/.."

WAGGLE=${WAGGLE:-}
if [ -z "$WAGGLE" ]; then
  if [ -x target/release/waggle ]; then WAGGLE=target/release/waggle; else WAGGLE=target/debug/waggle; fi
fi
GAMES=${GAMES:-20}
DEPTH=${DEPTH:-2}
TIME=${TIME:-}
CONCURRENCY=${CONCURRENCY:-1}
OUT=${OUT:-gauntlet-games}

limit=(--depth "$DEPTH")
[ -n "$TIME" ] && limit=(--time "$TIME")

engines=(--engine "name=waggle,cmd=$WAGGLE,option.Threads=1")
if [ "$#" -eq 0 ]; then
  engines+=(--engine "name=waggle-shallow,cmd=$WAGGLE,option.Threads=1,depth=$((DEPTH > 1 ? DEPTH - 1 : 1))")
else
  for other in "$@"; do engines+=(--engine "$other"); done
fi

exec "$WAGGLE" arena "${engines[@]}" --mode gauntlet --games "$GAMES" "${limit[@]}" \
  --concurrency "$CONCURRENCY" --out "$OUT"
