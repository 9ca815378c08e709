# Fixed beside buggy in the run view (p): a local cpu run of the rung 3 ballot fixture (a 64-lane
# ballot count that fails at wave 32), whose checks come as fixed/buggy pairs and the baseline
# test's pair. One buggy check is then removed from the database, as a run cancelled between
# the two variants leaves it, so one pair has a missing side. Run identity, host, times and
# timings are made fixed afterwards so the screens are the same on every machine.
. tests/screen/screen_lib
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
kl_need "sqlite3 is needed to make the run's identity fixed" sqlite3
fx=tests/engine/fixtures/rung3
src=$KL_TMP/suites
mkdir -p "$src"
cp "$fx/ballot64.kl" "$fx/ballot64.json" "$src/"
db=$KL_TMP/pair.db
"$KLADDER" --db "$db" --data-dir tests/fixtures/tui run --rung 3 --suite "$src/ballot64.json" \
    --backend cpu --no-progress --timeout 120 >"$KL_TMP/ballot64.txt" 2>&1
tap_check "ballot64: expectation met" test $? -eq 0
sqlite3 "$db" "
UPDATE runs SET uuid = '00000000-0000-4000-8000-000000000001', host = 'pairbox',
  started = '2026-12-01T11:00:00Z', finished = '2026-12-01T11:00:30Z',
  argv = 'kladder run --rung 3', owner_host = NULL, owner_boot = NULL, owner_pid = NULL,
  owner_start = NULL, owner_pid_ns = NULL;
UPDATE machines SET device = 'cpu emulation', host = 'pairbox';
UPDATE checks SET time_median_us = 100 + seq, time_min_us = 90, time_max_us = 120, limit_s = 60;
DELETE FROM checks WHERE key_id IN
  (SELECT id FROM check_keys WHERE variant = 'buggy' AND check_name = 'wave64-M8-N512');
UPDATE runs SET n_pass = n_pass - 1;" ||
    tap_fail "run made fixed"

SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 110x32 '3
Enter
j
j
j
p
:save-screen run-pair
p
:save-screen run-pair-back
p
L
:save-screen run-pair-zh'
SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 80x24 '3
Enter
p
:save-screen run-pair-80x24'
for s in run-pair run-pair-back run-pair-zh run-pair-80x24; do
    screen_check $s
done
p=$SCREENS/run-pair.screen
tap_check "paired: the heading names both sides" \
    grep -qE '^ Pair +Check +Shape +Fixed +Median +Buggy +Median +Shows' "$p"
tap_check "paired: a check the buggy variant fails is one row, caught" \
    grep -qE '^ +wave32-default +M=16,N=1000 +✓ pass +[0-9]+ us +✗ fail +[0-9]+ us +buggy caught' "$p"
tap_check "paired: a check both pass is not caught" \
    grep -qE '^ +wave64-default +M=16,N=1000 +✓ pass +[0-9]+ us +✓ pass +[0-9]+ us +not caught' "$p"
tap_check "paired: the baseline test's pair is a row of its own" \
    grep -qE '^ baseline +unit-test-M8-N512 .*✓ pass .*✓ pass .*not caught' "$p"
tap_check "paired: a missing side is a dash, the pair incomplete" \
    grep -qE '^ +wave64-M8-N512 +M=8,N=512 +✓ pass +[0-9]+ us +— +— +incomplete' "$p"
tap_check "paired: the selection stays on its check (the detail is its buggy side)" \
    grep -qE '^ ✗ fail · wave32-default · buggy' "$p"
tap_check "paired: the status line counts pairs" grep -q 'Pair 2 of 5' "$p"
tap_check "back: one row per variant, on the same check" \
    grep -qE '^ ✗ fail · wave32-default · buggy' "$SCREENS/run-pair-back.screen"
tap_check "back: the status line counts checks" \
    grep -q 'Check 4 of 9' "$SCREENS/run-pair-back.screen"
tap_check "back: the variant column again" \
    grep -qE '^ #  Verdict  Variant' "$SCREENS/run-pair-back.screen"
tap_check "Chinese: the lessons in Chinese" grep -q '捕获缺陷' "$SCREENS/run-pair-zh.screen"
tap_check "80 columns: the shape gives way, both sides and what they show stay" \
    grep -qE '^ +wave32-default +✓ pass +[0-9]+ us +✗ fail +[0-9]+ us +buggy caught' \
    "$SCREENS/run-pair-80x24.screen"
