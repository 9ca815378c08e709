#!/usr/bin/env bash
# Every built-in reproducer x every rung its manifest lists, on the cpu backend: the baseline
# passes both variants, the rung passes fixed and catches buggy. Where the checks that reach a
# bug are beyond the cpu backend (2^31-byte outputs, full KV pools) they are skipped with the
# reason, and the test says so instead of passing. New suites are picked up automatically.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
timeout=10
if [ "${KL_SAN:-0}" = 1 ]; then
    # The sanitizer pass runs the same checks with less emulated work per check, and a
    # longer limit: the instrumented scheduler is slower (its longest correct check takes 3 s
    # on a quiet machine; the watchdog's clock stretches with the load, engine/watchdog/fair_clock.h).
    # A hang verdict waits the whole limit, so it is not longer than that needs.
    export KLADDER_CPU_MAX_THREADS=1048576
    timeout=15
fi
"$KLADDER" run --list >"$KL_TMP/list.txt" || tap_fail "kladder run --list"
n=0
while read -r name _case _id _rungs rungs _rest; do
    [ -n "$name" ] || continue
    for r in $(echo "$rungs" | tr ',' ' '); do
        case $r in 1 | 2 | 4 | 5) ;; *) continue ;; esac
        n=$((n + 1))
        out=$KL_TMP/$name-$r.txt
        t0=$SECONDS
        "$KLADDER" --db "$KL_TMP/k.db" run --rung "$r" --suite "$name" --backend cpu \
            --timeout $timeout --no-progress >"$out" 2>&1
        rc=$?
        echo "# $name rung $r: exit $rc in $((SECONDS - t0)) s"
        tag="$name rung $r"
        bad_base=$(grep -cE '^(fail|hang|error) +baseline-' "$out")
        bad_fixed=$(grep -cE '^(fail|hang|error) +fixed ' "$out")
        caught=$(grep -cE '^(fail|hang) +buggy ' "$out")
        buggy_err=$(grep -cE '^error +buggy ' "$out")
        ran_base=$(grep -cE '^pass +baseline-(fixed|buggy) ' "$out")
        if [ "$bad_base" -ne 0 ] || [ "$ran_base" -eq 0 ]; then
            tap_fail "$tag: the baseline passes both variants"
            grep -E '^(fail|hang|error) +baseline-' -A1 "$out" | sed 's/^/# /'
        else
            tap_ok "$tag: the baseline passes both variants ($ran_base checks)"
        fi
        if [ "$bad_fixed" -ne 0 ]; then
            tap_fail "$tag: the rung passes the fixed variant"
            grep -E '^(fail|hang|error) +fixed ' -A1 "$out" | sed 's/^/# /'
        else
            tap_ok "$tag: the rung passes the fixed variant"
        fi
        if [ "$caught" -gt 0 ] && [ "$buggy_err" -eq 0 ]; then
            tap_ok "$tag: the rung catches the buggy variant ($caught checks)"
        elif [ "$buggy_err" -eq 0 ] && grep -q '^inconclusive' "$out"; then
            reason=$(grep -E '^skip +buggy' -A1 "$out" | sed -n 2p | sed 's/^ *//')
            tap_skip "$tag: buggy not reachable on the cpu backend: $reason"
        else
            tap_fail "$tag: the rung catches the buggy variant"
            grep -E ' buggy ' -A1 "$out" | sed 's/^/# /'
        fi
        if grep -q '^inconclusive' "$out"; then
            # not shown either way is never a pass
            tap_check "$tag: inconclusive: exit status 1" test "$rc" -eq 1
        else
            tap_check "$tag: exit status 0 (expectation met)" test "$rc" -eq 0
            [ "$rc" -eq 0 ] || tail -n 3 "$out" | sed 's/^/# /'
        fi
    done
done <"$KL_TMP/list.txt"
tap_check "at least seven suites were run ($n suite-rungs)" test "$n" -ge 7
