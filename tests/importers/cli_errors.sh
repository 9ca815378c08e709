# Messages and exit codes of the CLI: an unknown option or a stray argument is named in one
# wording in every verb, a bad run id is quoted as typed (control characters escaped), a URL of
# another scheme is a usage error, an HTML page pulled instead of a document says so once, every
# error of `pull` goes to standard error, a read-only database serves the reading verbs and
# refuses the writing ones by name, and an empty --db is refused.
. tests/tap.sh
db=$KL_TMP/e.db
k() { "$KLADDER" --db "$db" "$@"; }
esc=$(printf '\033')

# ---- unknown options -------------------------------------------------------------------------
for verb in cases results export pull run; do
    k $verb --frob >"$KL_TMP/out" 2>"$KL_TMP/err"
    rc=$?
    tap_check "$verb --frob: exit 2 ($rc)" test $rc -eq 2
    tap_check "$verb --frob: says unknown option --frob" grep -q "^kladder $verb: unknown option --frob$" "$KL_TMP/err"
    tap_check "$verb --frob: does not ask for a value" bash -c "! grep -q 'expects a value' '$KL_TMP/err'"
done
k cases --frob x >/dev/null 2>"$KL_TMP/err"
tap_check "an unknown option followed by a word is still an unknown option" grep -q "unknown option --frob$" "$KL_TMP/err"
k cases --gap >/dev/null 2>"$KL_TMP/err"
tap_check "a known option without its value still says so" grep -q "^kladder cases: --gap expects a value$" "$KL_TMP/err"
k cases "--fr${esc}[2Job" >/dev/null 2>"$KL_TMP/err"
tap_check "an unknown option is escaped as typed" grep -qF 'unknown option --fr\x1b[2Job' "$KL_TMP/err"
tap_check "and no escape byte reaches the terminal" bash -c "! grep -q \"$esc\" '$KL_TMP/err'"
# every verb words a stray argument alike: an unknown option, or an unexpected argument
for verb in show compare inspect check-config ci-audit; do
    k $verb --frob >/dev/null 2>"$KL_TMP/err"
    tap_check "$verb --frob: says unknown option --frob" grep -q "^kladder $verb: unknown option --frob$" "$KL_TMP/err"
done
k show a b >/dev/null 2>"$KL_TMP/err"
tap_check "show a b: says unexpected argument 'b'" grep -q "^kladder show: unexpected argument 'b'$" "$KL_TMP/err"
k hosts list x >/dev/null 2>"$KL_TMP/err"
tap_check "hosts list x: says unexpected argument 'x'" grep -q "^kladder hosts: unexpected argument 'x'$" "$KL_TMP/err"

# ---- a bad run id ----------------------------------------------------------------------------
k results zz >/dev/null 2>"$KL_TMP/err"
rc=$?
cat "$KL_TMP/err" | sed 's/^/# /'
tap_check "results zz: exit 2" test $rc -eq 2
tap_check "results zz names zz" grep -q "'zz' is not a run id" "$KL_TMP/err"
k results "Run-${esc}]0;x" >/dev/null 2>"$KL_TMP/err"
tap_check "a run id with control characters is shown escaped" grep -qF "'Run-\x1b]0;x' is not a run id" "$KL_TMP/err"
tap_check "with no escape byte" bash -c "! grep -q \"$esc\" '$KL_TMP/err'"

# ---- pull ------------------------------------------------------------------------------------
k pull ftp://x/y >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
tap_check "pull ftp://x/y is a usage error: exit 2 ($rc)" test $rc -eq 2
tap_check "saying which schemes work, on stderr" grep -q "must start with https://" "$KL_TMP/err"
tap_check "and nothing on stdout" test ! -s "$KL_TMP/out"

page=$KL_TMP/login.html
printf '<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n<body>Sign in</body></html>\n' >"$page"
k pull "file://$page" >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
sed 's/^/# /' "$KL_TMP/err"
tap_check "pulling an HTML page fails the host: exit 1 ($rc)" test $rc -eq 1
tap_check "it says it got HTML" grep -q "got an HTML page, not JSON" "$KL_TMP/err"
tap_check "once" test "$(grep -o 'HTML' "$KL_TMP/err" | wc -l)" -eq 1
tap_check "naming the URL once" test "$(grep -oF "file://$page" "$KL_TMP/err" | wc -l)" -eq 1
tap_check "without a lesson on NaN and comments" bash -c "! grep -q 'NaN' '$KL_TMP/err'"
tap_check "the error is on stderr, stdout is empty" test ! -s "$KL_TMP/out"
# A second kind of markup page: an error page of a proxy, upper case, after blank lines.
printf '\n\n  <HTML><BODY><H1>502 Bad Gateway</H1></BODY></HTML>\n' >"$KL_TMP/502.html"
k pull "file://$KL_TMP/502.html" >/dev/null 2>"$KL_TMP/err"
tap_check "an upper-case error page is HTML too" grep -q "got an HTML page" "$KL_TMP/err"

