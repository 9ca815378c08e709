#!/usr/bin/env bash
# `kladder` with no verb and no terminal (stdout into a file or a pipe, or stdin not a
# terminal) draws nothing and waits for nothing: it says why on stderr, naming the verbs that
# print the same facts as text, and exits 2 at once. (It used to draw the interface into the
# file and wait for keys.) `kladder --help` and the man page say so.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data
db=$KL_TMP/k.db
timeout 20 "$KLADDER" --db "$db" >"$KL_TMP/out" 2>"$KL_TMP/err" </dev/null
rc=$?
sed 's/^/# /' "$KL_TMP/err"
tap_check "stdout into a file: exit 2 at once ($rc)" test $rc -eq 2
tap_check "nothing drawn into the file" test ! -s "$KL_TMP/out"
tap_check "stderr says the interface needs a terminal" \
    grep -q '^kladder: the interface needs a terminal, and stdout is not one' "$KL_TMP/err"
tap_check "and names the verbs that print text" grep -q 'kladder cases, kladder results' "$KL_TMP/err"
timeout 20 "$KLADDER" --db "$db" 2>"$KL_TMP/err2" </dev/null | cat >"$KL_TMP/out2"
rc=${PIPESTATUS[0]}
tap_check "stdout into a pipe: exit 2 ($rc), nothing drawn" test $rc -eq 2 -a ! -s "$KL_TMP/out2"
tap_check "no escape code reached stderr either" bash -c "! grep -q $'\e' '$KL_TMP/err' '$KL_TMP/err2'"
"$KLADDER" --help >"$KL_TMP/help"
tap_check "--help says it" grep -q 'needs a terminal on stdin' "$KL_TMP/help"
tap_check "the man page says it" grep -q 'It needs a terminal on stdin' docs/kladder.1
if command -v script >/dev/null; then
    # a terminal on stdout but stdin from a file: refused as well
    script -qec "timeout 20 '$KLADDER' --db '$db' </dev/null >/dev/tty 2>'$KL_TMP/err3'; echo rc=\$? >'$KL_TMP/rc3'" /dev/null >/dev/null 2>&1
    tap_check "stdin not a terminal: exit 2 ($(cat "$KL_TMP/rc3" 2>/dev/null))" grep -qx 'rc=2' "$KL_TMP/rc3"
    tap_check "naming stdin" grep -q 'and stdin is not one' "$KL_TMP/err3"
else
    tap_skip "script(1) is not installed: stdin alone not tested"
fi
