# The Runs tab over results pulled from two hosts (file:// export documents): the list and its
# host, rung and verdict filters, a run's checks with the selected check in full (a hang where
# the other host passed), the machine's fingerprint, the pull started with P, and the dashboard's
# latest verdict per rung of each host.
. tests/screen/screen_lib
. tests/screen/runs_lib

kl_need "python3 is needed to write the fixture documents" python3
docs=$KL_TMP/docs
results_docs "$docs" || { tap_fail "fixture documents written"; exit 0; }

# P from the interface: the pull runs as a child and reports one line per host.
results_db "$KL_TMP/pull.db" "$docs" || { tap_fail "hosts added"; exit 0; }
SCREEN_DB=$KL_TMP/pull.db SCREEN_KEEP_DB=1 screen_run 100x30 'P
:save-screen runs-pull
Esc
:save-screen runs-pull-hidden'
sed -i -E 's/host\(s\), [0-9]+\.[0-9] s/host(s), T s/' "$SCREENS/runs-pull.screen"
screen_check runs-pull
tap_check "P pulled both hosts" grep -q '^   h200: 3 new runs, 18 checks (0 already present)' "$SCREENS/runs-pull.screen"
tap_check "Esc hides the pull report" sh -c "! grep -q 'new runs' '$SCREENS/runs-pull-hidden.screen'"
tap_check "the pulled runs are listed" test "$(grep -c '^ 2026-11-01' "$SCREENS/runs-pull-hidden.screen")" -eq 6
# A second pull adds nothing (runs are known by UUID; only the cursor's own second is looked at
# again, and what it finds is counted as already present).
SCREEN_DB=$KL_TMP/pull.db SCREEN_KEEP_DB=1 screen_run 100x30 'P
:save-screen runs-pull-again'
tap_check "a second P adds nothing" \
    sh -c "grep -q '^   cpubox: 0 new runs, 0 checks' '$SCREENS/runs-pull-again.screen' && grep -q '^   h200: 0 new runs, 0 checks' '$SCREENS/runs-pull-again.screen'"

# A host whose document is gone: an error line for it, the other host still pulled.
results_db "$KL_TMP/broken.db" "$docs" || exit 0
"$KLADDER" --db "$KL_TMP/broken.db" hosts add gone "file://$KL_TMP/no-such.json" >/dev/null
SCREEN_DB=$KL_TMP/broken.db SCREEN_KEEP_DB=1 screen_run 100x30 'P
:save-screen runs-pull-error'
tap_check "a failing host gets its error line" grep -q '^   gone: error: ' "$SCREENS/runs-pull-error.screen"
tap_check "the other hosts are pulled anyway" grep -q '^   h200: 3 new runs' "$SCREENS/runs-pull-error.screen"

results_db "$KL_TMP/runs.db" "$docs" pull || { tap_fail "pulled with kladder pull"; exit 0; }
SCREEN_DB=$KL_TMP/runs.db SCREEN_KEEP_DB=1 screen_run 100x30 ':save-screen runs-dashboard
3
:save-screen runs-list
H
:save-screen runs-host-local
H
:save-screen runs-host-cpubox
x
R
:save-screen runs-rung-1
x
V
V
:save-screen runs-verdict-fail
x
G
Enter
:save-screen run-checks
j
j
:save-screen run-check-hang
m
:save-screen run-machine
Esc
Esc
:save-screen runs-back
L
:save-screen runs-list-zh'
# 80 columns: the machine goes, the start time loses its year and the counts narrow before the
# host goes: the host tells a run made here from a pulled one.
SCREEN_DB=$KL_TMP/runs.db SCREEN_KEEP_DB=1 screen_run 80x24 '3
:save-screen runs-80x24'
screen_check runs-80x24
tap_check "80 columns: every run names its host" \
    test "$(grep -cE '^ 11-01 00:0[0-2] +(h200|cpubox) ' "$SCREENS/runs-80x24.screen")" = 6
for s in runs-dashboard runs-list runs-host-cpubox runs-rung-1 run-checks run-check-hang run-machine \
         runs-list-zh; do
    screen_check "$s"
done
tap_check "the dashboard shows a verdict row per host" \
    sh -c "grep -q '^ ▸ h200 ' '$SCREENS/runs-dashboard.screen' && grep -q '^ ▸ cpubox ' '$SCREENS/runs-dashboard.screen'"
tap_check "no local runs: the local filter is empty" grep -q 'No run matches the filters' "$SCREENS/runs-host-local.screen"
tap_check "the host filter keeps cpubox's runs only" \
    sh -c "test \$(grep -c '^ 2026.* cpubox ' '$SCREENS/runs-host-cpubox.screen') -eq 3 && ! grep -q ' h200 ' '$SCREENS/runs-host-cpubox.screen'"
tap_check "the rung filter" sh -c "test \$(grep -c ' R1 ' '$SCREENS/runs-rung-1.screen') -eq 2"
tap_check "the verdict filter (fail)" grep -q 'Run 1 of 6 · verdict fail' "$SCREENS/runs-verdict-fail.screen"
tap_check "the hang shows its oracle detail" grep -q 'stopped by the watchdog after the 10 s limit' "$SCREENS/run-check-hang.screen"
tap_check "timings of the check" grep -q 'median 36 us · min 32.4 us · max 39.6 us' "$SCREENS/run-check-hang.screen"
tap_check "the machine's fingerprint" grep -q '^ backend             cpu' "$SCREENS/run-machine.screen"
tap_check "Esc twice returns to the list" grep -q '^Run 6 of 6' "$SCREENS/runs-back.screen"
