#!/usr/bin/env bash
# Instructions that `waggle bench` executes, counted by valgrind's cachegrind:
# a speed comparison that the machine's load does not move (timed runs of two
# builds on this shared machine differ by 10-20% from one run to the next).
# Instructions are not time (cache misses are not counted), so confirm a gain
# with timed runs too.
#
#   scripts/bench-instructions.sh [waggle ...]   (default: target/release/waggle)
#   DEPTH=9 scripts/bench-instructions.sh old/waggle target/release/waggle
#
# Prints, per binary, the bench's node count, all instructions, and the
# instructions outside memset, which here is almost all the clearing of the
# table before each position (valgrind counts `rep stos` byte by byte), not
# the search. Needs valgrind (`apt-get install valgrind`); without it, says so
# and exits 0.
#
# Settings (environment variables):
#   DEPTH   bench depth (default: the bench's own)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null || ! command -v cg_annotate >/dev/null; then
  echo "bench-instructions: valgrind is not installed; nothing measured"
  exit 0
fi
[ "$#" -gt 0 ] || set -- target/release/waggle
depth_args=()
[ -n "${DEPTH:-}" ] && depth_args=(--depth "$DEPTH")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for waggle in "$@"; do
  [ -x "$waggle" ] || { echo "no waggle binary at $waggle" >&2; exit 1; }
  out="$tmp/cachegrind.out"
  nodes=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out" \
    "$waggle" bench "${depth_args[@]}" 2>/dev/null | grep -oE '^Bench: [0-9]+' | awk '{print $2}')
  cg_annotate "$out" >"$tmp/annotated.txt" 2>/dev/null
  total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }' "$tmp/annotated.txt")
  memset=$(awk '/memset/ && $2 ~ /^\(/ { gsub(",", "", $1); s += $1 } END { print s + 0 }' "$tmp/annotated.txt")
  echo "$waggle: $nodes nodes, $total instructions, $((total - memset)) outside memset"
done
