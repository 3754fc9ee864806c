#!/usr/bin/env bash
# Time to a fixed depth with several threads against one thread, on the bench
# positions: the measure behind the README's "2 threads vs 1, time to depth"
# row.
#
# Usage:
#   scripts/time-to-depth.sh
#   DEPTH=11 RUNS=4 THREADS=2 scripts/time-to-depth.sh
#
# Runs `waggle --threads 1 bench --depth D` and `waggle --threads N bench
# --depth D` alternately, RUNS times each, and sums the per-position search
# times (in ms, as bench prints them) and nodes. Prints one line per run and
# a summary: the summed times, their ratio (N threads / 1 thread) and the
# node ratio. The machine's load moves single runs; compare several.
#
# Settings (environment variables):
#   WAGGLE   the waggle binary (default: target/release/waggle)
#   DEPTH    search depth in plies (default 10)
#   RUNS     runs per thread count (default 3)
#   THREADS  the thread count compared with one thread (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."

WAGGLE=${WAGGLE:-target/release/waggle}
DEPTH=${DEPTH:-10}
RUNS=${RUNS:-3}
THREADS=${THREADS:-2}
[ "$THREADS" -gt 1 ] || { echo "THREADS must be 2 or more" >&2; exit 1; }
[ -x "$WAGGLE" ] || { echo "no waggle binary at $WAGGLE (cargo build --release)" >&2; exit 1; }

# Sums the ms and nodes columns of bench's position lines
# ("  i  nodes nodes  ms ms depth D  GameString").
sum_run() {
  "$WAGGLE" --threads "$1" bench --depth "$DEPTH" 2>/dev/null |
    awk '$3 == "nodes" && $5 == "ms" && $6 == "depth" { ms += $4; nodes += $2; n++ }
         END { if (n == 0) exit 1; printf "%d %d %d\n", ms, nodes, n }'
}

ms1=0 nodes1=0 msn=0 nodesn=0
for run in $(seq "$RUNS"); do
  for t in 1 "$THREADS"; do
    read -r ms nodes positions < <(sum_run "$t") || { echo "bench printed no positions" >&2; exit 1; }
    echo "run $run, $t thread(s): $positions positions, $ms ms, $nodes nodes"
    if [ "$t" = 1 ]; then
      ms1=$((ms1 + ms)) nodes1=$((nodes1 + nodes))
    else
      msn=$((msn + ms)) nodesn=$((nodesn + nodes))
    fi
  done
done
awk -v d="$DEPTH" -v r="$RUNS" -v t="$THREADS" -v a="$ms1" -v b="$msn" -v na="$nodes1" -v nb="$nodesn" 'BEGIN {
  printf "depth %d, %d run(s): 1 thread %d ms, %d threads %d ms a run; time ratio %.3f, node ratio %.3f\n",
    d, r, a / r, t, b / r, (a > 0 ? b / a : 0), (na > 0 ? nb / na : 0)
}'
