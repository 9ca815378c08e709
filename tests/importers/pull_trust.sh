#!/usr/bin/env bash
# Nothing pulled is believed, run or read: a pulled run's verdict is judged again from its checks
# (docs/remote.md, "Verdicts are re-derived"), its command is given back only quoted and as a
# comment, and a report bundles no file for it. Each document is the synthetic one of
# gen_results.py with one thing changed, as another host (or someone editing its export) could.
. tests/tap.sh
. tests/importers/pull_lib.bash
k() { "$KLADDER" --db "$db" "$@"; }
base=$KL_TMP/base.json
python3 $gen --host gpu-a --runs 2 --checks 8 --out "$base"

# edit NAME PYTHON: the base document with PYTHON applied (d; runs r, checks c), as NAME.json
edit() {
    python3 - "$base" "$KL_TMP/$1.json" "$2" <<'PY'
import json, sys
src, dst, code = sys.argv[1:]
d = json.load(open(src))
r, c = d["runs"], d["checks"]
exec(code)
json.dump(d, open(dst, "w"))
PY
}
# fresh: a new database for the next step
fresh() { db=$KL_TMP/$1.db; rm -f "$db"; }
run0=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["run_id"])' "$base")
field() { k results --json | python3 -c "
import json, sys
runs = {x['run_id']: x for x in json.load(sys.stdin)}
print(runs['$run0']$1)"; }

# --- a check in doubt, as kladder's own export writes it: read, counted, not a pass -----------
edit doubt 'c[0]["verdict"] = "doubt"; c[0]["bad_count"] = 4; c[0]["first_bad"] = 2'
fresh doubt
tap_check "a pulled doubt is read (exit 0)" k pull "file://$KL_TMP/doubt.json"
k results "$run0" >"$KL_TMP/doubt.txt"
tap_check "... counted as a doubt with the other seven checks" \
    grep -q '^verdict .*1 in doubt' "$KL_TMP/doubt.txt"
tap_check "... and its check stored as doubt" grep -qE '^0 +1 .* doubt ' "$KL_TMP/doubt.txt"

# --- five failed checks (four fixed, one buggy) relabelled skip, the run's counts to match ---
edit relabel '
n = 0
for x in c:
    if x["run_id"] == r[0]["run_id"] and x["variant"] == "fixed" and n < 4:
        x["verdict"] = "fail"; x["bad_count"] = 9; x["first_bad"] = 1; n += 1
r[0]["verdict"] = "fail"
json.dump(d, open(sys.argv[2], "w"))
for x in c:
    if x["verdict"] == "fail" and x["run_id"] == r[0]["run_id"]:
        x["verdict"] = "skip"
r[0]["verdict"] = "pass"
r[0]["counts"] = {"pass": 3, "fail": 0, "hang": 0, "error": 0, "skip": 5, "cancelled": 0}'
fresh relabel
tap_check "a document with failures relabelled skip is read (exit 0)" \
    k pull "file://$KL_TMP/relabel.json"
tap_check "... the run is stored as a fail, not the pass it says" test "$(field "['verdict']")" = fail
k results --verdict fail >"$KL_TMP/failing.txt"
tap_check "... and 'results --verdict fail' lists it" grep -q "^${run0:0:8} " "$KL_TMP/failing.txt"
k results "$run0" >"$KL_TMP/relabel.txt"
tap_check "... its five checks are failures again, each saying what its document said" \
    test "$(grep -c 'exported as "skip", recomputed as "fail": it records [39] bad elements' "$KL_TMP/relabel.txt")" = 5
tap_check "... and the run's own word is kept beside its verdict" \
    grep -q '^exported as pass' "$KL_TMP/relabel.txt"

# --- an older kladder's pass over checks that all skipped lands, honestly -------------------
edit allskip '
for x in c:
    if x["run_id"] == r[0]["run_id"]:
        x.update(verdict="skip", first_bad=None, bad_count=None, max_err=None, repeats=0,
                 time_us={"median": None, "min": None, "max": None})
r[0]["verdict"] = "pass"'
fresh allskip
tap_check "a pass over checks that never ran is read, not refused (exit 0)" \
    k pull "file://$KL_TMP/allskip.json"
tap_check "... and stored as a run that tested nothing: inconclusive (skip), as the engine says, never a pass" \
    test "$(field "['verdict']")" = skip

# --- a time in the future is refused, and the host's cursor stays usable ---------------------
edit future 'r[1]["finished"] = "9999-12-31T23:59:59Z"'
fresh future
k pull "file://$KL_TMP/future.json" >"$KL_TMP/out" 2>&1
tap_check "a run finished in 9999 is refused with exit 1, naming the field" \
    sh -c "[ $? = 1 ] && grep -q \"runs\\[1\\] .*field 'finished': 9999-12-31T23:59:59Z is in the future\" '$KL_TMP/out'"
k hosts add gpu-a "file://$base" >/dev/null
k pull gpu-a >/dev/null 2>&1
python3 $gen --host gpu-a --runs 3 --checks 8 --out "$base"
k pull gpu-a >"$KL_TMP/out" 2>&1
tap_check "... and the same host's next runs still arrive" grep -q '^gpu-a: 1 new run' "$KL_TMP/out"
python3 $gen --host gpu-a --runs 2 --checks 8 --out "$base"

# --- a pulled command is never run: not from the report, not from 'results RUN' ------------
secret=$KL_TMP/local-suite.json
echo '{"name": "SECRET-MARKER-7d1f"}' >"$secret"
edit argv "r[0][\"argv\"] = 'kladder run --suite $secret --rung 1 ; touch X \$(touch Y) \`touch Z\`' + chr(10) + 'touch W'"
fresh argv
k pull "file://$KL_TMP/argv.json" >/dev/null 2>&1
k report "$run0" >"$KL_TMP/report.md"
k results "$run0" >"$KL_TMP/results.txt"
tap_check "the report quotes the pulled command as a comment naming its host" \
    grep -q "^# pulled from gpu-a, not verified here: kladder run --suite $secret --rung 1 ';' touch X '\$(touch' 'Y)'" "$KL_TMP/report.md"
tap_check "the report bundles no file of this machine for a pulled run" \
    sh -c "! grep -q 'SECRET-MARKER' '$KL_TMP/report.md' && ! grep -q '^cat >' '$KL_TMP/report.md'"
# every shell block of the report, and the command line of 'results RUN', run by bash
python3 - "$KL_TMP/report.md" "$KL_TMP/blocks.sh" <<'PY'
import re, sys
md = open(sys.argv[1]).read()
open(sys.argv[2], "w").write("\n".join(m.group(2) for m in
    re.finditer(r"^(`{3,})sh\n(.*?)^\1$", md, re.S | re.M)))
PY
sed -n 's/^command *//p' "$KL_TMP/results.txt" >>"$KL_TMP/blocks.sh"
mkdir -p "$KL_TMP/scratch"
(cd "$KL_TMP/scratch" && PATH=/nonexistent bash "$KL_TMP/blocks.sh" >/dev/null 2>&1)
tap_check "run by bash in a scratch folder, none of it runs anything (no file made)" \
    test -z "$(ls -A "$KL_TMP/scratch")"
tap_check "... and the blocks were there to run" grep -q 'touch X' "$KL_TMP/blocks.sh"

# --- a host that relays another host's run neither takes it over nor blocks its own host --------
python3 $gen --host gpu-b --runs 1 --checks 4 --seed 5 --out "$KL_TMP/b.json"
python3 - "$base" "$KL_TMP/b.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
# gpu-b republishes gpu-a's first run (its own host field says gpu-a), with a check edited
b["machines"] += a["machines"]
b["runs"].append(a["runs"][0])
relayed = [dict(c) for c in a["checks"] if c["run_id"] == a["runs"][0]["run_id"]]
relayed[0]["time_us"] = {"median": 1.0, "min": 1.0, "max": 1.0}
b["checks"] += relayed
json.dump(b, open(sys.argv[2], "w"))
PY
fresh relay
k pull "file://$KL_TMP/b.json" >/dev/null 2>&1
tap_check "a relayed run is stored under the host that relayed it, while it is the only copy" \
    test "$(field "['origin']")" = gpu-b
k pull "file://$base" >"$KL_TMP/out" 2>&1
tap_check "its own host's pull is not blocked by it (exit 0)" test $? = 0
on_a() { k results --host gpu-a --json | grep -c "$run0"; }
tap_check "... and takes the run over" test "$(on_a)" = 1
k results "$run0" >"$KL_TMP/taken.txt"
tap_check "... with its own checks, not the relay's edit" \
    sh -c "grep -qE '^0 +1 ' '$KL_TMP/taken.txt' && ! grep -qE '^0 +1 .* 1\.00 +1\.00 +1\.00 ' '$KL_TMP/taken.txt'"
k pull "file://$KL_TMP/b.json" >"$KL_TMP/out" 2>&1
tap_check "pulling the relay again succeeds (exit 0)" test $? = 0
tap_check "... and leaves the run with its own host" test "$(on_a)" = 1

# --- every export committed under bench/results pulls ----------------------------------------
n=0
bad=0
while IFS= read -r f; do
    n=$((n + 1))
    fresh "bench$n"
    if ! k pull "file://$PWD/$f" >"$KL_TMP/out" 2>&1; then
        bad=$((bad + 1))
        echo "# $f: $(head -c 400 "$KL_TMP/out")"
    fi
done < <(grep -rlZ --include='*.json' '"format": *"kladder-results"' bench/results | tr '\0' '\n' | sort)
tap_check "every export committed under bench/results pulls ($n found, $bad refused)" \
    sh -c "[ $n -gt 20 ] && [ $bad = 0 ]"
