#!/usr/bin/env bash
# Run on the GPU machine, from the repository root, with the bundle of scripts/device-bundle.sh
# present (build/device, or KL_BUNDLE=DIR): every plain-source suite of the test fixtures (the
# kernels written here in the shapes files ship in: vendor and local includes, includes under
# branches never taken, include directories, the driver API, HIP's legacy coordinates, `extern
# float __shared__`, atomicInc, bf16x2 atomicAdd, template __shared__ scalars, a kernel name on
# the line after `__global__ void`, template instances named through typedefs) through `kladder
# run` on one backend (KL_BACKEND, default cuda) with the rungs each manifest names.
#
# For each suite it prints one line: the suite, whether every check of the fixed variant (and
# of its baseline) passed, and which rungs failed the buggy variant; the --json of every run,
# their stderr, and summary.tsv go to $OUT (default build/device-out/shapes); the databases and
# the compile cache to KL_WORK (build/device-shapes).
#
#   bash scripts/device-shapes.sh [SUITE.json...]     default: the folders listed below
# Environment: OUT, KL_BUNDLE, KL_BACKEND (cuda), KL_CHECK_TIMEOUT (seconds a check may run, 60),
#   KL_JOBS (suites run side by side, 6).
set -u
cd "$(dirname "$0")/.."
root=$PWD
OUT=${OUT:-$root/build/device-out}/shapes
BUNDLE=${KL_BUNDLE:-build/device}
BACKEND=${KL_BACKEND:-cuda}
CHECK_TIMEOUT=${KL_CHECK_TIMEOUT:-60}
mkdir -p "$OUT"

if [ -x "$BUNDLE/kladder" ]; then
    K=$root/$BUNDLE/kladder
    export LD_LIBRARY_PATH="$root/$BUNDLE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
elif [ -x build/kladder ]; then
    K=$root/build/kladder
else
    echo "device-shapes: no $BUNDLE/kladder (run scripts/device-bundle.sh on the build machine)" >&2
    exit 2
fi
WORK=${KL_WORK:-$root/build/device-shapes}
mkdir -p "$WORK"
export XDG_DATA_HOME=$WORK/data XDG_CACHE_HOME=$WORK/cache

if [ $# -gt 0 ]; then
    suites=("$@")
else
    suites=()
    for dir in plain storage preproc api entry asship; do
        for f in tests/engine/fixtures/$dir/*.json; do
            grep -q '"source"' "$f" && suites+=("$f")
        done
    done
fi

printf 'suite\tfixed\tcaught_by\tdetail\n' >"$OUT/summary.tsv"
# one_suite SUITE: its run (a database of its own, so that runs side by side never wait on one
# another's lock) and its summary line in $OUT/NAME.line.
one_suite() {
    local suite=$1 name rc
    name=$(basename "$(dirname "$suite")")-$(basename "$suite" .json)
    "$K" --db "$WORK/$name.db" run --suite "$suite" --backend "$BACKEND" --no-progress --json \
        --timeout "$CHECK_TIMEOUT" >"$OUT/$name.json" 2>"$OUT/$name.err"
    rc=$?
    python3 - "$OUT/$name.json" "$name" "$rc" >"$OUT/$name.line" <<'EOF'
import json, sys
path, name, rc = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    checks = json.load(open(path))["checks"]
except Exception as e:
    print(f"{name}\terror\t-\texit {rc}, no result ({type(e).__name__})")
    sys.exit(0)
bad = [c for c in checks if c["variant"] in ("fixed", "baseline-fixed") and c["verdict"] != "pass"]
caught = sorted({c["rung"] for c in checks if c["variant"] == "buggy" and c["verdict"] == "fail"})
ran = sorted({c["rung"] for c in checks if c["variant"] == "fixed"})
detail = "; ".join(f"rung {c['rung']} {c['check']}: {c['verdict']} {c['detail'][:160]}"
                   for c in bad[:3]).replace("\t", " ").replace("\n", " ")
print(f"{name}\t{'pass' if not bad and ran else 'FAIL'}\t{','.join(map(str, caught)) or 'none'}"
      f"\trungs {','.join(map(str, ran))}; exit {rc}; {detail}")
EOF
    cat "$OUT/$name.line"
}
export -f one_suite
export K OUT WORK BACKEND CHECK_TIMEOUT
printf '%s\n' "${suites[@]}" | xargs -d '\n' -P "${KL_JOBS:-6}" -I{} bash -c 'one_suite "$1"' _ {}
cat "$OUT"/*.line | sort >>"$OUT/summary.tsv"
