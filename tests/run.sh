#!/usr/bin/env bash
# Runs every test of kladder twice: on the normal build and on the ASan+UBSan build.
#
#   tests/run.sh [--plain|--asan] [PATTERN...]
#
# --plain runs only the normal build's pass, --asan only the sanitizer build's. A PATTERN keeps
# the tests whose label contains it (a shell pattern: * and ? work), e.g. engine/rung6,
# test_results_json, 'importers/pull_*'; several PATTERNs keep what any of them keeps. Labels are
# what the report prints: build/test_results_json, build/asan/tests/engine/rung6.sh.
# With no argument everything runs. See tests/README.md.
#
# A test is a cmocka binary (build*/tests/test_*) or a script tests/<group>/*.sh. Every test
# speaks TAP: lines "ok N - name" and "not ok N - name" are counted; a test that exits non-zero
# without reporting a failure counts as one failure of its own. Scripts get:
#   KLADDER   the binary under test      KL_BUILD   its build folder
#   KL_SAN    1 on the sanitizer pass    KL_TMP     a fresh scratch folder, removed afterwards
# The last line is "N passed, N failed" (and ", N skipped" when any test said "# SKIP").
set -u
usage() {
    echo "usage: tests/run.sh [--plain|--asan] [PATTERN...]" >&2
    exit 2
}
builds=(build build/asan)
patterns=()
for arg in "$@"; do
    case $arg in
        --plain) builds=(build) ;;
        --asan) builds=(build/asan) ;;
        -h|--help) usage ;;
        -*) echo "tests/run.sh: unknown option $arg" >&2; usage ;;
        *) patterns+=("$arg") ;;
    esac
done
cd "$(dirname "$0")/.."
root=$PWD
logdir=$root/build/test-logs
rm -rf "$logdir"
mkdir -p "$logdir"

passed=0 failed=0 skipped=0 ran=0
failures=()

wanted() { # $1 label: kept by a pattern, or no pattern given
    [ ${#patterns[@]} -eq 0 ] && return 0
    local p
    for p in "${patterns[@]}"; do
        # shellcheck disable=SC2053
        [[ $1 == *$p* ]] && return 0
    done
    return 1
}
export LC_ALL=C.UTF-8 TERM=xterm-256color
unset NO_COLOR

run_one() { # $1 label, $2... command
    local label=$1; shift
    ran=$((ran + 1))
    local log="$logdir/$(echo "$label" | tr '/ ' '__').log"
    local t0=$SECONDS
    "$@" >"$log" 2>&1
    local rc=$?
    local ok nok skip
    ok=$(grep -c -E '^ok [0-9]+' "$log")
    skip=$(grep -c -E '^ok [0-9]+.*# ?SKIP' "$log")
    nok=$(grep -c -E '^not ok [0-9]+' "$log")
    ok=$((ok - skip))
    if [ "$rc" -ne 0 ] && [ "$nok" -eq 0 ]; then
        nok=1
        echo "not ok 0 - $label exited with status $rc" >>"$log"
    fi
    if [ "$ok" -eq 0 ] && [ "$nok" -eq 0 ] && [ "$skip" -eq 0 ]; then
        nok=1
        echo "not ok 0 - $label reported no test at all" >>"$log"
    fi
    passed=$((passed + ok)); failed=$((failed + nok)); skipped=$((skipped + skip))
    printf '%-52s %4d ok %3d failed %3d skipped  %3ds\n' "$label" "$ok" "$nok" "$skip" $((SECONDS - t0))
    if [ "$nok" -gt 0 ]; then
        failures+=("$label")
        grep -E '^not ok' "$log" | head -n 20 | sed 's/^/    /'
        echo "    (log: ${log#$root/})"
    fi
}

for build in "${builds[@]}"; do
    [ -x "$build/kladder" ] || { echo "missing $build/kladder: run make first"; failed=$((failed + 1)); continue; }
    san=0
    [ "$build" = build/asan ] && san=1
    export KLADDER=$root/$build/kladder KL_BUILD=$root/$build KL_SAN=$san
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98
    export CMOCKA_MESSAGE_OUTPUT=TAP
    echo "== $build"
    for t in "$build"/tests/test_*; do
        [ -x "$t" ] || continue
        wanted "$build/${t##*/}" || continue
        run_one "$build/${t##*/}" "$t"
    done
    for group in unitsh screen engine gpu importers e2e; do
        for s in tests/$group/*.sh; do
            [ -f "$s" ] || continue
            wanted "$build/$s" || continue
            KL_TMP=$(mktemp -d)
            # a user's own themes or settings never reach a test
            XDG_CONFIG_HOME=$KL_TMP/config
            export KL_TMP XDG_CONFIG_HOME
            run_one "$build/$s" bash "$s"
            rm -rf "$KL_TMP"
        done
    done
done

if [ "$ran" -eq 0 ] && [ ${#patterns[@]} -gt 0 ]; then
    # a mistyped pattern must not look like a clean run
    failed=$((failed + 1))
    failures+=("(no test label matches: ${patterns[*]})")
fi

echo
if [ ${#failures[@]} -gt 0 ]; then
    echo "failed: ${failures[*]}"
fi
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
