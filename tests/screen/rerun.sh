# r on a run in the Runs list runs it again: the same rung, suite, variants, backend, device and
# time limit, followed in the live view, and recorded as a new run. A pulled run ran on another
# machine: r says so and points at Y instead of starting anything.
. tests/screen/screen_lib
. tests/screen/runs_lib
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/rerun.db
"$KLADDER" --db "$db" run --rung 4 --suite flydsl-1220 --backend cpu --variant buggy --timeout 30 \
    --no-progress >/dev/null 2>&1
tap_check "a run of flydsl-1220 rung 4 (buggy, cpu, 30 s limit) made here" test $? = 0
SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 120x30 '3
r
:save-screen rerun-live
Esc
:save-screen rerun-list'
live=$SCREENS/rerun-live.screen list=$SCREENS/rerun-list.screen
tap_check "r starts the same rung and suite again, in the live view" \
    grep -q '^ kladder --db .* run --rung 4 --suite flydsl-1220 --backend cpu ' "$live"
newest_argv=$("$KLADDER" --db "$db" results --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["argv"])')
echo "# the new run's command line: $newest_argv"
tap_check "with the same variants, backend, device and time limit" \
    sh -c "echo '$newest_argv' | grep -q -- '--rung 4 --suite flydsl-1220 --backend cpu --device 0 --variant buggy --timeout 30 '"
tap_check "and follows it to its end" grep -qE '^ pass · 3 of 3 checks done' "$live"
tap_check "the Runs list has both runs now" grep -q '^Run 1 of 2 ' "$list"
tap_check "both of flydsl-1220 rung 4, both passed" \
    test "$(grep -cE ' R4 +flydsl-1220 +✓ pass ' "$list")" = 2

if command -v python3 >/dev/null; then
    docs=$KL_TMP/docs
    results_docs "$docs" && results_db "$KL_TMP/pulled.db" "$docs" pull ||
        { tap_fail "fixture pulled"; exit 0; }
    SCREEN_DB=$KL_TMP/pulled.db SCREEN_KEEP_DB=1 screen_run 120x30 '3
r
:save-screen rerun-pulled'
    tap_check "a pulled run is not rerun here: r says why" \
        grep -q '^r reruns runs made here; this one was pulled from another host (Y copies its command line)' \
        "$SCREENS/rerun-pulled.screen"
    tap_check "and nothing started" grep -q '^ Started ' "$SCREENS/rerun-pulled.screen"
fi
