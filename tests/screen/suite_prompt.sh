# The Runs view's suite prompt (o) as a path prompt: the remembered path it offers is replaced
# by what is typed (not appended to), and Backspace edits it instead; a leading ~ is the home
# folder; Tab completes a folder, then steps through the files in it.
. tests/screen/screen_lib
export XDG_STATE_HOME=$KL_TMP/state
export HOME=$KL_TMP/home
mkdir -p "$HOME/mine"
cp tests/engine/fixtures/escape.json "$HOME/mine/esc.json"
cp tests/engine/fixtures/hang.kl "$HOME/mine/"
screen_run 100x24 "3
o
:type tests/engine/fixtures/hang.json
Enter
Esc
o
:save-screen prompt-offered
:type ~/mine/esc.json
:save-screen prompt-replaced
Enter
:save-screen prompt-home
Esc
o
Backspace
Backspace
Backspace
Backspace
:save-screen prompt-edited
^U
:type ~/mi
Tab
:save-screen prompt-tab1
Tab
:save-screen prompt-tab2
Tab
:save-screen prompt-tab3
Tab
:save-screen prompt-tab4
^U
:type ~/nothing-here
Tab
:save-screen prompt-tab-none"
tap_check "o offers the path opened last" \
    grep -q "^Suite file: $PWD/tests/engine/fixtures/hang.json *\$" "$SCREENS/prompt-offered.screen"
tap_check "typing replaces the offered path instead of appending to it" \
    grep -q '^Suite file: ~/mine/esc.json *$' "$SCREENS/prompt-replaced.screen"
tap_check "~ is the home folder: the launch panel opens the suite there" \
    grep -q "escape-test · rung 1 · $HOME/mine/esc.json" "$SCREENS/prompt-home.screen"
tap_check "the home path is remembered expanded" \
    test "$(head -n 1 "$XDG_STATE_HOME/kladder/recent-suites")" = "$HOME/mine/esc.json"
tap_check "Backspace edits the offered path" \
    grep -q "^Suite file: $HOME/mine/esc\\. *\$" "$SCREENS/prompt-edited.screen"
tap_check "Tab completes the folder" grep -q '^Suite file: ~/mine/ *$' "$SCREENS/prompt-tab1.screen"
tap_check "Tab again: the first file in it" grep -q '^Suite file: ~/mine/esc.json *$' "$SCREENS/prompt-tab2.screen"
tap_check "and the next" grep -q '^Suite file: ~/mine/hang.kl *$' "$SCREENS/prompt-tab3.screen"
tap_check "and round again" grep -q '^Suite file: ~/mine/esc.json *$' "$SCREENS/prompt-tab4.screen"
tap_check "no match: the text stays as typed" grep -q '^Suite file: ~/nothing-here *$' "$SCREENS/prompt-tab-none.screen"

# The launch panel opened with o names the suite it runs, not what a case's panel said before it
# (the built-in case index, whose cases have reproducer suites)
SCREEN_DB=$KL_TMP/builtin.db screen_run 100x24 "2
r
:save-screen panel-case
Esc
3
o
^U
:type ~/mine/esc.json
Enter
:save-screen panel-suite" --data-dir data
tap_check "a case's panel first: titled with the case" grep -qE '^ *Run case [a-z]+-[0-9]+' "$SCREENS/panel-case.screen"
tap_check "then o: titled with the suite and its file, not the case" \
    sh -c "grep -qE '^ *Run suite escape-test \\($HOME/mine/esc.json\\)' '$SCREENS/panel-suite.screen' &&
           ! grep -q 'Run case' '$SCREENS/panel-suite.screen'"
