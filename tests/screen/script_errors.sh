# The headless script itself: a malformed line stops the run with status 2 and a message that
# names the line, printed after curses has let go of the screen; a bad KLADDER_SIZE is refused.
. tests/screen/screen_lib

printf 'j\n:type ok\nFrobnicate\nq\n' >"$KL_TMP/bad-key.txt"
KLADDER_SCRIPT=$KL_TMP/bad-key.txt KLADDER_SIZE=80x24 "$KLADDER" --db "$KL_TMP/s.db" \
    --data-dir tests/fixtures/tui >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
tap_check "an unknown key name ends the run with status 2" test "$rc" = 2
tap_check "the message names the line and the key" grep -q "script line 3: unknown key 'Frobnicate'" "$KL_TMP/err"
tap_check "nothing of curses is left on stdout" test ! -s "$KL_TMP/out"

printf ':resize eighty 24\n' >"$KL_TMP/bad-resize.txt"
KLADDER_SCRIPT=$KL_TMP/bad-resize.txt "$KLADDER" --db "$KL_TMP/s.db" >/dev/null 2>"$KL_TMP/err"
rc=$?
tap_check "a malformed :resize is refused" sh -c "test $rc = 2 && grep -q 'script line 1' '$KL_TMP/err'"

KLADDER_SCRIPT=$KL_TMP/bad-key.txt KLADDER_SIZE=wide "$KLADDER" --db "$KL_TMP/s.db" >/dev/null 2>"$KL_TMP/err"
rc=$?
tap_check "KLADDER_SIZE=wide is refused" sh -c "test $rc = 2 && grep -q 'KLADDER_SIZE must look like 80x24' '$KL_TMP/err'"

KLADDER_SCRIPT=$KL_TMP/no-such-file "$KLADDER" --db "$KL_TMP/s.db" >/dev/null 2>"$KL_TMP/err"
rc=$?
tap_check "a missing script is refused" sh -c "test $rc = 2 && grep -q 'KLADDER_SCRIPT' '$KL_TMP/err'"
