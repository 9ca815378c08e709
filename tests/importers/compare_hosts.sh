# kladder compare over three hosts: one machine run twice (noise only, tests/fixtures/remote/
# noisy_pair.py) and a third run with real slowdowns injected (a fence check 10x, a tile check
# 1.5x). Against the baseline, the noise-only host stands out on at most 5% of its timed rows
# while the injected rows stand out on the third host alone; --differs, --sort and --baseline
# pick by the host that differs; the table fits 80 and 150 columns.
. tests/tap.sh
gen=tests/fixtures/remote/noisy_pair.py
db=$KL_TMP/hosts.db
k() { "$KLADDER" --db "$db" "$@"; }
mkdir -p "$KL_TMP/p" "$KL_TMP/q"
python3 "$gen" "$KL_TMP/p" && python3 "$gen" "$KL_TMP/q" --inject fence10x --inject tile1.5x &&
    python3 tests/fixtures/remote/third_host.py "$KL_TMP/q/run2.json" "$KL_TMP/c.json" c
k hosts add h200-a "file://$KL_TMP/p/run1.json" >/dev/null
k hosts add h200-b "file://$KL_TMP/p/run2.json" >/dev/null
k hosts add h200-c "file://$KL_TMP/c.json" >/dev/null
k pull >/dev/null 2>&1
tap_check "three hosts pulled" test $? = 0

k compare h200-a h200-b h200-c --json >"$KL_TMP/all.json"
python3 - "$KL_TMP/all.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["baseline"] == "h200-a" and d["hosts"] == ["h200-a", "h200-b", "h200-c"], d["hosts"]
rows = d["rows"]
def stands(r, h):
    c = r["cells"][h]
    return c.get("flagged") or c.get("verdict_differs") or c.get("score_differs")
timed_b = [r for r in rows if r["cells"][1].get("ratio") is not None]
flag_b = [r for r in rows if stands(r, 1)]
assert timed_b and len(flag_b) <= 0.05 * len(timed_b), (len(flag_b), len(timed_b))
only_c = [r for r in rows if stands(r, 2) and not stands(r, 1)]
names = {(r["suite"], r["cells"][2]["ratio"] > 4) for r in only_c}
assert ("fence-2213", True) in names, only_c
assert any(r["suite"] == "tile-3302" and 1.3 < r["cells"][2]["ratio"] < 1.7 for r in only_c), only_c
# the rows not judged (fewer than 3 repeats a side) are never flagged, however far apart
for r in rows:
    for c in r["cells"][1:]:
        if c.get("timing") == "too-few-repeats":
            assert not c["flagged"], r
s = {x["host"]: x for x in d["summary"]}
assert 0.98 < s["h200-b"]["geomean_ratio"] < 1.02, s
assert s["h200-c"]["flagged"] > s["h200-b"]["flagged"], s
PY
tap_check "noise stays quiet, the injected slowdowns stand out on the third host only" test $? = 0

k compare h200-a h200-b h200-c --differs h200-c --sort h200-c --json >"$KL_TMP/c.json2"
python3 - "$KL_TMP/c.json2" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert rows, "no rows"
for r in rows:
    c = r["cells"][2]
    assert c["flagged"] or c["verdict_differs"], r
ratios = [r["cells"][2]["ratio"] for r in rows if r["cells"][2]["ratio"] is not None]
assert ratios == sorted(ratios, reverse=True), ratios
assert ratios[0] > 4, ratios
PY
tap_check "--differs HOST keeps its rows, --sort HOST puts its slowest first" test $? = 0

k compare h200-a h200-b h200-c --baseline h200-c --search fence --json >"$KL_TMP/base.json"
python3 - "$KL_TMP/base.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["hosts"][0] == "h200-c", d["hosts"]
fast = [r for r in d["rows"] if r["cells"][1].get("ratio") and r["cells"][1]["ratio"] < 0.25]
assert fast and all(r["cells"][1]["flagged"] and r["cells"][2]["flagged"] for r in fast), fast
PY
tap_check "--baseline turns the matrix: both others are faster than the slowed host" test $? = 0

for w in 80 150; do
    COLUMNS=$w k compare h200-a h200-b h200-c --search fence >"$KL_TMP/w$w.txt"
    tap_check "the table fits $w columns" \
        python3 -c 'import sys; w = int(sys.argv[2]); ls = open(sys.argv[1], encoding="utf-8").read().splitlines(); assert ls and max(len(l) for l in ls) <= w, max(len(l) for l in ls)' "$KL_TMP/w$w.txt" "$w"
done
tap_check "at 150 columns every host's cell is whole" grep -q 'h200-a (baseline)' "$KL_TMP/w150.txt"
tap_check "at 80 the flagged fence row still reads 10x slower" \
    grep -Eq '^\* .*pass 10\.[0-9]× ?(slower|▲) !' "$KL_TMP/w80.txt"
tap_check "the summary names each host against the baseline" \
    test "$(grep -c 'geometric mean' "$KL_TMP/w80.txt")" = 2

k compare h200-a h200-b h200-c --differs h200-a >/dev/null 2>&1
tap_check "--differs of the baseline is a usage error" test $? = 2
k compare h200-a h200-b h200-c --sort nobody >/dev/null 2>&1
tap_check "--sort of no host is a usage error" test $? = 2
k compare h200-a h200-b --baseline h200-b >/dev/null 2>&1
tap_check "--baseline with two hosts is a usage error" test $? = 2
echo "1..$_tap_n"
