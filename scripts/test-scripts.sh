#!/usr/bin/env bash
# Exercises every script in scripts/ on a tiny input (CI runs this).
#
#   scripts/test-scripts.sh
#
# Uses $WAGGLE if set, else builds and uses target/debug/waggle. The plot is
# made only when matplotlib is importable or can be installed into a
# throw-away virtual environment (or with pip --user); otherwise that step is
# skipped with a message. Set SKIP_PLOT=1 to skip it outright.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${WAGGLE:-}" ]; then
  cargo build --quiet
  WAGGLE=target/debug/waggle
fi
export WAGGLE
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

echo "== scripts/gauntlet.sh (2 games, depth 1)"
GAMES=2 DEPTH=1 OUT="$tmp/gauntlet" scripts/gauntlet.sh >"$tmp/gauntlet.txt"
cat "$tmp/gauntlet.txt"
grep -q "Arena: 2 of 2 games played" "$tmp/gauntlet.txt" || fail "the gauntlet did not play 2 games"
[ "$(wc -l <"$tmp/gauntlet/games.txt")" -eq 2 ] || fail "games.txt should hold 2 games"
ls "$tmp"/gauntlet/game-0000[12].pgn >/dev/null || fail "PGN files missing"

echo "== scripts/analyse_games.py (CSV and JSON, first 10 plies of each game)"
python3 scripts/analyse_games.py "$tmp/gauntlet/games.txt" --depth 1 --max-plies 10 \
  --waggle "$WAGGLE" --out "$tmp/analysis.csv"
head -3 "$tmp/analysis.csv"
[ "$(wc -l <"$tmp/analysis.csv")" -eq 23 ] || fail "expected a header and 2 x 11 rows"
python3 scripts/analyse_games.py "$tmp/gauntlet/games.txt" --depth 1 --max-plies 3 \
  --waggle "$WAGGLE" --json --out "$tmp/analysis.jsonl"
[ "$(wc -l <"$tmp/analysis.jsonl")" -eq 8 ] || fail "expected 2 x 4 JSON lines"
python3 -c 'import json,sys; [json.loads(l)["best_move"] for l in open(sys.argv[1])]' "$tmp/analysis.jsonl" \
  || fail "bad JSON lines"

echo "== scripts/time-to-depth.sh (depth 2, one run)"
DEPTH=2 RUNS=1 scripts/time-to-depth.sh >"$tmp/ttd.txt"
cat "$tmp/ttd.txt"
[ "$(grep -c '^run 1, [12] thread(s): [0-9]* positions' "$tmp/ttd.txt")" -eq 2 ] || fail "expected one line per thread count"
grep -q '^depth 2, 1 run(s): .* time ratio [0-9.]*, node ratio [0-9.]*$' "$tmp/ttd.txt" || fail "no summary line"

echo "== scripts/bench-instructions.sh (depth 1)"
DEPTH=1 scripts/bench-instructions.sh "$WAGGLE" >"$tmp/instructions.txt"
cat "$tmp/instructions.txt"
grep -qE "^(.*: [0-9]+ nodes, [0-9]+ instructions, [0-9]+ outside memset|bench-instructions: valgrind is not installed; nothing measured)$" \
  "$tmp/instructions.txt" || fail "no instruction count (and no word that valgrind is missing)"

echo "== scripts/plot.py (eval curve and Elo over time)"
py=python3
if [ "${SKIP_PLOT:-0}" = 1 ]; then
  py=
elif ! python3 -c 'import matplotlib' 2>/dev/null; then
  if python3 -m venv "$tmp/venv" >/dev/null 2>&1 &&
    "$tmp/venv/bin/python" -m pip install --quiet matplotlib >/dev/null 2>&1; then
    py="$tmp/venv/bin/python"
  elif python3 -m pip install --quiet --user matplotlib >/dev/null 2>&1 &&
    python3 -c 'import matplotlib' 2>/dev/null; then
    py=python3
  else
    py=
  fi
fi
if [ -z "$py" ]; then
  echo "skipped: matplotlib is not available and could not be installed"
else
  "$py" scripts/plot.py eval "$tmp/analysis.csv" --game 1 --out "$tmp/eval.png"
  "$py" scripts/plot.py elo "$tmp/gauntlet/results.csv" --out "$tmp/elo.png" ||
    echo "(no finite Elo after 2 games: expected when one side won both)"
  [ -s "$tmp/eval.png" ] || fail "no eval.png"
fi
echo "scripts OK"
