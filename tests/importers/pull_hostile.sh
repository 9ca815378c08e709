# Hostile documents and servers: each pull must fail with a clear error naming the problem, print
# no terminal control sequence, exit 1, and leave the database file byte-for-byte unchanged.
. tests/tap.sh
. tests/importers/pull_lib.bash
db=$KL_TMP/hostile.db
www=$KL_TMP/www
mkdir -p "$www"
k() { "$KLADDER" --db "$db" "$@"; }

# a database with content, so that "unchanged" means something
python3 $gen --host gpu-a --runs 3 --checks 4 --out "$KL_TMP/good.json"
k pull "file://$KL_TMP/good.json" >/dev/null 2>&1
k hosts add evil "file://$KL_TMP/evil.json" >/dev/null
tap_check "the base database holds 3 runs" test "$(k results --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 3

# expect NAME WANT ARGS...: the pull fails (exit 1) with WANT in its output, the output holds no
# control character, and the database did not change.
expect() { # [RC=N] name message args: refused with exit 1 (a transfer), or RC
    local want_rc=1
    case $1 in RC=*) want_rc=${1#RC=}; shift ;; esac
    local name=$1 want=$2; shift 2
    local before after rc
    before=$(db_sum "$db")
    k pull "$@" >"$KL_TMP/out" 2>&1; rc=$?
    after=$(db_sum "$db")
    if [ $rc = "$want_rc" ] && grep -q -- "$want" "$KL_TMP/out" && [ "$before" = "$after" ] \
        && ! LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$KL_TMP/out") \
        && ! grep -q $'\xc2[\x80-\x9f]' "$KL_TMP/out"; then
        tap_ok "refused, database unchanged: $name"
    else
        tap_fail "hostile: $name (rc=$rc, sums $before $after)"
        sed 's/^/#   /' "$KL_TMP/out" | cat -v
    fi
}

# mutate NAME WANT PYTHON: applies PYTHON to the good document (d, with runs r, checks c and
# machines m) or, when it sets `text`, writes that text as is; then pulls host evil.
mutate() {
    local name=$1 want=$2 code=$3
    python3 - "$KL_TMP/good.json" "$KL_TMP/evil.json" "$code" <<'PY'
import json, sys
src, dst, code = sys.argv[1:]
raw = open(src, encoding="utf-8").read()
d = json.loads(raw)
r, c, m = d["runs"], d["checks"], d["machines"]
text = None
exec(code)
with open(dst, "w", encoding="utf-8", newline="") as f:
    f.write(text if text is not None else json.dumps(d))
PY
    expect "$name" "$want" evil
}

