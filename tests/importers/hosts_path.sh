#!/usr/bin/env bash
# kladder hosts add NAME PATH: a plain path of an export document (relative, or with a space in
# it) is stored as the file:// URL of its absolute path and pulls like one; a path that names no
# file, or a folder, is refused once, naming it and what is expected, with nothing stored.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data
src=$KL_TMP/src.db
db=$KL_TMP/k.db
python3 tests/fixtures/remote/gen_results.py --host lab --runs 3 --checks 2 \
    --out "$KL_TMP/gen.json" || { tap_fail "fixture document written"; exit 0; }
mkdir -p "$KL_TMP/my results"
cp "$KL_TMP/gen.json" "$KL_TMP/my results/export.json"
(cd "$KL_TMP/my results" && "$KLADDER" --db "$db" hosts add lab ./export.json) >"$KL_TMP/add.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/add.txt"
tap_check "hosts add with a relative path: exit 0 ($rc)" test $rc -eq 0
url="file://$(printf '%s' "$KL_TMP" | sed 's/ /%20/g')/my%20results/export.json"
tap_check "stored as the file:// URL of its absolute path, a space percent-encoded" \
    grep -qxF "added host lab ($url)" "$KL_TMP/add.txt"
"$KLADDER" --db "$db" hosts list --json >"$KL_TMP/hosts.json"
tap_check "hosts list shows the URL" python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))
sys.exit(not (len(h) == 1 and h[0]["name"] == "lab" and h[0]["url"] == sys.argv[2]))' "$KL_TMP/hosts.json" "$url"
"$KLADDER" --db "$db" pull lab >"$KL_TMP/pull.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/pull.txt"
tap_check "and pulls: exit 0, its 3 runs" \
    sh -c "test $rc -eq 0 && grep -qE '^lab: 3 new runs' '$KL_TMP/pull.txt'"
for bad in "$KL_TMP/nope.json" "$KL_TMP/my results"; do
    "$KLADDER" --db "$db" hosts add other "$bad" >"$KL_TMP/out" 2>"$KL_TMP/err"
    rc=$?
    sed 's/^/# /' "$KL_TMP/err"
    tap_check "hosts add $(basename "$bad"): exit 2, one line naming it and what is expected" \
        sh -c "test $rc -eq 2 && test \$(grep -cF \"$bad\" '$KL_TMP/err') -eq 1 &&
               grep -qF \"'$bad': \" '$KL_TMP/err' && grep -qE '(no such file|not a regular file) \(give an export document.s path, or a URL' '$KL_TMP/err'"
done
tap_check "nothing stored for them" \
    test "$("$KLADDER" --db "$db" hosts list --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 1
tap_check "a URL still goes as typed" \
    sh -c "'$KLADDER' --db '$db' hosts add web https://example.invalid/export.json | grep -qx 'added host web'"

# kladder pull PATH: a path (one with a '/') pulls the document directly, added under the
# exporting host's name as a URL would be; a path that names no file is refused before anything
# is opened, with nothing stored.
python3 tests/fixtures/remote/gen_results.py --host far --runs 2 --checks 2 \
    --out "$KL_TMP/my results/far.json" || tap_fail "second fixture document written"
(cd "$KL_TMP/my results" && "$KLADDER" --db "$KL_TMP/p.db" pull ./far.json) >"$KL_TMP/pp.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/pp.txt"
tap_check "pull ./far.json: exit 0, its 2 runs under the exporting host's name" \
    sh -c "test $rc -eq 0 && grep -qE '^far: 2 new runs' '$KL_TMP/pp.txt'"
tap_check "and the host is kept with the document's file:// URL" \
    sh -c "'$KLADDER' --db '$KL_TMP/p.db' hosts list | grep -qF 'file://$(printf '%s' "$KL_TMP" | sed 's/ /%20/g')/my%20results/far.json'"
"$KLADDER" --db "$KL_TMP/p.db" pull ./nope.json >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
sed 's/^/# /' "$KL_TMP/err"
tap_check "pull ./nope.json: exit 2, naming it once" \
    sh -c "test $rc -eq 2 && test \$(grep -c 'nope.json' '$KL_TMP/err') -eq 1"
