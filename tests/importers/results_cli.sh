# kladder results and kladder hosts: filters, one run with its checks, JSON shapes, n/a timings,
# aligned plain text, and the usage errors.
. tests/tap.sh
db=$KL_TMP/res.db
k() { "$KLADDER" --db "$db" "$@"; }
count() { python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'; }
python3 tests/fixtures/remote/gen_results.py --host gpu-a --runs 10 --checks 20 --out "$KL_TMP/a.json"
python3 tests/fixtures/remote/compare_pair.py "$KL_TMP"
k pull "file://$KL_TMP/a.json" "file://$KL_TMP/beta.json" >/dev/null 2>&1

tap_check "results lists all 12 runs" test "$(k results --json | count)" = 12
tap_check "--host gpu-a" test "$(k results --host gpu-a --json | count)" = 10
tap_check "--host beta" test "$(k results --host beta --json | count)" = 2
tap_check "--host local: no runs made here" test "$(k results --host local --json | count)" = 0
tap_check "--rung 3" test "$(k results --rung 3 --json | count)" = 1
tap_check "--verdict fail" test "$(k results --verdict fail --json | count)" = 11
tap_check "--verdict pass" test "$(k results --verdict pass --json | count)" = 1
tap_check "filters combine" test "$(k results --host beta --verdict fail --json | count)" = 1
k results --json | python3 -c '
import json, sys
runs = json.load(sys.stdin)
assert [r["started"] for r in runs] == sorted((r["started"] for r in runs), reverse=True)
for r in runs:
    assert set(r) >= {"run_id", "host", "machine", "rung", "suite", "case", "variant", "verdict", "counts", "started", "finished"}
    assert set(r["counts"]) >= {"pass", "fail", "hang", "error", "skip"}
    assert set(r["machine"]) >= {"id", "host", "backend", "device", "target", "wave_size"}
' && tap_ok "run objects have their fields, newest first" || tap_fail "run objects"

id=$(k results --host beta --verdict fail --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["run_id"])')
k results "$id" --json >"$KL_TMP/run.json"; rc=$?
tap_check "results RUN_ID --json exits 0" test $rc = 0
python3 - "$KL_TMP/run.json" <<'PY' && tap_ok "one run with its checks; n/a timings are null" || tap_fail "one run JSON"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["verdict"] == "fail" and len(r["checks"]) == 5
c = {x["check"]: x for x in r["checks"]}
for x in r["checks"]:
    assert set(x) >= {"rung", "suite", "variant", "check", "shape", "oracle", "verdict", "detail",
                      "first_bad", "bad_count", "max_err", "time_us", "repeats", "limit_s"}
assert c["no-times"]["time_us"] == {"median": None, "min": None, "max": None}
assert c["tail-k640"]["time_us"] == {"median": 30, "min": 28, "max": 32}
assert c["bitwise-repeat"]["verdict"] == "fail" and c["no-times"]["limit_s"] is None
PY
k results "${id:0:8}" >"$KL_TMP/run.txt"; rc=$?
tap_check "a UUID prefix finds the run" test $rc = 0
tap_check "plain text shows n/a for missing times" grep -qE 'no-times .* skip +n/a +n/a +n/a' "$KL_TMP/run.txt"
tap_check "plain text names the machine" grep -q '^machine    cuda, NVIDIA H100 sm_90' "$KL_TMP/run.txt"
k results >"$KL_TMP/list.txt"
tap_check "plain list: one line per run and a count" grep -q '^12 runs$' "$KL_TMP/list.txt"
python3 - "$KL_TMP/list.txt" <<'PY' && tap_ok "plain list: the VERDICT column lines up" || tap_fail "plain list: VERDICT column"
import sys, unicodedata
def cells(line):  # one entry per display cell
    out = []
    for ch in line:
        out += [ch] * (2 if unicodedata.east_asian_width(ch) in "WF" else 1)
    return out
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
col = "".join(cells(lines[0])).index("VERDICT")
for l in lines[1:13]:
    assert "".join(cells(l))[col:col + 4] in ("pass", "fail"), l
PY
k results 0000 2>"$KL_TMP/err"; tap_check "an unknown run id exits 2" test $? = 2
k results zz 2>"$KL_TMP/err"; tap_check "a malformed run id exits 2" test $? = 2
k results --verdict great 2>/dev/null; tap_check "a bad verdict is a usage error" test $? = 2
k results --rung 16 2>/dev/null; tap_check "--rung 16 (past any rung the database keeps) is a usage error" test $? = 2

# hosts
k hosts add lab-1 https://lab-1.example/kladder.json >/dev/null; tap_check "hosts add" test $? = 0
k hosts add lab-1 https://other.example/x.json 2>"$KL_TMP/err"; rc=$?
tap_check "adding a name twice exits 2" test $rc = 2
tap_check "and says so" grep -q "exists already" "$KL_TMP/err"
k hosts add Lab https://x.example/ 2>/dev/null; tap_check "upper case in a name is refused" test $? = 2
k hosts add local https://x.example/ 2>/dev/null; tap_check "'local' is reserved" test $? = 2
k hosts add "$(printf 'a%.0s' $(seq 65))" https://x.example/ 2>/dev/null; tap_check "a 65-character name is refused" test $? = 2
k hosts add ftp-host ftp://x.example/x.json 2>"$KL_TMP/err"; rc=$?
tap_check "an ftp URL is refused" test $rc = 2
tap_check "the message lists the schemes" grep -q "https://, http://, sftp://, scp:// or file://" "$KL_TMP/err"
k hosts add sp "https://x.example/a b" 2>/dev/null; tap_check "a URL with a space is refused" test $? = 2
for u in sftp://h.example/r.json scp://h.example/r.json file:///tmp/r.json http://h.example/r.json; do
    n=h$((++i)); k hosts add "$n" "$u" >/dev/null || tap_fail "scheme of $u"
done
tap_ok "sftp, scp, file and http URLs are accepted"
k hosts list --json | python3 -c '
import json, sys
h = {x["name"]: x for x in json.load(sys.stdin)}
assert h["lab-1"]["url"] == "https://lab-1.example/kladder.json" and h["lab-1"]["last_pull"] is None
assert h["beta"]["runs"] == 2 and h["beta"]["cursor"] == "2026-11-01T11:00:30Z"
' && tap_ok "hosts list --json" || tap_fail "hosts list --json"
k hosts rm beta 2>"$KL_TMP/err"; rc=$?
tap_check "rm of a host with pulled runs is refused" test $rc = 2
tap_check "and suggests --purge" grep -q -- "--purge" "$KL_TMP/err"
k hosts rm beta --purge >"$KL_TMP/out"; rc=$?
tap_check "rm --purge removes the host and its runs" grep -q "removed host beta and its 2 pulled runs" "$KL_TMP/out"
tap_check "10 runs are left" test "$(k results --json | count)" = 10
k hosts rm lab-1 >/dev/null; tap_check "rm of a host without runs" test $? = 0
k hosts rm lab-1 2>/dev/null; tap_check "rm of an unknown host exits 2" test $? = 2
k hosts frob 2>/dev/null; tap_check "an unknown subcommand exits 2" test $? = 2