ESC='"\x1b]0;owned\x07\x1b[2J"'
mutate "truncated JSON" "the document ends early" 'text = raw[: len(raw) // 2]'
mutate "empty document" "the document ends early" 'text = ""'
mutate "not an object" "expected a JSON object" 'text = "[1, 2, 3]"'
mutate "wrong format name" "not a kladder results document" 'd["format"] = "junit"'
mutate "wrong version" "field 'version': expected 1" 'd["version"] = 2'
mutate "wrong type: rung as a string" "field 'rung': expected a whole number" 'r[1]["rung"] = "4"'
mutate "wrong type: checks as an object" "field 'checks': expected an array" 'd["checks"] = {}'
mutate "huge string" "expected at most 4096 bytes" 'c[0]["detail"] = "x" * (1 << 20)'
mutate "escape sequence in a run's host" "field 'host': contains a control character" "r[0]['host'] = $ESC"
mutate "escape sequence in a check's detail" "field 'detail': contains a control character" "c[2]['detail'] = 'ok ' + $ESC"
mutate "escape sequence in a machine's device" "field 'device': contains a control character" "m[0]['device'] = $ESC"
mutate "escape sequence in the exporting host" "field 'host': contains a control character" "d['exported_by']['host'] = $ESC"
mutate "escape sequence in a check name" "field 'check': contains a control character" "c[1]['check'] = $ESC"
mutate "escape sequence in a member name" "is not a known field" "c[0][$ESC] = 1"
mutate "C1 control (CSI) in a suite" "field 'suite': contains a control character" 'c[0]["suite"] = "a\u009b2Jb"'
mutate "escaped NUL in a string" "escaped NUL" 'text = raw.replace("\"suite0\"", "\"suite\\u0000x\"", 1)'
mutate "invalid UTF-8" "invalid UTF-8" 'text = None; open(sys.argv[2], "wb").write(raw.replace("suite0", "suite\xff", 1).encode("latin-1")); sys.exit()'
mutate "duplicate run UUID in one document" "the same run UUID appears twice" 'r.append(dict(r[0]))'
mutate "a run UUID reused with different content" "is already stored with different content" 'r[0]["verdict"] = "fail" if r[0]["verdict"] != "fail" else "pass"'
mutate "a stored run whose check changed" "check seq 1: time_us differs" 'c[1]["time_us"]["median"] += 1; c[1]["time_us"]["max"] += 1'
mutate "empty verdict" "field 'verdict': expected a verdict" 'c[3]["verdict"] = ""'
mutate "a time far in the future" "is in the future" 'r[2]["finished"] = "9999-12-31T23:59:59Z"'
mutate "NaN literal" "NaN, Infinity" 'text = raw.replace("\"max_err\":0.0", "\"max_err\":NaN", 1)'
mutate "Infinity literal" "NaN, Infinity" 'text = raw.replace("\"limit_s\":10.0", "\"limit_s\":Infinity", 1)'
mutate "number overflowing to infinity" "expected a finite number" 'text = raw.replace("\"limit_s\":10.0", "\"limit_s\":1e999", 1)'
mutate "negative counts" "field 'pass': expected a whole number from 0" 'r[0]["counts"]["pass"] = -4'
mutate "counts of no verdict word" "is not a known field of counts" 'r[0]["counts"]["Pass!"] = 1'
mutate "negative repeats" "field 'repeats': expected a whole number from 0" 'c[0]["repeats"] = -1'
mutate "min above median" "expected min <= median <= max" 'c[0]["time_us"]["min"] = 1e6'
mutate "deep nesting" "nested too deeply" 'text = "[" * 100000 + "]" * 100000'
mutate "deep nesting inside a field" "nested too deeply" 'text = raw.replace("\"case\":null", "\"case\":" + "[" * 70 + "]" * 70, 1)'
mutate "unknown field" "is not a known field" 'r[0]["extra"] = 1'
mutate "duplicate member" "appears more than once" 'text = raw.replace("\"rung\":1,", "\"rung\":1,\"rung\":2,", 1)'
mutate "missing field" "field 'oracle': is required" 'del c[0]["oracle"]'
mutate "check of a run not in the document" "names no run of the document" 'c[0]["run_id"] = "00000000-0000-4000-8000-000000000000"'
mutate "run on a machine not in the document" "names no machine" 'r[0]["machine_id"] = "0" * 32'
mutate "malformed UUID" "expected a lower-case UUID" 'r[0]["run_id"] = "not-a-uuid"'
mutate "malformed time" "expected a UTC time" 'r[0]["started"] = "yesterday"'
mutate "two checks with one seq" "two checks of this run have seq" 'c[1]["seq"] = 0'
mutate "data after the document" "unexpected data after the document" 'text = raw + " {}"'
mutate "a stored machine with other facts" "is already stored with a different 'device'" 'm[0]["device"] = "other"'

# misbehaving servers (pulled by URL: a failed pull must not even register the host)
start_server "$www"
u=http://127.0.0.1:$PORT
expect "404" "the server answered HTTP 404" "$u/404"
expect "500" "the server answered HTTP 500" "$u/500"
expect "redirect loop" "too many redirects" "$u/loop"
expect "redirect to file://" "scheme not allowed" "$u/to-file"
expect "wrong content (HTML)" "got an HTML page, not JSON" "$u/html"
expect "1 GiB body, stopped by the default 256 MiB limit" "larger than the limit of 268435456 bytes" "$u/huge"
expect "1 GiB announced in Content-Length" "larger than the limit" "$u/huge-length" --max-bytes 1M
expect "gzip bomb (64 MiB from 64 KiB)" "larger than the limit of 1048576 bytes" "$u/gzip-bomb" --max-bytes 1M
expect "stalling server" "timed out" "$u/stall" --stall 1
expect "server slower than the total limit" "timed out" "$u/drip" --timeout 2
expect "nothing listening" "error:" "http://127.0.0.1:1/x.json" --connect-timeout 2
# a name that is no host is a usage error, exit 2 as for every verb
expect RC=2 "unknown host name (exit 2)" "no host named 'nosuch'" nosuch
before=$(db_sum "$db")
k pull "ftp://127.0.0.1/x.json" >"$KL_TMP/out" 2>&1
rc=$?
tap_check "a scheme that is not allowed is a usage error (exit $rc), database unchanged" \
    bash -c "[ $rc = 2 ] && grep -q 'must start with https://' '$KL_TMP/out' && [ '$before' = '$(db_sum "$db")' ]"
k hosts list >"$KL_TMP/hosts"
tap_check "failed pulls by URL registered no host" test "$(grep -c '^[a-z]' "$KL_TMP/hosts")" = 2

# one bad host does not spoil a good one, and the exit status says a host failed
python3 $gen --host gpu-z --runs 2 --checks 2 --seed 9 --out "$www/z.json"
k pull "$u/files/z.json" "$u/500" >"$KL_TMP/out" 2>&1; rc=$?
tap_check "mixed pull exits 1" test $rc = 1
tap_check "the good host is merged" grep -q "^gpu-z: 2 new runs" "$KL_TMP/out"
tap_check "the bad one reports its error" grep -q "/500: error: the server answered HTTP 500" "$KL_TMP/out"
k pull --timeout 0 2>/dev/null; tap_check "a bad option value exits 2" test $? = 2
stop_servers
