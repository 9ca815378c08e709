# Two machines side by side: the committed H200 results (bench/results/h200-2026-11-29) pulled
# over file:// and over HTTP, against a cpu-backend run made here, compared check by check.
. tests/tap.sh
export_doc=$PWD/bench/results/h200-2026-11-29/export.json
db=$KL_TMP/cpu.db
k() { "$KLADDER" --db "$db" "$@"; }

k run --rung 1 --suite flydsl-1199 --backend cpu --no-progress >"$KL_TMP/run.txt" 2>&1
tap_check "a cpu run of flydsl-1199 rung 1 meets its expectations here" test $? = 0

k hosts add h200 "file://$export_doc" >/dev/null
k pull h200 >"$KL_TMP/pull.txt" 2>&1
tap_check "pull the H200 results over file://" grep -q "^h200: 34 new runs" "$KL_TMP/pull.txt"
k pull h200 >"$KL_TMP/pull2.txt" 2>&1
tap_check "pulling again brings nothing new" grep -q "^h200: 0 new runs" "$KL_TMP/pull2.txt"

k compare local h200 --rung 1 --json >"$KL_TMP/cmp.json"
python3 - "$KL_TMP/cmp.json" <<'PY'
import json, math, sys
doc = json.load(open(sys.argv[1]))
rows = [r for r in doc["rows"] if r["suite"] == "flydsl-1199"]
both = [r for r in rows if r["a"] and r["b"]]
assert len(both) >= 50, len(both)
# same checks, same verdicts on both machines: the lesson does not depend on the machine
assert all(r["a"]["verdict"] == r["b"]["verdict"] for r in both)
assert any(r["variant"] == "buggy" and r["a"]["verdict"] == "fail" for r in both)
# the H200 runs these kernels far faster than the emulator: every ratio B/A well below 1
ratios = [r["ratio"] for r in both if r["ratio"] is not None]
assert ratios and max(ratios) < 0.5, max(ratios)
assert doc["summary"]["differing_verdicts"] == 0
# one repeat per check on the H200: hundreds of times apart, yet one launch says nothing of
# noise, so no row is flagged and none feeds a headline
assert all(not r["flagged"] and r["timing"] == "too-few-repeats" for r in both if r["ratio"] is not None)
assert doc["summary"]["judged"] == 0 and doc["summary"]["faster"] is None
assert doc["summary"]["geomean_ratio"] is None
PY
tap_check "compare: the flydsl-1199 checks match one to one, same verdicts, H200 far faster, none judged" test $? = 0
k compare local h200 --rung 1 >"$KL_TMP/cmp.txt"
tap_check "the summary makes no headline of one repeat" \
    grep -Eq '^no row judged: none of the [0-9]+ rows timed on both sides has 3 repeats a side$' "$KL_TMP/cmp.txt"
tap_check "no ratio reads 0.00×" sh -c "! grep -q '0\.00×' '$KL_TMP/cmp.txt'"
# at 80 columns the table fits, and the twin variants of a unit test still read apart
COLUMNS=80 k compare local h200 >"$KL_TMP/cmp80.txt"
tap_check "COLUMNS=80: every line fits in 80 cells" python3 -c '
import sys, unicodedata
w = lambda l: sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l)
sys.exit(max(w(l) for l in open(sys.argv[1]).read().split("\n")) > 80)' "$KL_TMP/cmp80.txt"
tap_check "COLUMNS=80: baseline-fixed and baseline-buggy cut where they differ" \
    bash -c "grep -q '…fixed ' '$KL_TMP/cmp80.txt' && grep -q '…buggy ' '$KL_TMP/cmp80.txt' &&
             ! grep -q 'baselin…' '$KL_TMP/cmp80.txt'"
tap_check "COLUMNS=80: the ratio and both verdicts stay" \
    grep -Eq '1199 +gptoss.* [0-9]+× faster \? fail/fail' "$KL_TMP/cmp80.txt"
tap_check "without a terminal or COLUMNS, every column whole" \
    bash -c "grep -q ' baseline-fixed ' '$KL_TMP/cmp.txt' && grep -q 'faster|slower' '$KL_TMP/cmp.txt'"
tap_check "rows say how many times faster, not judged" grep -Eq 'flydsl-1199 .* [0-9]{2,}× faster \? ' "$KL_TMP/cmp.txt"

# the same document over HTTP into a second database lands identically
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$(dirname "$export_doc")" && exec python3 -m http.server "$port" --bind 127.0.0.1) >/dev/null 2>&1 &
srv=$!
trap 'kill $srv 2>/dev/null' EXIT
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
db2=$KL_TMP/http.db
"$KLADDER" --db "$db2" pull "http://127.0.0.1:$port/export.json" >"$KL_TMP/pull3.txt" 2>&1
tap_check "pull the H200 results over HTTP" grep -q "34 new runs" "$KL_TMP/pull3.txt"
ids() { python3 -c 'import json,sys; print("\n".join(sorted(r["run_id"] for r in json.load(sys.stdin))))'; }
python3 -c 'import json,sys; print("\n".join(sorted(r["run_id"] for r in json.load(open(sys.argv[1]))["runs"])))' "$export_doc" >"$KL_TMP/doc"
"$KLADDER" --db "$db2" results --json | ids >"$KL_TMP/b"
tap_check "HTTP brings exactly the document's runs" cmp -s "$KL_TMP/doc" "$KL_TMP/b"
"$KLADDER" --db "$db" results --json | ids >"$KL_TMP/a"
tap_check "file:// brought them too, beside the local run" test -z "$(comm -23 "$KL_TMP/doc" "$KL_TMP/a")"
kill $srv 2>/dev/null
