#!/usr/bin/env bash
# kladder from Python on the H200 (docs/python.md): Triton kernels and torch ops of our own
# (ops_triton.py) through the pytest plugin on the cuda backend, the correct and the buggy
# version of each at rungs 1, 2 and 5; then the overhead of a rung-2 pass against the plain
# pytest loop, side by side (overhead.py, and both as pytest files timed whole).
#
#   BIN=path/to/kladder OUT=out-folder bash bench/results/2026-12-02-python/run.sh
#
# BIN's folder holds libkladder.so (`make` builds both; scripts/device-bundle.sh bundles both,
# with their libraries in lib/); python3 with torch, Triton, numpy and pytest. Writes OUT/: pytest.txt and junit.xml (the ladder), cases.tsv (per case: passed,
# failed, skipped checks, and whether it met its expectation), runs.json and export.json (the
# database's view), overhead.tsv and pytest-overhead.tsv (the cost), env.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
: "${BIN:?BIN: the kladder binary}" "${OUT:?OUT: an output folder}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")  # the script moves to its own folder
export KLADDER_LIB=${KLADDER_LIB:-$(dirname "$BIN")/libkladder.so}
# a device bundle (scripts/device-bundle.sh) keeps the libraries both load in lib/ beside them:
# libkladder.so finds them there itself (its RPATH), the binary through LD_LIBRARY_PATH (set for
# it alone, never for python, whose own libraries must stay its own)
kl() { LD_LIBRARY_PATH="$(dirname "$BIN")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$BIN" "$@"; }
export PYTHONPATH=$repo/python:$here PYTHONDONTWRITEBYTECODE=1
export XDG_DATA_HOME=$OUT/data XDG_CACHE_HOME=$OUT/cache
export KL_DB=$OUT/k.db
py=${PYTHON:-python3}
{
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    $py -c 'import torch, triton, numpy; print("torch", torch.__version__, "triton", triton.__version__, "numpy", numpy.__version__)'
    kl --version
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

cd "$here"
s=$(date +%s%N)
$py -m pytest -p kladder.pytest_plugin -p no:cacheprovider -q -rN --junitxml="$OUT/junit.xml" \
    test_triton.py >"$OUT/pytest.txt" 2>&1
echo "pytest exit $?, $(( ($(date +%s%N) - s) / 1000000 )) ms" | tee -a "$OUT/pytest.txt"
tail -20 "$OUT/pytest.txt"

# per case: passed, failed, skipped; a fixed case meets its expectation when nothing failed, a
# buggy one when a check of its bug's rung failed
$py - "$OUT/junit.xml" >"$OUT/cases.tsv" <<'PY'
import collections, sys, xml.etree.ElementTree as ET
import ops_triton
n = collections.defaultdict(lambda: [0, 0, 0, set()])
for tc in ET.parse(sys.argv[1]).iter("testcase"):
    case = tc.get("name").split("[")[0]
    bad = tc.find("failure") is not None or tc.find("error") is not None
    k = 1 if bad else 2 if tc.find("skipped") is not None else 0
    n[case][k] += 1
    if bad:
        msg = (tc.find("failure") if tc.find("failure") is not None else tc.find("error")).text or ""
        rung = msg.split(", rung ")[1].split()[0] if ", rung " in msg else "?"
        n[case][3].add(rung)
print("case\tpassed\tfailed\tskipped\tfailing rungs\tmet")
for case, (p, f, s, rungs) in sorted(n.items()):
    name, which = case[len("test_"):].rsplit("_", 1)
    want = str(ops_triton.CASES[name][-1])
    met = f == 0 if which == "fixed" else want in rungs
    print("%s\t%d\t%d\t%d\t%s\t%s" % (case, p, f, s, ",".join(sorted(rungs)) or "-", met))
PY
column -t -s $'\t' "$OUT/cases.tsv"
kl --db "$KL_DB" results --json >"$OUT/runs.json"
kl --db "$KL_DB" results | tee "$OUT/runs.txt"
kl --db "$KL_DB" export --out "$OUT/export.json"

# the overhead: in process, then both as pytest runs timed whole (median of 5 each)
$py overhead.py "$OUT/overhead.db" 7 | tee "$OUT/overhead.tsv"
printf 'side\tms (median of 5 pytest runs)\n' >"$OUT/pytest-overhead.tsv"
for side in plain kladder; do
    ts=()
    for i in 1 2 3 4 5; do
        s=$(date +%s%N)
        KL_DB=$OUT/overhead.db $py -m pytest -p kladder.pytest_plugin -p no:cacheprovider -q \
            test_overhead_$side.py >"$OUT/pytest-overhead-$side.txt" 2>&1
        ts+=("$(( ($(date +%s%N) - s) / 1000000 ))")
    done
    printf '%s\t%s\n' "$side" "$(printf '%s\n' "${ts[@]}" | sort -n | sed -n 3p)" >>"$OUT/pytest-overhead.tsv"
done
column -t -s $'\t' "$OUT/pytest-overhead.tsv"
rm -rf "$OUT/cache"
