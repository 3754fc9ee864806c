#!/usr/bin/env bash
# Checks that `waggle bench` prints the node count of the latest commit that
# carries a `Bench: <nodes>` line (the signature of every search change).
#
#   scripts/bench-signature.sh [path/to/waggle]     (default: target/release/waggle)
set -euo pipefail
cd "$(dirname "$0")/.."
waggle="${1:-target/release/waggle}"
expected=$(git log --format=%B 2>/dev/null | grep -m1 -oE '^Bench: [0-9]+' | awk '{print $2}' || true)
if [ -z "$expected" ]; then
    echo "bench-signature: no 'Bench:' line in the history; nothing to check"
    exit 0
fi
got=$("$waggle" bench | grep -oE '^Bench: [0-9]+' | awk '{print $2}')
if [ "$got" != "$expected" ]; then
    echo "bench-signature: waggle bench gives $got nodes, the history says $expected" >&2
    exit 1
fi
echo "bench-signature: $got nodes, as signed"
