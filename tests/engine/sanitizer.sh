#!/usr/bin/env bash
# `kladder run --sanitizer`, without a GPU: a fake compute-sanitizer
# (tests/engine/fixtures/sanitizer/fake-compute-sanitizer) wraps each check's worker, which runs
# on the cpu backend (KLADDER_SANITIZER_ANY_BACKEND=1, for tests only), and leaves a chosen
# report per worker start. Hazards become failing checks beside the check whose worker left
# them (text, --json, events, the database); a clean report adds one passing check per check; a
# hazard on a buggy variant leaves the expectation as the rung's own checks make it, one on a
# fixed variant fails the run; no tool, or a backend the tool cannot watch, is exit 2 with
# nothing recorded; control characters never reach the output; a garbled report is an error
# naming the log.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/sanitizer
export KLADDER_COMPUTE_SANITIZER=$PWD/$fx/fake-compute-sanitizer KLADDER_SANITIZER_ANY_BACKEND=1
db=$KL_TMP/k.db
clean=tests/fixtures/sanitizer/clean.txt
suite=tests/engine/fixtures/race/leaders.json
# the leaders suite at rung 5 plans four checks: baseline-fixed, baseline-buggy, fixed, buggy
run() { # run STATE_NAME "REPORTS" OUT_FILE ARGS...
    local st=$KL_TMP/$1; mkdir -p "$st"
    FAKE_SANITIZER_STATE=$st FAKE_SANITIZER_REPORTS=$2 "$KLADDER" --db "$db" run --rung 5 \
        --suite $suite --backend cpu --repeat 1 --schedule pct --seed 1 --no-progress "${@:4}" >"$3" 2>&1
}
nruns() { "$KLADDER" --db "$db" results --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'; }

# 1. Attribution: only the fourth worker (the buggy check's) leaves hazards.
run a "$clean $clean $clean tests/fixtures/sanitizer/racecheck.txt" "$KL_TMP/a.json" --json \
    --timeout 5 --sanitizer racecheck --events 3 3>"$KL_TMP/a.events"
rc=$?
sed 's/^/# /' "$KL_TMP/a.json" | head -40
tap_check "hazards on a buggy variant only: the expectation is met (exit 0, rc=$rc)" test $rc -eq 0
tap_check "one worker start per check under the tool" test "$(ls "$KL_TMP/a" | wc -l)" -eq 4
tap_check "the tool is given --tool racecheck --log-file LOG --print-limit 100 and the worker" \
    test "$(head -6 "$KL_TMP/a/argv-1" | tr '\n' ' ')$(tail -2 "$KL_TMP/a/argv-1" | tr '\n' ' ')" \
    = "--tool racecheck --log-file $(sed -n 4p "$KL_TMP/a/argv-1") --print-limit 100 run --worker "
python3 - "$KL_TMP/a.json" >"$KL_TMP/a.py.txt" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = [(x["variant"], x["check"], x["verdict"], x["expectation_met"], x["detail"], x["limit_s"]) for x in r["checks"]]
names = [x[1] for x in c]
assert names == ["unit-test-n1024", "sanitizer:racecheck@unit-test-n1024",
                 "unit-test-n1024", "sanitizer:racecheck@unit-test-n1024",
                 "repeat-default", "sanitizer:racecheck@repeat-default",
                 "repeat-default", "sanitizer:racecheck:race-error@repeat-default",
                 "sanitizer:racecheck:race-warning@repeat-default"], names
for v, n, verdict, met, d, lim in c[:6]:
    assert verdict == "pass", (n, verdict)
for v, n, verdict, met, d, lim in c[7:]:
    assert v == "buggy" and verdict == "fail" and met, (v, n, verdict, met)
    assert "while check repeat-default ran" in d and "check-6.log" in d, d
assert "in block_reduce: Write at block_reduce+0x1c0 (reduce.cu:13), Read at block_reduce+0x2f0 (reduce.cu:18), 248 hazards" in c[7][4], c[7][4]
assert "in leaders_buggy: Read at leaders_buggy+0x90 (races.kl:47)" in c[8][4], c[8][4]
assert c[4][5] == 100, ("limit: 20 x --timeout 5", c[4][5])
assert r["expectation_met"] is True and r["verdict"] == "pass", (r["expectation_met"], r["verdict"])
print("ok")
PY
prc=$?
sed 's/^/# /' "$KL_TMP/a.py.txt"
tap_check "--json: the hazards follow the buggy check that ran the kernel, named by tool and kind, with kernel, offsets and source; a clean report is one passing check per check; limits 20x; the run's verdict is the rung's" test $prc -eq 0
tap_check "events: a check-done for each of the nine checks" \
    test "$(grep -c '"event":"check-done"' "$KL_TMP/a.events")" -eq 9
tap_check "events: the hazard's check" grep -q '"check":"sanitizer:racecheck:race-warning@repeat-default"' "$KL_TMP/a.events"
id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$KL_TMP/a.json")
"$KLADDER" --db "$db" results "$id" --json >"$KL_TMP/a.db.json" 2>&1
tap_check "the database holds the hazard checks of run $id" \
    grep -q 'sanitizer:racecheck:race-error@repeat-default' "$KL_TMP/a.db.json"
tap_check "and the clean ones" grep -q 'sanitizer:racecheck@unit-test-n1024' "$KL_TMP/a.db.json"

# 2. A hazard on a fixed variant (our own memcheck report on leaders_fixed, third worker) is a
#    failure like any: text names it under the fixed check, and the run exits 1.
run b "$clean $clean $fx/memcheck_leaders_fixed.txt $clean" "$KL_TMP/b.txt" --sanitizer memcheck
rc=$?
sed 's/^/# /' "$KL_TMP/b.txt"
tap_check "a hazard on the fixed variant: exit 1 (rc=$rc)" test $rc -eq 1
tap_check "text: a failing memcheck check beside the fixed check" \
    grep -qE '^fail +fixed +r5 sanitizer:memcheck:invalid-shared' "$KL_TMP/b.txt"
tap_check "text: the kernel, thread and address" grep -qF 'memcheck: Invalid __shared__ write of size 4 bytes in leaders_fixed: at leaders_fixed+0x70 (races.kl:30), thread (3,0,0) in block (1,0,0), Address 0x404 is out of bounds (while check repeat-default ran' "$KL_TMP/b.txt"
tap_check "text: the buggy check's report was clean" grep -qE '^pass +buggy +r5 sanitizer:memcheck@repeat' "$KL_TMP/b.txt"

# A tool line on the worker's stdout (where it answers) is not taken for the answer.
FAKE_SANITIZER_STDOUT=1 run s "$clean" "$KL_TMP/s.txt" --sanitizer synccheck --variant fixed
rc=$?
sed 's/^/# /' "$KL_TMP/s.txt"
tap_check "the tool's banner on the worker's stdout: every check still passes (rc=$rc)" \
    sh -c 'test $1 -eq 0 && test "$(grep -cE "^pass +(baseline-)?fixed" "$2")" -eq 4' _ $rc "$KL_TMP/s.txt"

# 3. Control characters in a report (a kernel name, an address) never reach the output.
esc=$(printf '\033')
sed "s/leaders_buggy(/leaders${esc}[2J${esc}]0;pwned\a_buggy(/; s/in races.kl:47/in races${esc}[31m.kl:47/" \
    tests/fixtures/sanitizer/racecheck.txt >"$KL_TMP/ctrl.txt"
run c "$clean $clean $clean $KL_TMP/ctrl.txt" "$KL_TMP/c.txt"  --sanitizer racecheck
run c2 "$clean $clean $clean $KL_TMP/ctrl.txt" "$KL_TMP/c.json" --json --sanitizer racecheck
sed 's/^/# /' "$KL_TMP/c.txt" | cat -v
tap_check "text: the hazard is reported" grep -q 'sanitizer:racecheck:race-warning' "$KL_TMP/c.txt"
tap_check "text and --json: no control character from the report" \
    sh -c '! grep -qP "[\\x00-\\x08\\x0b-\\x1f\\x7f]" "$1" "$2" && ! grep -qi "\\\\u00[01]" "$2"' _ \
    "$KL_TMP/c.txt" "$KL_TMP/c.json"

# 4. A garbled report is an error that names the log: a race head without its second access,
#    and a report cut short (no summary line after the worker ended by itself).
run d "$clean $clean $clean $fx/garbled_no_location.txt" "$KL_TMP/d.txt" --sanitizer racecheck
rc=$?
sed 's/^/# /' "$KL_TMP/d.txt"
tap_check "garbled report: exit 1 (rc=$rc)" test $rc -eq 1
tap_check "garbled report: an error naming the log and what is wrong" \
    grep -qE '^error +buggy .*sanitizer:racecheck@repeat|/check-6\.log: garbled racecheck report: a race.s head line is not followed by its "and ... access at" line' "$KL_TMP/d.txt"
tap_check "garbled report: the log's path" grep -q 'sanitizer/[0-9a-f-]*/check-6.log: garbled racecheck report' "$KL_TMP/d.txt"
run e "$fx/cut_short.txt" "$KL_TMP/e.txt" --sanitizer memcheck --variant fixed
sed 's/^/# /' "$KL_TMP/e.txt"
tap_check "a report cut short: an error naming the log and the missing summary" \
    grep -q 'check-0.log: garbled memcheck report: the tool.s summary line (ERROR SUMMARY or RACECHECK SUMMARY) is missing' "$KL_TMP/e.txt"

# 5. No tool, or a backend the tool cannot watch: exit 2 before anything is recorded.
before=$(nruns)
KLADDER_COMPUTE_SANITIZER=$KL_TMP/no-such-tool run f "$clean" "$KL_TMP/f.txt" --sanitizer racecheck
rc=$?
sed 's/^/# /' "$KL_TMP/f.txt"
tap_check "a named tool that does not exist: exit 2 (rc=$rc)" test $rc -eq 2
tap_check "and the message names compute-sanitizer and the path" \
    grep -q "needs NVIDIA's compute-sanitizer: KLADDER_COMPUTE_SANITIZER names $KL_TMP/no-such-tool" "$KL_TMP/f.txt"
if ls /usr/local/cuda*/bin/compute-sanitizer >/dev/null 2>&1; then
    tap_skip "this machine has a compute-sanitizer under /usr/local/cuda*/bin"
else
    (unset KLADDER_COMPUTE_SANITIZER; PATH=/usr/bin:/bin run g "$clean" "$KL_TMP/g.txt" --sanitizer synccheck)
    rc=$?
    sed 's/^/# /' "$KL_TMP/g.txt"
    tap_check "none on PATH nor under /usr/local/cuda*/bin: exit 2 naming where it looked (rc=$rc)" \
        sh -c 'test $1 -eq 2 && grep -q "not found on PATH nor as /usr/local/cuda\*/bin/compute-sanitizer" "$2"' _ $rc "$KL_TMP/g.txt"
fi
KLADDER_SANITIZER_ANY_BACKEND= run h "$clean" "$KL_TMP/h.txt" --sanitizer racecheck
rc=$?
sed 's/^/# /' "$KL_TMP/h.txt"
tap_check "the cpu backend without the test override: exit 2 naming the backend (rc=$rc)" \
    sh -c 'test $1 -eq 2 && grep -q "watches the cuda backend.s kernels only; this run.s backend is cpu" "$2"' _ $rc "$KL_TMP/h.txt"
tap_check "no tool started for it" test -z "$(ls "$KL_TMP/h")"
tap_check "nothing recorded by the refused runs ($before runs before and after)" test "$(nruns)" -eq "$before"
"$KLADDER" --db "$db" run --sanitizer helgrind --rung 5 --suite $suite >"$KL_TMP/u.txt" 2>&1
rc=$?
tap_check "an unknown tool is a usage error (rc=$rc)" \
    sh -c 'test $1 -eq 2 && grep -q "expects racecheck, synccheck or memcheck" "$2"' _ $rc "$KL_TMP/u.txt"
# 6. A kernel that hangs under the tool: its limit is 20x --timeout (kernels run slower under a
#    sanitizer), the watchdog still stops it, and what the tool wrote before it was stopped is
#    read without a summary line (the worker did not end by itself). One hang: 20 s.
st=$KL_TMP/hang; mkdir -p "$st"
FAKE_SANITIZER_STATE=$st FAKE_SANITIZER_REPORTS=$fx/cut_short.txt "$KLADDER" --db "$db" run --rung 1 \
    --suite tests/engine/fixtures/hang.json --backend cpu --variant buggy --timeout 1 --no-progress \
    --sanitizer memcheck --json >"$KL_TMP/hang.json" 2>&1
python3 - "$KL_TMP/hang.json" >"$KL_TMP/hang.py.txt" 2>&1 <<'PY'
import json, sys
c = {x["check"]: x for x in json.load(open(sys.argv[1]))["checks"]}
assert c["big"]["verdict"] == "hang" and c["big"]["limit_s"] == 20, c["big"]
h = c["sanitizer:memcheck:invalid-global-read@big"]
assert h["verdict"] == "fail" and "while check big ran" in h["detail"], h
assert c["sanitizer:memcheck@after"]["verdict"] == "error", c["sanitizer:memcheck@after"]
print("ok")
PY
prc=$?
sed 's/^/# /' "$KL_TMP/hang.py.txt"
tap_check "a hang under the tool: stopped at 20x --timeout, the report it left read as far as it goes" test $prc -eq 0

echo "1..$_tap_n"
