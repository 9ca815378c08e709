# kladder exec runs in the Runs view: a last-block sum without __threadfence (a race: exec's
# verdict finding) and a program that writes escape sequences and exits 3 (failed) are listed
# with "exec" where a rung would be and exec's own verdict; opening one shows its program check
# (how the program ended, the tail of its output) and its finding with the report. The escape
# sequences the program wrote never reach the screen.
. tests/screen/screen_lib
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/exec
db=$KL_TMP/exec.db
"$KLADDER" --db "$db" --data-dir tests/fixtures/tui exec "$fx/lastblock_nofence.cu" \
    >"$KL_TMP/race.txt" 2>&1
tap_check "the racy program: exit 1" test $? -eq 1
"$KLADDER" --db "$db" exec "$fx/escape_out.cu" >"$KL_TMP/esc.txt" 2>&1
tap_check "the program that exits 3: exit 1" test $? -eq 1

SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 120x34 '3
:save-screen exec-runs
Enter
:save-screen exec-run-escape
Esc
j
Enter
:save-screen exec-run-race
j
:save-screen exec-run-race-finding
Esc
/
:type exec finding
Enter
:save-screen exec-runs-search'
s=$SCREENS
tap_check "the Runs view lists both as exec, each with exec's verdict" bash -c \
    'grep -qE "^ [0-9-]+ [0-9:]+ +local .* exec +escape_out.cu +✗ failed +1 failed" "$1" &&
     grep -qE "^ [0-9-]+ [0-9:]+ +local .* exec +lastblock_nofence.cu +✗ finding +2 failed" "$1"' _ \
    "$s/exec-runs.screen"
tap_check "the failed program: its exit status 3 and its output, the escapes replaced" bash -c \
    'grep -q "Program failed · exit status 3 · schedule pct, seed 1, wave 32" "$1" &&
     grep -qE "^ +�\[31mlast 126�\[0m�\]0;owned title���\[2Adone$" "$1"' _ "$s/exec-run-escape.screen"
tap_check "no screen holds a control character" bash -c \
    '! cat "$@" | tr -d "\n" | LC_ALL=C grep -q "[[:cntrl:]]"' _ "$s"/exec-*.screen
tap_check "the racy run: its verdict, its two checks, the program's own FAIL under it" bash -c \
    'grep -q "^ ✗ finding · run " "$1" && grep -qE "^ 0 +✗ fail +exec +program" "$1" &&
     grep -qE "^ 1 +✗ fail +exec +finding 1: race" "$1" &&
     grep -q "Program finding · exit status 1" "$1" && grep -qE "^ +total -nan, expected 2047: FAIL$" "$1"' _ \
    "$s/exec-run-race.screen"
tap_check "its finding shows the race's report, both lines named" bash -c \
    'grep -q "Oracle race: kernel sum_last_block<<<(16,1,1),(64,1,1)>>> launched at lastblock_ok.cu:53" "$1" &&
     tr -d "\n" <"$1" | grep -q "lastblock_ok.cu:23.*lastblock_ok.cu:34"' _ "$s/exec-run-race-finding.screen"
tap_check "/exec finding keeps the racy run alone" bash -c \
    'grep -q "lastblock_nofence.cu" "$1" && ! grep -q "escape_out.cu" "$1"' _ "$s/exec-runs-search.screen"
