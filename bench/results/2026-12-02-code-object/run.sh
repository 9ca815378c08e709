#!/usr/bin/env bash
# Prebuilt code objects on the H200 (issue 24, item 7): nvcc builds a .cubin and a .ptx from a
# small kernel of our own (a scaled copy, a second correct implementation of it with a
# grid-stride loop, a buggy twin that drops the last element, and a C++ reference whose symbol
# is mangled), and kladder runs them through "code_object" on the cuda backend, rungs 1, 2, 3
# and 5: each fixed implementation must pass, the buggy twin must be caught. It also inspects
# both files, checks the cubin's parameters against cuobjdump's reading of the same
# attributes, and checks that a wrong manifest is refused naming its field.
#
#   BIN=path/to/kladder OUT=out-folder bash bench/results/2026-12-02-code-object/run.sh
#
# Everything lands in $OUT; summary.tsv has one line per step (what, exit status, expected).
set -u
BIN=${BIN:?BIN=path of a kladder binary built on the device}
OUT=${OUT:?OUT=an output folder}
mkdir -p "$OUT"
W=$OUT/work
mkdir -p "$W"
sum=$OUT/summary.tsv
: >"$sum"
step() { # WHAT EXPECTED_STATUS COMMAND...
    local what=$1 want=$2
    shift 2
    "$@" >"$OUT/$what.out" 2>"$OUT/$what.err"
    local rc=$?
    printf '%s\t%s\t%s\t%s\n' "$what" "$rc" "$want" "$([ "$rc" = "$want" ] && echo ok || echo UNEXPECTED)" | tee -a "$sum"
}

cat >"$W/scale.cu" <<'CU'
extern "C" __global__ void __launch_bounds__(256)
scale_fixed(float *out, const float *in, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * in[i];
}

// The same op written another way: a grid-stride loop.
extern "C" __global__ void __launch_bounds__(256)
scale_grid_stride(float *out, const float *in, float a, int n)
{
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        out[i] = in[i] * a;
}

// The buggy twin: the last element is never written.
extern "C" __global__ void __launch_bounds__(256)
scale_drop_last(float *out, const float *in, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1)
        out[i] = a * in[i];
}

// The reference: one block walks everything. A C++ symbol, found by its name.
__global__ void scale_ref(float *out, const float *in, float a, int n)
{
    for (int i = threadIdx.x; blockIdx.x == 0 && i < n; i += blockDim.x)
        out[i] = in[i] * a;
}
CU
sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d .)
sm=${sm:-90}
step nvcc-cubin 0 nvcc -cubin -arch=sm_$sm -O2 -o "$W/scale.cubin" "$W/scale.cu"
step nvcc-ptx 0 nvcc -ptx -arch=sm_$sm -O2 -o "$W/scale.ptx" "$W/scale.cu"

manifest() { # FILE CODE_OBJECT FIXED N_TYPE
    cat >"$1" <<JSON
{"format": "kladder-suite", "version": 1, "name": "$(basename "$1" .json)", "code_object": "$2",
 "variants": {"fixed": "$3", "buggy": "scale_drop_last"}, "reference": "scale_ref",
 "params": {"n": 1000, "a": 2.5},
 "buffers": [{"name": "in", "dtype": "f32", "shape": ["n"], "role": "input"},
             {"name": "out", "dtype": "f32", "shape": ["n"], "role": "output"}],
 "args": ["out", "in", "a", "n"], "arg_types": {"a": "f32", "n": "$4"},
 "launch": {"block": [256, 1, 1], "grid": ["ceil(n, 256)", 1, 1]},
 "reference_launch": {"block": [256, 1, 1], "grid": [1, 1, 1]},
 "baseline": [{"n": 1000}],
 "rungs": {"1": {"untuned": false, "extra": [{"name": "big", "n": 100000}, {"name": "odd", "n": 4097}]},
           "2": {}, "3": {}, "5": {}}}
JSON
}

# Inspecting: both files, and the cubin's parameters against cuobjdump's.
step inspect 0 "$BIN" inspect --json "$W/scale.cubin" "$W/scale.ptx"
if command -v cuobjdump >/dev/null; then
    cuobjdump -elf "$W/scale.cubin" >"$OUT/cuobjdump.txt" 2>&1
    python3 - "$OUT/inspect.out" "$OUT/cuobjdump.txt" >"$OUT/params-vs-cuobjdump.txt" <<'PY'
