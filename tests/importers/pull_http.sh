# kladder pull over http, https and file://: concurrent hosts, idempotence, incremental pulls,
# pulls by URL, TLS verification with a private CA, and export/pull round trips.
. tests/tap.sh
. tests/importers/pull_lib.bash
db=$KL_TMP/pull.db
www=$KL_TMP/www
mkdir -p "$www"
k() { "$KLADDER" --db "$db" "$@"; }
nruns() { "$KLADDER" --db "${2:-$db}" results ${1:+--host $1} --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'; }

python3 $gen --host gpu-a --runs 3 --checks 4 --out "$www/a.json"
python3 $gen --host gpu-b --runs 2 --checks 5 --seed 7 --speed 2 --out "$www/b.json"
start_server "$www"
k hosts add a "http://127.0.0.1:$PORT/slow/a.json" >/dev/null
k hosts add b "http://127.0.0.1:$PORT/slow/b.json" >/dev/null

# two hosts, each answering after 1.5 s: together well under 3 s only if fetched concurrently
t0=$(date +%s.%N)
k pull >"$KL_TMP/out" 2>&1; rc=$?
t1=$(date +%s.%N)
tap_check "pull of two hosts exits 0" test $rc = 0
tap_check "host a: 3 runs, 12 checks" grep -qx "a: 3 new runs, 12 checks (0 already present)" "$KL_TMP/out"
tap_check "host b: 2 runs, 10 checks" grep -qx "b: 2 new runs, 10 checks (0 already present)" "$KL_TMP/out"
tap_check "hosts are fetched concurrently (< 2.9 s for two 1.5 s servers)" \
    python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 2.9 else 1)"
tap_check "results shows the 5 runs" test "$(nruns)" = 5
tap_check "--host filters by pulled host" test "$(nruns a)" = 3
k results --json | python3 -c '
import json, sys
runs = json.load(sys.stdin)
r = [x for x in runs if x["origin"] == "b"][0]
assert r["machine"]["backend"] == "cpu" and r["counts"]["pass"] + r["counts"]["fail"] == 5, r
assert r["host"] == "gpu-b" and r["finished"] and r["run_id"]
' && tap_ok "pulled runs carry origin, machine and counts" || tap_fail "pulled runs carry origin, machine and counts"

# idempotence: the same documents again change nothing
k export --all >"$KL_TMP/before.json"
before=$(db_sum "$db")
k pull >"$KL_TMP/out" 2>&1; rc=$?
tap_check "second pull exits 0" test $rc = 0
tap_check "second pull: no new runs on a" grep -q "^a: 0 new runs, 0 checks" "$KL_TMP/out"
tap_check "second pull: no new runs on b" grep -q "^b: 0 new runs, 0 checks" "$KL_TMP/out"
tap_check "second pull leaves 5 runs" test "$(nruns)" = 5
k export --all >"$KL_TMP/after.json"
python3 - "$KL_TMP/before.json" "$KL_TMP/after.json" <<'PY' && tap_ok "second pull leaves runs and checks unchanged" || tap_fail "second pull leaves runs and checks unchanged"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for k in ("machines", "runs", "checks"):
    assert a[k] == b[k], k
PY

# incremental: the source grows by two runs; only runs at or after the cursor are looked at
python3 $gen --host gpu-a --runs 5 --checks 4 --out "$www/a.json"
k pull a >"$KL_TMP/out" 2>&1; rc=$?
tap_check "incremental pull exits 0" test $rc = 0
tap_check "incremental pull brings only the 2 new runs" grep -q "^a: 2 new runs, 8 checks (1 already present)" "$KL_TMP/out"
tap_check "now 7 runs" test "$(nruns)" = 7
cursor=$(k hosts list --json | python3 -c 'import json,sys; print([h for h in json.load(sys.stdin) if h["name"]=="a"][0]["cursor"])')
tap_check "the cursor is the newest finished time" test "$cursor" = 2026-11-01T00:04:30Z
k pull a --full >"$KL_TMP/out" 2>&1
tap_check "--full looks at every run again" grep -q "^a: 0 new runs, 0 checks (5 already present)" "$KL_TMP/out"

# a redirect to a good document is followed
k pull "http://127.0.0.1:$PORT/redirect/b.json" >"$KL_TMP/out" 2>&1; rc=$?
# (its runs were pulled as host b: they stay b's, and no empty host gpu-b is left behind)
tap_check "a redirect is followed; runs stored before are recognised by UUID as host b's" \
    grep -q "gpu-b: error: .* was pulled already as host 'b'" "$KL_TMP/out"
tap_check "no empty host is made for them" \
    sh -c "! '$KLADDER' --db '$db' hosts list | grep -q '^gpu-b '"