# One host that works and one that does not: the summary on stdout, the error on stderr.
"$KLADDER" --db "$KL_TMP/src.db" export --out "$KL_TMP/empty.json"
k pull "file://$KL_TMP/empty.json" "file://$KL_TMP/missing.json" >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
sed 's/^/# out: /' "$KL_TMP/out"
sed 's/^/# err: /' "$KL_TMP/err"
tap_check "one host failed: exit 1" test $rc -eq 1
tap_check "the working host's summary is on stdout" grep -q ": 0 new runs" "$KL_TMP/out"
tap_check "the failing host's error is on stderr" grep -q "missing.json: error:" "$KL_TMP/err"
tap_check "and not on stdout" bash -c "! grep -q 'error' '$KL_TMP/out'"

# ---- a read-only database --------------------------------------------------------------------
ro=$KL_TMP/ro.db
"$KLADDER" --db "$ro" cases >/dev/null
chmod a-w "$ro"
sum=$(md5sum <"$ro")
for verb in cases results "compare local local"; do
    "$KLADDER" --db "$ro" $verb >"$KL_TMP/out" 2>"$KL_TMP/err"
    rc=$?
    sed 's/^/# /' "$KL_TMP/err"
    tap_check "read-only database: $verb works (exit $rc)" test $rc -eq 0
done
tap_check "cases lists the index" test "$("$KLADDER" --db "$ro" cases --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" -eq 32
for cmd in "pull file://$KL_TMP/empty.json" "run --rung 1 --suite tests/engine/fixtures/hang.json --backend cpu" \
    "import cases data/cases.json" "hosts add lab https://lab.example/k.json"; do
    verb=${cmd%% *}
    "$KLADDER" --db "$ro" $cmd >"$KL_TMP/out" 2>"$KL_TMP/err"
    rc=$?
    tap_check "read-only database: $verb is refused (exit $rc)" test $rc -eq 2
    tap_check "$verb says the file is read-only, naming it" grep -qF "kladder $verb: $ro: the database file is read-only" "$KL_TMP/err"
done
tap_check "and the file is unchanged" test "$(md5sum <"$ro")" = "$sum"
chmod u+w "$ro"

# ---- a database in WAL mode in a folder this user cannot write --------------------------------
# SQLite reads such a database through PATH-shm, which it cannot create there: a clear error
# naming the folder, never "schema version 0". The folder's permissions bind no root, so root
# runs the reader as nobody.
rodir=$KL_TMP/rodir
mkdir -p "$rodir"
"$KLADDER" --db "$rodir/k.db" cases >/dev/null
as_user=()
if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    chmod o+x "$KL_TMP"
    chmod o+r "$rodir/k.db"
fi
chmod a-w "$rodir"
if [ "$(id -u)" = 0 ] && { [ ${#as_user[@]} = 0 ] || ! "${as_user[@]}" "$KLADDER" --version >/dev/null 2>&1; }; then
    tap_skip "a WAL database in a read-only folder: cannot run kladder as another user here"
else
    (cd "$rodir" && "${as_user[@]}" "$KLADDER" --db k.db results) >"$KL_TMP/out" 2>"$KL_TMP/err"
    rc=$?
    sed 's/^/# /' "$KL_TMP/err"
    tap_check "WAL database in a read-only folder: exit 2" test $rc = 2
    tap_check "... saying why, naming the folder and the -shm file, never 'schema version 0'" \
        sh -c "grep -qF 'k.db: cannot read this database: it is in WAL mode, and SQLite must create k.db-shm beside it' '$KL_TMP/err' && ! grep -q 'schema version 0' '$KL_TMP/err'"
fi
chmod u+w "$rodir"

# ---- --db '' ---------------------------------------------------------------------------------
"$KLADDER" --db '' cases >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
tap_check "--db '' is an error: exit 2 ($rc)" test $rc -eq 2
tap_check "that says what --db expects" grep -q -- "--db expects a file name" "$KL_TMP/err"
tap_check "with nothing listed" test ! -s "$KL_TMP/out"