import json, re, sys
ours = {k["name"]: [(p["offset"], p["size"]) for p in k["params"]]
        for f in json.load(open(sys.argv[1])) if f["format"] == "cubin" for k in f["kernels"]}
theirs, cur = {}, None
for line in open(sys.argv[2]):
    m = re.search(r"(?:^|\s)\.nv\.info\.(\S+)", line)
    if m:
        cur = m.group(1); theirs.setdefault(cur, {})
    m = re.search(r"Ordinal\s*:\s*(0x[0-9a-f]+)\s+Offset\s*:\s*(0x[0-9a-f]+)\s+Size\s*:\s*(0x[0-9a-f]+)", line)
    if m and cur:
        theirs[cur][int(m.group(1), 16)] = (int(m.group(2), 16), int(m.group(3), 16))
theirs = {k: [v[i] for i in sorted(v)] for k, v in theirs.items() if v}
bad = [k for k in theirs if ours.get(k) != theirs[k]]
print("ours", ours); print("cuobjdump", theirs)
print("MATCH" if theirs and not bad else "DIFFER: %s" % bad)
PY
    printf 'params-vs-cuobjdump\t%s\tMATCH\n' "$(tail -n1 "$OUT/params-vs-cuobjdump.txt")" | tee -a "$sum"
fi
for fmt in cubin ptx; do
    manifest "$W/wide-$fmt.json" "scale.$fmt" scale_fixed i64
    step "inspect-wrong-manifest-$fmt" 1 "$BIN" inspect --suite "$W/wide-$fmt.json"
    # refused for the right reason: the field named, not a missing file
    grep -q 'args\[3\] ("n", i64): 8 bytes, but the kernel.s parameter 4 is 4 bytes' \
        "$OUT/inspect-wrong-manifest-$fmt.err"
    printf 'wrong-manifest-names-args3-%s\t%s\t0\t%s\n' "$fmt" $? \
        "$(grep -q 'args\[3\]' "$OUT/inspect-wrong-manifest-$fmt.err" && echo ok || echo UNEXPECTED)" | tee -a "$sum"
done

# Running: each correct implementation passes every rung, the buggy twin is caught.
for fmt in cubin ptx; do
    for fixed in scale_fixed scale_grid_stride; do
        m=$W/$fixed-$fmt.json
        manifest "$m" "scale.$fmt" "$fixed" i32
        step "inspect-suite-$fixed-$fmt" 0 "$BIN" inspect --suite "$m"
        for rung in 1 2 3 5; do
            what=run-r$rung-$fixed-$fmt
            timeout -k 5 300 "$BIN" --db "$OUT/k.db" run --rung $rung --suite "$m" --backend cuda \
                --timeout 60 --no-progress >"$OUT/$what.out" 2>"$OUT/$what.err"
            rc=$?
            # Judged from the verdicts (a plain unit test that also catches the twin is not the
            # point here): no fixed or baseline-fixed check may fail, some buggy check must.
            fixed_bad=$(grep -cE '^(fail|error|hang|doubt) +(baseline-)?fixed ' "$OUT/$what.out")
            caught=$(grep -cE '^fail +buggy ' "$OUT/$what.out")
            printf '%s\texit %s, fixed not passing %s, buggy caught %s\t%s\n' "$what" "$rc" \
                "$fixed_bad" "$caught" \
                "$([ "$fixed_bad" = 0 ] && [ "$caught" -gt 0 ] && echo ok || echo UNEXPECTED)" | tee -a "$sum"
        done
    done
done
# The buggy twin named as the fixed variant must fail (the file runs, not a source).
manifest "$W/twin-as-fixed-cubin.json" scale.cubin scale_drop_last i32
step run-r1-twin-as-fixed-cubin 1 timeout -k 5 300 "$BIN" --db "$OUT/k.db" run --rung 1 \
    --suite "$W/twin-as-fixed-cubin.json" --backend cuda --timeout 60 --no-progress --variant fixed
"$BIN" --db "$OUT/k.db" export >"$OUT/export.json" 2>/dev/null || true
echo "unexpected: $(grep -c UNEXPECTED "$sum") of $(wc -l <"$sum") steps" | tee -a "$OUT/summary.txt"
