# A suite file of one's own from the Runs view: o asks for its path, the launch panel offers
# the rungs it declares (no case in the manifest, no KLADDER_SUITE_PATH needed); a file that is
# no suite is refused with its own name and the reason; the next o starts from the file last
# opened, remembered in the state folder, and Down steps back to the ones before.
. tests/screen/screen_lib
export XDG_STATE_HOME=$KL_TMP/state
suite=tests/engine/fixtures/escape.json
screen_run 100x24 "3
o
:save-screen suite-prompt
:type $suite
Enter
:save-screen suite-panel
Esc
o
:save-screen suite-remembered
^U
:type tests/fixtures/tui/gaps.json
Enter
:save-screen suite-bad
o
^U
:type no/such/suite.json
Enter
:save-screen suite-missing
o
^U
:type tests/engine/fixtures/hang.json
Enter
Esc
o
:save-screen suite-newest
Down
:save-screen suite-older
Up
:save-screen suite-newer"
tap_check "o asks for a suite file" grep -q '^Suite file: *$' "$SCREENS/suite-prompt.screen"
tap_check "the launch panel offers the suite's rung, by its name and path" \
    grep -q "escape-test · rung 1 · $suite" "$SCREENS/suite-panel.screen"
tap_check "the file is remembered in the state folder" \
    grep -qx "$PWD/$suite" "$XDG_STATE_HOME/kladder/recent-suites"
tap_check "the next o starts from it" grep -q "^Suite file: $PWD/$suite" "$SCREENS/suite-remembered.screen"
tap_check "a file that is no suite: refused, naming the file" \
    grep -q 'tests/fixtures/tui/gaps.json' "$SCREENS/suite-bad.screen"
sed -n '$p' "$SCREENS/suite-bad.screen" | sed 's/^/# /'
tail -n 2 "$SCREENS/suite-bad.screen" | sed 's/^/# /'
tail -n 2 "$SCREENS/suite-missing.screen" | sed 's/^/# /'
tap_check "a missing file: refused, naming it" grep -q 'no/such/suite.json' "$SCREENS/suite-missing.screen"
tap_check "a refused file is not remembered" \
    test "$(grep -c 'suite.json\|gaps.json' "$XDG_STATE_HOME/kladder/recent-suites")" -eq 0
tap_check "two files remembered, the newest first" \
    test "$(cat "$XDG_STATE_HOME/kladder/recent-suites" | tr '\n' ' ')" = "$PWD/tests/engine/fixtures/hang.json $PWD/$suite "
tap_check "o starts from the newest" grep -q "^Suite file: $PWD/tests/engine/fixtures/hang.json" "$SCREENS/suite-newest.screen"
tap_check "Down: the one before" grep -q "^Suite file: $PWD/$suite" "$SCREENS/suite-older.screen"
tap_check "Up: back to the newest" grep -q "^Suite file: $PWD/tests/engine/fixtures/hang.json" "$SCREENS/suite-newer.screen"
