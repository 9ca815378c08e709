# A run of several rungs (`run --suite` of every rung a suite lists, recorded as rung 0) as the
# dashboard, the Runs view and `kladder results` show it. A user's suite that met every
# expectation (its buggy variant caught by rung 2 only) shows ✓ under each rung it ran, not the
# ✗ of its buggy checks' failures; the Runs view names its rungs ("R1,2,3,5") and says its
# failing checks were bugs caught, not "✓ pass · 4 failed"; `results --rung N` lists it under
# each rung it ran and not under another. The same suite with its variants swapped fails its
# "fixed" checks at rung 2 only: ✗ there, ✓ under the other rungs.
. tests/screen/screen_lib
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
pl=tests/engine/fixtures/plain
dir=$KL_TMP/mine
mkdir -p "$dir"
cp $pl/block_sumsq.hip "$dir/"
# a round default length: only rung 2's chunked lengths reach the dropped tail
sed 's/"params": {"n": 1000}/"params": {"n": 1024}/; s/"name": "n1001", "n": 1001/"name": "n2048", "n": 2048/' \
    $pl/block-sumsq.json >"$dir/round.json"
sed 's/"fixed": "block_sumsq<true>", "buggy": "block_sumsq<false>"/"fixed": "block_sumsq<false>", "buggy": "block_sumsq<true>"/' \
    "$dir/round.json" >"$dir/swapped.json"

met=$KL_TMP/met.db
"$KLADDER" --db "$met" --data-dir tests/fixtures/tui cases >/dev/null
"$KLADDER" --db "$met" run --suite "$dir/round.json" --backend cpu --no-progress >"$KL_TMP/met.txt" 2>&1
tap_check "the suite's run over rungs 1, 2, 3 and 5 met every expectation" test $? -eq 0
"$KLADDER" --db "$met" run --suite $pl/adamw.json --rung 1 --backend cpu --no-progress \
    >/dev/null 2>&1
SCREEN_DB=$met SCREEN_KEEP_DB=1 screen_run 100x30 ':save-screen multi-dash
3
:save-screen multi-runs
R
:save-screen multi-runs-r1
R
R
R
:save-screen multi-runs-r4'
tap_check "dashboard: ✓ under each rung it ran, nothing under R4" \
    grep -qE '^ ▸ local +✓ +✓ +✓ {5,}✓ *$' "$SCREENS/multi-dash.screen"
tap_check "Runs: its rungs, and its buggy checks' failures as bugs caught" \
    grep -qE '^ [0-9-]+ [0-9:]+ +local +R1,2,3,5 +plain-block-sumsq +✓ pass +[0-9]+ bugs caught, [0-9]+ passed *$' "$SCREENS/multi-runs.screen"
tap_check "Runs: a unit test catching a user's bug in a run that passed is a catch, not a failure" \
    grep -qE '^ .* R1 +plain-adamw +✓ pass +[0-9]+ bugs caught, [0-9]+ passed *$' "$SCREENS/multi-runs.screen"
tap_check "Runs: no row says pass beside failed" bash -c "! grep -E 'pass .*failed' '$SCREENS/multi-runs.screen'"
tap_check "Runs filtered to rung 1: both runs" \
    test "$(grep -cE 'plain-(block-sumsq|adamw)' "$SCREENS/multi-runs-r1.screen")" -eq 2
tap_check "filtered to rung 4: neither" bash -c "! grep -qE 'plain-' '$SCREENS/multi-runs-r4.screen'"
"$KLADDER" --db "$met" results --rung 3 >"$KL_TMP/r3.txt"
"$KLADDER" --db "$met" results --rung 4 >"$KL_TMP/r4.txt"
sed 's/^/# /' "$KL_TMP/r3.txt"
tap_check "results --rung 3 lists the run of several rungs, with its rungs" \
    grep -qE '^[0-9a-f]{8} .* 1,2,3,5 +plain-block-sumsq +both +pass +[0-9]+ bugs caught, [0-9]+ passed$' "$KL_TMP/r3.txt"
tap_check "results --rung 4 does not" grep -qx '0 runs' "$KL_TMP/r4.txt"

bad=$KL_TMP/bad.db
"$KLADDER" --db "$bad" --data-dir tests/fixtures/tui cases >/dev/null
"$KLADDER" --db "$bad" run --suite "$dir/swapped.json" --backend cpu --no-progress >"$KL_TMP/bad.txt" 2>&1
tap_check "the swapped suite's run fails (its fixed variant is the buggy kernel)" test $? -eq 1
tap_check "and only rung 2's fixed checks fail" \
    bash -c "grep -E '^(fail|hang|error) +fixed' '$KL_TMP/bad.txt' | grep -vqE ' r2 ' && exit 1;
             grep -qE '^fail +fixed +r2 ' '$KL_TMP/bad.txt'"
SCREEN_DB=$bad SCREEN_KEEP_DB=1 screen_run 100x30 ':save-screen bad-dash'
tap_check "dashboard: ✗ under R2 only" \
    grep -qE '^ ▸ local +✓ +✗ +✓ {5,}✓ *$' "$SCREENS/bad-dash.screen"
