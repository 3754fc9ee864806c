#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ for a fixed time each.
#
#   scripts/fuzz.sh [seconds] [target...]     (default: 60 s, every target)
#
# Targets: uhp (the UHP loop and its ok/err framing), move_string and
# game_string (the parsers, with their round trips). Each run starts from
# the seed corpus in fuzz/corpus/<target>/ plus what earlier local runs
# found (fuzz/target/corpus/<target>/, not committed).
#
# Needs cargo-fuzz and a C++ compiler (for libFuzzer). It builds on the
# stable toolchain with --sanitizer none: Waggle forbids unsafe code, so
# AddressSanitizer has nothing to add, and panics and failed assertions
# (debug assertions are on) are what the targets look for. When cargo-fuzz
# is missing the script installs it from crates.io (unless
# WAGGLE_FUZZ_INSTALL=0); when the toolchain can't fuzz at all it prints a
# SKIPPED line and exits 0. A target that fails to build or finds a crash
# makes it exit 1, with the crash file under fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: scripts/fuzz.sh [seconds] [target...]" >&2
    exit 2
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(uhp move_string game_string)
fi

skip() {
    echo "fuzz: SKIPPED: $*"
    exit 0
}

if ! cargo fuzz --version >/dev/null 2>&1; then
    if [ "${WAGGLE_FUZZ_INSTALL:-1}" != 1 ]; then
        skip "cargo-fuzz is not installed (cargo install cargo-fuzz)"
    fi
    echo "fuzz: installing cargo-fuzz from crates.io"
    if ! cargo install cargo-fuzz --locked >/tmp/waggle-fuzz-install.log 2>&1; then
        tail -5 /tmp/waggle-fuzz-install.log
        skip "cargo-fuzz is not installed and could not be installed"
    fi
fi
if ! command -v c++ >/dev/null 2>&1; then
    skip "no C++ compiler to build libFuzzer"
fi

flags=(--sanitizer none --debug-assertions)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "fuzz: building ${targets[*]} ($(cargo fuzz --version))"
if ! cargo fuzz build "${flags[@]}" >"$log" 2>&1; then
    if grep -qE "only accepted on the nightly|requires a nightly|unstable|-Z" "$log" \
        && ! grep -qE "^error\[E[0-9]+\]" "$log"; then
        tail -5 "$log"
        skip "this toolchain can't build the fuzz targets"
    fi
    cat "$log"
    echo "fuzz: FAILED: the fuzz targets do not build"
    exit 1
fi

status=0
for target in "${targets[@]}"; do
    work="fuzz/target/corpus/$target"
    mkdir -p "$work"
    if cargo fuzz run "${flags[@]}" "$target" "$work" "fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
        -print_final_stats=1 >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
        echo "fuzz: $target: ${runs:-?} runs in ${seconds} s, no crash"
    else
        tail -40 "$log"
        echo "fuzz: $target: FAILED (crash file under fuzz/artifacts/$target/)"
        status=1
    fi
done
exit $status
