#!/usr/bin/env bash
# kladder hosts add NAME URL checks the URL with the parser pull fetches it with: a URL that
# pull would refuse as malformed (a port out of range, a broken IPv6 literal, a scheme with
# nothing after it) is refused when it is added, once, naming it and the form expected, and
# nothing is stored; well-formed URLs of each scheme are added.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data
db=$KL_TMP/k.db
n=0
for bad in 'https://lab:port:9/r.json' 'http://lab:99999/r.json' 'http://[::1/r.json' \
           'https://' 'sftp://' 'file://'; do
    n=$((n + 1))
    "$KLADDER" --db "$db" hosts add bad$n "$bad" >"$KL_TMP/out" 2>"$KL_TMP/err"
    rc=$?
    sed 's/^/# /' "$KL_TMP/err"
    tap_check "hosts add '$bad': exit 2, the URL named once, nothing on stdout" \
        sh -c "test $rc -eq 2 && test \$(grep -cF \"'$bad'\" '$KL_TMP/err') -eq 1 &&
               test ! -s '$KL_TMP/out'"
    tap_check "hosts add '$bad': says what is expected" \
        grep -qE 'expected SCHEME://HOST\[:PORT\]/PATH|nothing follows' "$KL_TMP/err"
done
tap_check "nothing stored for them" \
    test "$("$KLADDER" --db "$db" hosts list --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 0
n=0
for good in 'https://lab.example/kladder/export.json' 'http://127.0.0.1:8080/r.json' \
            'http://[::1]:8080/r.json' 'sftp://me@lab/home/me/r.json' 'scp://lab/r.json' \
            "file://$KL_TMP/r.json"; do
    n=$((n + 1))
    "$KLADDER" --db "$db" hosts add good$n "$good" >"$KL_TMP/out" 2>&1
    rc=$?
    tap_check "hosts add '$good': added (exit $rc)" test $rc -eq 0
done
tap_check "the six are stored" \
    test "$("$KLADDER" --db "$db" hosts list --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 6
