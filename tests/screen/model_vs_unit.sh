# The u key, unit test vs model: on a case whose kernel is in rung 8's built-in model it runs
# `kladder run --rung 8 --case ID` in the live view, the plain unit test of the buggy kernel
# (passing) beside the model with that kernel swapped in (failing, with its score and first
# wrong token); on a case the model has no kernel of it says so and starts nothing. The run is
# then made fixed (identities, host, times) and its last check shown in the run view, the golden.
. tests/screen/screen_lib
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
kl_need "sqlite3 is needed to make the run's identity fixed" sqlite3
db=$KL_TMP/mvu.db
"$KLADDER" --db "$db" --data-dir data cases >/dev/null 2>&1
tap_check "the real case index imported" test $? -eq 0
SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 120x34 '2
/
:type flydsl-1088
Enter
Enter
u
:save-screen model-vs-unit-none
Esc
Esc
/
:type atom-2533
Enter
Enter
u
:save-screen model-vs-unit-live'
none=$SCREENS/model-vs-unit-none.screen live=$SCREENS/model-vs-unit-live.screen
tap_check "u on a case the model has no kernel of: says so, naming the cases it has" \
    grep -q "Rung 8's built-in model has no kernel of flydsl-1088 (it has those of aiter-6344" "$none"
tap_check "u on atom-2533: the rung 8 run of the case, in the live view" \
    grep -qE '^ kladder --db .* run --rung 8 --case atom-2533 --variant both --timeout 120' "$live"
tap_check "the unit test passes the buggy gather" grep -qE '✓ pass +baseline-buggy +unit-test-' "$live"
tap_check "the model with it swapped in fails" grep -qE '✗ fail +buggy +model:swap:kv_gather_buggy' "$live"
tap_check "the run ends with every expectation met" grep -qE '^ pass · 4 of 4 checks done' "$live"

sqlite3 "$db" "
UPDATE runs SET uuid = printf('00000000-0000-4000-8000-%012d', id), host = 'mvubox',
  started = '2026-12-01T11:00:00Z', finished = '2026-12-01T11:00:30Z',
  owner_host = NULL, owner_boot = NULL, owner_pid = NULL, owner_start = NULL, owner_pid_ns = NULL;
UPDATE runs SET argv = 'kladder run --rung 8 --case atom-2533 --variant both --timeout 120';
UPDATE machines SET device = 'cpu emulation', host = 'mvubox';
UPDATE checks SET time_median_us = 100, time_min_us = 90, time_max_us = 110 WHERE oracle != 'score';" ||
    tap_fail "the run made fixed"
SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 120x34 '3
Enter
G
:save-screen model-vs-unit'
screen_check model-vs-unit
tap_check "the run view: the model's score and where it first diverged" \
    grep -qE 'Score +score 0.625 \(baseline 1, 8 samples, first diverging step 3\)' "$SCREENS/model-vs-unit.screen"
tap_check "... and its first wrong token beside the reference's" \
    grep -qE 'first wrong token at step 3: [0-9]+, the reference [0-9]+' "$SCREENS/model-vs-unit.screen"

# flydsl-1020's kernel is one the model cannot reach: u still shows its unit test passing the
# buggy kernel, and the skipped swap says plainly that the small model does not reach it and
# where the large one stands.
SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 120x34 '2
/
:type flydsl-1020
Enter
Enter
u
:save-screen model-vs-unit-1020
Enter
G
:save-screen model-vs-unit-1020-swap'
s=$SCREENS/model-vs-unit-1020.screen
tap_check "u on flydsl-1020: the unit test row, passing the buggy kernel" \
    grep -qE '✓ pass +baseline-buggy +unit-test-R16-L256-D64' "$s"
tap_check "... the swap skipped, not passed" grep -qE '(- |⊘ )?skip +buggy +model:swap:fp8_attn_buggy' "$s"
# the check's detail, its lines joined: the wrap may fall anywhere
swap=$(tr '\n' ' ' <"$SCREENS/model-vs-unit-1020-swap.screen" | tr -s ' ')
tap_check "... saying the small model does not reach it, nor the large one" \
    sh -c "printf '%s' \"\$1\" | grep -q 'is not reached by the small model: .* The large model (--suite model-large) does not reach it either'" _ "$swap"