# pull by URL: filed under the exporting host's name
python3 $gen --host gpu-c --runs 2 --checks 3 --seed 3 --out "$www/c.json"
k pull "http://127.0.0.1:$PORT/files/c.json" >"$KL_TMP/out" 2>&1; rc=$?
tap_check "pull by URL exits 0" test $rc = 0
tap_check "pull by URL is filed under the exporting host" grep -qx "gpu-c: 2 new runs, 6 checks (0 already present)" "$KL_TMP/out"
tap_check "the URL is now a host" sh -c "'$KLADDER' --db '$db' hosts list | grep -q '^gpu-c '"
k pull gpu-c >"$KL_TMP/out" 2>&1
tap_check "and pulls by its name" grep -q "^gpu-c: 0 new runs" "$KL_TMP/out"

# file:// works, and a file-based pull of the same data into a new database matches
python3 $gen --host gpu-d --runs 4 --checks 2 --seed 4 --out "$KL_TMP/d.json"
db2=$KL_TMP/second.db
"$KLADDER" --db "$db2" pull "file://$KL_TMP/d.json" >"$KL_TMP/out" 2>&1; rc=$?
tap_check "file:// pull exits 0" test $rc = 0
tap_check "file:// pull brings 4 runs" grep -q "^gpu-d: 4 new runs, 8 checks" "$KL_TMP/out"

# round trip: export everything pulled here, pull it into a fresh database, export again
k export --all --out "$KL_TMP/all.json"
tap_check "export --out writes the file" test -s "$KL_TMP/all.json"
db3=$KL_TMP/third.db
"$KLADDER" --db "$db3" hosts add mirror "file://$KL_TMP/all.json" >/dev/null
"$KLADDER" --db "$db3" pull mirror >"$KL_TMP/out" 2>&1
tap_check "the export of 9 runs pulls whole" grep -q "^mirror: 9 new runs, 36 checks" "$KL_TMP/out"
"$KLADDER" --db "$db3" export --all >"$KL_TMP/again.json"
python3 - "$KL_TMP/all.json" "$KL_TMP/again.json" <<'PY' && tap_ok "export, pull, export gives the same runs, checks and machines" || tap_fail "round trip"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["format"] == "kladder-results" and a["version"] == 1
key = lambda r: r["run_id"]
assert sorted(a["runs"], key=key) == sorted(b["runs"], key=key)
ck = lambda c: (c["run_id"], c["seq"])
assert sorted(a["checks"], key=ck) == sorted(b["checks"], key=ck)
assert sorted(a["machines"], key=lambda m: m["id"]) == sorted(b["machines"], key=lambda m: m["id"])
PY
k export >"$KL_TMP/local.json"
tap_check "plain export has only runs made here (none)" python3 -c "
import json; d = json.load(open('$KL_TMP/local.json')); assert d['runs'] == [] and d['checks'] == []"
first=$(python3 -c "import json; print(json.load(open('$KL_TMP/all.json'))['runs'][6]['run_id'])")
k export --all --since "$first" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d["runs"]) == 2, len(d["runs"])' \
    && tap_ok "export --since RUN_ID keeps the runs recorded after it" || tap_fail "export --since RUN_ID"
k export --all --since 2026-11-01T00:03:00Z | python3 -c 'import json,sys; d=json.load(sys.stdin); assert sorted(r["finished"] for r in d["runs"]) == ["2026-11-01T00:03:30Z", "2026-11-01T00:04:30Z"], d["runs"]' \
    && tap_ok "export --since TIME keeps runs finished at or after it" || tap_fail "export --since TIME"
k export --since yesterday 2>"$KL_TMP/err"; tap_check "export --since garbage exits 2" test $? = 2

# https with a certificate of a private CA: refused without --cacert, accepted with it
if command -v openssl >/dev/null; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
        -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
        -keyout "$KL_TMP/key.pem" -out "$KL_TMP/cert.pem" 2>/dev/null
    start_server "$www" --tls "$KL_TMP/cert.pem" "$KL_TMP/key.pem"
    db4=$KL_TMP/tls.db
    "$KLADDER" --db "$db4" hosts add secure "https://127.0.0.1:$PORT/files/b.json" >/dev/null
    sum=$(db_sum "$db4")
    "$KLADDER" --db "$db4" pull secure >"$KL_TMP/out" 2>&1; rc=$?
    tap_check "https with an unknown CA exits 1" test $rc = 1
    tap_check "the error says the certificate is not trusted" grep -q "^secure: error: TLS certificate not trusted" "$KL_TMP/out"
    tap_check "the database is unchanged" test "$(db_sum "$db4")" = "$sum"
    "$KLADDER" --db "$db4" pull secure --cacert "$KL_TMP/cert.pem" >"$KL_TMP/out" 2>&1; rc=$?
    tap_check "with --cacert the pull succeeds" test $rc = 0
    tap_check "with --cacert the runs arrive" grep -q "^secure: 2 new runs" "$KL_TMP/out"
else
    tap_skip "openssl missing: https tests"
fi
# sftp:// and scp:// are tested in tests/importers/pull_ssh.sh, against a loopback sshd
stop_servers
