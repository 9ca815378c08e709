#!/usr/bin/env bash
# Run on the GPU machine, from the repository root, with the bundle of scripts/device-bundle.sh
# present (build/device by default, or KL_BUNDLE=DIR): lists the devices, runs every reproducer
# case and the whole rung matrix with --backend cuda, exports the results as JSON, then runs the
# benchmarks (bench/kbench) and the PyTorch peer loop (bench/peer_loop.py).
#
# Each step writes into a work folder (KL_WORK, default build/device-run); at the end $OUT
# (default build/device-out) receives at most eight files: summary.txt, results.json (every
# case and rung run: command, exit status, its --json output), kbench.json, peer.json,
# devices.json, steps.tsv, commands.txt and device-run.tar.gz (the whole work folder: logs,
# JUnit files, the results database).
#
#   bash scripts/device-run.sh [STEP...]     steps: env devices compile bench peer worker cases
#                                            matrix model repeat repeat-bench (default: all, in that order: the short ones
#                                            first, the rung matrix last with what time is left)
# Environment: OUT, KL_BUNDLE, KL_BACKEND (cuda), KL_DEADLINE (seconds for the whole run, 510),
#   KL_OLD (an older kladder the worker step times beside this one), KL_REPEAT (its runs, 5),
#   KL_PYTHON (a python with torch; found automatically otherwise), KL_CHECK_TIMEOUT (seconds a
#   single check may run before it counts as a hang, 30).
#
# Robust on purpose: every step runs under `timeout`, a failing step is recorded and the next
# one runs, and steps that would pass the deadline are skipped (and say so) so the whole run
# stays well inside a 10-minute window. $OUT/steps.tsv lists each step: name, exit status,
# seconds, output file, command. $OUT/commands.txt holds the exact commands, for bench/results.
set -u
cd "$(dirname "$0")/.."
root=$PWD
OUT=${OUT:-$root/build/device-out}
WORK=${KL_WORK:-$root/build/device-run}
rm -rf "$WORK"
mkdir -p "$OUT" "$WORK"
BUNDLE=${KL_BUNDLE:-build/device}
BACKEND=${KL_BACKEND:-cuda}
DEADLINE=${KL_DEADLINE:-510}
CHECK_TIMEOUT=${KL_CHECK_TIMEOUT:-30}
t0=$SECONDS

if [ -x "$BUNDLE/kladder" ]; then
    K=$root/$BUNDLE/kladder
    KB=$root/$BUNDLE/kbench
    export LD_LIBRARY_PATH="$root/$BUNDLE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
elif [ -x build/kladder ]; then
    K=$root/build/kladder
    KB=$root/build/kbench
else
    echo "device-run: no $BUNDLE/kladder (run scripts/device-bundle.sh on the build machine)" >&2
    exit 2
fi
DB=$WORK/kladder.db
: >"$WORK/steps.tsv"
: >"$WORK/commands.txt"
echo "device-run: kladder=$K work=$WORK out=$OUT backend=$BACKEND deadline=${DEADLINE}s"

left() { echo $((DEADLINE - (SECONDS - t0))); }

# step NAME LIMIT OUTFILE CMD...: runs CMD under timeout (shortened to what the deadline leaves),
# stdout to OUTFILE, stderr to OUTFILE.stderr (kept when not empty), one line in steps.tsv;
# never stops the script.
step() {
    local name=$1 limit=$2 outfile=$3
    shift 3
    local remain
    remain=$(left)
    if [ "$remain" -lt 5 ]; then
        printf '%s\tskipped\t0\t%s\n' "$name" "deadline" >>"$WORK/steps.tsv"
        echo "-- $name: skipped, the ${DEADLINE}s deadline is reached"
        return 0
    fi
    [ "$limit" -gt "$remain" ] && limit=$remain
    echo "$*" >>"$WORK/commands.txt"
    local s=$SECONDS
    timeout -k 5 "$limit" "$@" >"$outfile" 2>"$outfile.stderr"
    local rc=$?
    [ -s "$outfile.stderr" ] || rm -f "$outfile.stderr"
    local took=$((SECONDS - s))
    printf '%s\t%d\t%d\t%s\t%s\n' "$name" "$rc" "$took" "${outfile#"$WORK"/}" "$*" >>"$WORK/steps.tsv"
    local what="exit $rc"
    [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && what="stopped at ${limit}s"
    echo "-- $name: $what in ${took}s -> ${outfile#"$WORK"/}"
    return 0
}

has_verb() { "$K" "$1" --help >/dev/null 2>&1; }

# Suite names and case ids from the manifests (no jq needed).
suites() {
    for f in kernels/suites/*.json; do
        [ -f "$f" ] && basename "$f" .json
    done
}
cases() {
    for f in kernels/suites/*.json; do
        [ -f "$f" ] || continue
        sed -n 's/.*"case"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | head -n 1
    done | sort -u
}

do_env() {
    {
        echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "host: $(uname -a)"
        echo "commit: $(git rev-parse --verify -q HEAD 2>/dev/null || echo "not a git checkout")"
        [ -f "$BUNDLE/MANIFEST" ] && cat "$BUNDLE/MANIFEST"
        echo "glibc: $(ldd --version 2>&1 | head -n 1)"
        echo "--- ldd kladder"
        ldd "$K"
        echo "--- nvidia-smi"
        nvidia-smi 2>&1 | head -n 20
        cat /proc/driver/nvidia/version 2>/dev/null
        echo "--- NVRTC copies"
        ls /usr/local/cuda*/lib*/libnvrtc.so* /usr/local/cuda*/targets/*/lib/libnvrtc.so* 2>/dev/null
    } >"$WORK/env.txt" 2>&1
    printf 'env\t0\t0\tenv.txt\n' >>"$WORK/steps.tsv"
    echo "-- env -> env.txt"
}

do_devices() {
    if has_verb devices; then
        step devices 30 "$WORK/devices.txt" "$K" devices
        step devices-json 30 "$WORK/devices.json" "$K" devices --json
    else
        echo "-- devices: this kladder has no 'devices' verb yet"
        printf 'devices\tmissing\t0\t-\n' >>"$WORK/steps.tsv"
    fi
}

do_compile() {
    local target=sm_90
    [ "$BACKEND" = hip ] && target=${KL_TARGET:-gfx942}
    step compile 120 "$WORK/compile.txt" "$K" compile --backend "$BACKEND" --target "$target" kernels/*.kl
}

do_cases() {
    if ! has_verb run; then
        echo "-- cases: this kladder has no 'run' verb yet"
        printf 'cases\tmissing\t0\t-\n' >>"$WORK/steps.tsv"
        return
    fi
    for c in $(cases); do
        step "case-$c" 150 "$WORK/case-$c.json" "$K" --db "$DB" run --case "$c" --backend "$BACKEND" \
            --timeout "$CHECK_TIMEOUT" --json --no-progress --junit "$WORK/case-$c.junit.xml"
    done
}

do_matrix() {
    if ! has_verb run; then
        echo "-- matrix: this kladder has no 'run' verb yet"
        printf 'matrix\tmissing\t0\t-\n' >>"$WORK/steps.tsv"
        return
    fi
    # every rung each suite declares (kladder run --list: "NAME case ID rungs 1,4 TITLE")
    "$K" run --list | while read -r s _ _ _ rungs _; do
        for r in ${rungs//,/ }; do
            step "rung$r-$s" 120 "$WORK/rung$r-$s.json" "$K" --db "$DB" run --rung "$r" --suite "$s" \
                --variant both --backend "$BACKEND" --timeout "$CHECK_TIMEOUT" --json --no-progress \
                --junit "$WORK/rung$r-$s.junit.xml"
        done
    done
}

do_bench() {
    if [ ! -x "$KB" ]; then
        echo "-- bench: no kbench in the bundle"
        printf 'bench\tmissing\t0\t-\n' >>"$WORK/steps.tsv"
        return
    fi
    step bench 150 "$WORK/kbench.txt" "$KB" --backend "$BACKEND" --json "$WORK/kbench.json"
}

find_python() {
    local p
    for p in ${KL_PYTHON:-} python3 /opt/torch/.venv/bin/python3 /opt/conda/bin/python3 \
             /usr/bin/python3; do
        [ -n "$p" ] || continue
        if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import torch' >/dev/null 2>&1; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

do_peer() {
    local py
    if ! py=$(find_python); then
        echo "-- peer: no python with torch found (set KL_PYTHON)"
        printf 'peer\tmissing\t0\t-\n' >>"$WORK/steps.tsv"
        return
    fi
    step peer 150 "$WORK/peer.txt" "$py" bench/peer_loop.py --json "$WORK/peer.json"
}

# The run's worker: the cost of a check beyond its kernels (this binary and, with KL_OLD=BINARY,
# an older one alternately in the same session), a hang stopped within its limit, a crash and a
# parameter mismatch that cost only their own check, a rung the suite does not declare.
do_worker() {
    local bins=("$K")
    [ -n "${KL_OLD:-}" ] && bins=("$KL_OLD" "$K")
    step overhead 300 "$WORK/overhead.txt" bash bench/run_overhead.sh --backend "$BACKEND" \
        --repeat "${KL_REPEAT:-5}" --out "$WORK/overhead.jsonl" "${bins[@]}"
    local fx=tests/engine/fixtures
    step hang 60 "$WORK/worker-hang.json" "$K" --db "$DB" run --rung 1 --suite $fx/hang.json \
        --backend "$BACKEND" --timeout 2 --json --no-progress
    mkdir -p "$WORK/fx"
    sed 's/"buggy": "copy_hang"/"buggy": "copy_crash"/' $fx/hang.json >"$WORK/fx/crash.json"
    { cat $fx/hang.kl; printf '%s\n' 'KL_KERNEL copy_crash(float *out, const float *in, int n)' '{' \
        '    if (n > 1000)' '        *(volatile float *)(kl_u64)8 = in[0];' '    copy(out, in, n);' '}' \
        'KL_EXPORT(copy_crash)'; } >"$WORK/fx/hang.kl"
    step crash 60 "$WORK/worker-crash.json" "$K" --db "$DB" run --rung 1 --suite "$WORK/fx/crash.json" \
        --backend "$BACKEND" --timeout 10 --json --no-progress
    sed 's/"source": "hang.kl"/"source": "extra.kl"/; s/, "buggy": "copy_hang"//' $fx/hang.json >"$WORK/fx/extra.json"
    printf '%s\n' 'KL_KERNEL copy_fixed(float *out, const float *in, int n, int stride)' \
        '{ for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += stride) out[i] = in[i]; }' \
        'KL_KERNEL copy_ref(float *out, const float *in, int n)' \
        '{ for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += 64) out[i] = in[i]; }' \
        'KL_EXPORT(copy_fixed)' 'KL_EXPORT(copy_ref)' >"$WORK/fx/extra.kl"
    step params 60 "$WORK/worker-params.json" "$K" --db "$DB" run --rung 1 --suite "$WORK/fx/extra.json" \
        --backend "$BACKEND" --timeout 10 --json --no-progress
    step undeclared 30 "$WORK/worker-undeclared.txt" "$K" --db "$DB" run --rung 1 --suite aiter-4812 \
        --backend "$BACKEND" --no-progress
}

# Rung 8: the built-in model, fixed, then with each case's buggy kernel swapped in; then the
# large configuration (2.49 GB of logits past 2^31 bytes, the 4 GiB pool across the wrap),
# fixed and with aiter-6402's and atom-2533's kernels swapped in.
do_model() {
    step model-fixed 120 "$WORK/rung8-model.json" "$K" --db "$DB" run --rung 8 --suite model \
        --backend "$BACKEND" --timeout "$CHECK_TIMEOUT" --json --no-progress
    for c in aiter-6344 flydsl-1199 atom-2533 flydsl-1020 flydsl-1213 aiter-6127; do
        step "model-$c" 120 "$WORK/rung8-case-$c.json" "$K" --db "$DB" run --rung 8 --case "$c" \
            --backend "$BACKEND" --timeout "$CHECK_TIMEOUT" --json --no-progress
    done
    step model-large-fixed 180 "$WORK/rung8-large.json" "$K" --db "$DB" run --rung 8 \
        --suite model-large --backend "$BACKEND" --timeout "$CHECK_TIMEOUT" --json --no-progress
    for c in aiter-6402 atom-2533; do
        step "model-large-$c" 180 "$WORK/rung8-large-$c.json" "$K" --db "$DB" run --rung 8 \
            --suite model-large --case "$c" --backend "$BACKEND" --timeout "$CHECK_TIMEOUT" \
            --json --no-progress
    done
}

# Rung 5 with repeats that prove a rate: aiter-4841's 7 failures in 292,889,600 calls ruled out
# at 95% (KL_RATE, KL_CONFIDENCE), on the fixed RMSNorm, timed as one command.
do_repeat() {
    step repeat-auto "${KL_REPEAT_LIMIT:-240}" "$WORK/repeat-auto.json" "$K" --db "$DB" run --rung 5 \
        --suite aiter-6344 --variant fixed --backend "$BACKEND" --rate "${KL_RATE:-2.39e-8}" \
        --confidence "${KL_CONFIDENCE:-0.95}" --timeout "${KL_REPEAT_LIMIT:-240}" --json --no-progress
}

# The repeat benchmark (bench/RESULTS.md): 1.28e8 repeats of the smallest kernel by one
# `kladder run`, timed by the wall clock (target: 180 s).
do_repeat_bench() {
    step repeat-bench "${KL_BENCH_LIMIT:-300}" "$WORK/repeat-bench.txt" env KLADDER="$K" \
        bash bench/repeat_rate.sh --backend "$BACKEND" --timeout "${KL_BENCH_LIMIT:-300}"
}

steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(env devices compile bench peer worker cases matrix)
for s in "${steps[@]}"; do
    case "$s" in
        env) do_env ;;
        devices) do_devices ;;
        compile) do_compile ;;
        cases) do_cases ;;
        matrix) do_matrix ;;
        bench) do_bench ;;
        peer) do_peer ;;
        worker) do_worker ;;
        model) do_model ;;
        repeat) do_repeat ;;
        repeat-bench) do_repeat_bench ;;
        *) echo "device-run: unknown step '$s'" >&2 ;;
    esac
done

# One summary for people: each step's status, then the verdict of each JSON result.
{
    echo "kladder device run: $(date -u +%Y-%m-%dT%H:%M:%SZ), $((SECONDS - t0))s, backend $BACKEND"
    echo
    column -t -s $'\t' "$WORK/steps.tsv" 2>/dev/null || cat "$WORK/steps.tsv"
    echo
    for f in "$WORK"/case-*.json "$WORK"/rung*.json "$WORK"/repeat-*.json; do
        [ -f "$f" ] || continue
        v=$(grep -o '"verdict"[[:space:]]*:[[:space:]]*"[a-z]*"' "$f" | head -n 1 | sed 's/.*"\([a-z]*\)"$/\1/')
        m=$(grep -o '"expectation_met"[[:space:]]*:[[:space:]]*[a-z]*' "$f" | head -n 1 | sed 's/.*[[:space:]:]//')
        printf '%-32s verdict %-8s expectations met: %s\n' "$(basename "$f" .json)" "${v:-none}" "${m:-?}"
    done
    for f in overhead.txt worker-undeclared.txt worker-undeclared.txt.stderr kbench.txt \
             kbench.txt.stderr peer.txt peer.txt.stderr; do
        [ -f "$WORK/$f" ] && { echo; cat "$WORK/$f"; }
    done
} >"$WORK/summary.txt" 2>&1

# results.json: every case and rung run with its command and exit status, and its --json output
# (or the tail of what it printed when that was not JSON).
py=$(command -v python3 || true)
if [ -n "$py" ]; then
    "$py" - "$WORK" "$BACKEND" >"$WORK/results.json" <<'PY' || echo "device-run: results.json could not be written" >&2
import json, os, sys
work, backend = sys.argv[1], sys.argv[2]
runs = []
for line in open(os.path.join(work, "steps.tsv")):
    f = line.rstrip("\n").split("\t", 4)
    if len(f) < 5 or not (f[0].startswith("case-") or f[0].startswith("rung") or
                          f[0] in ("hang", "crash", "params")):
        continue
    path = os.path.join(work, f[3])
    text = open(path, errors="replace").read() if os.path.isfile(path) else ""
    try:
        result = json.loads(text)
    except ValueError:
        result = None
    errpath = path + ".stderr"
    errtext = open(errpath, errors="replace").read() if os.path.isfile(errpath) else ""
    runs.append({"name": f[0], "command": f[4], "exit": f[1], "seconds": int(f[2]),
                 "result": result, "output_tail": None if result is not None else text[-4000:],
                 "stderr_tail": errtext[-2000:] or None})
json.dump({"format": "kladder-device-run", "backend": backend, "runs": runs}, sys.stdout, indent=1)
PY
fi

for f in summary.txt results.json kbench.json peer.json overhead.jsonl steps.tsv commands.txt; do
    [ -f "$WORK/$f" ] && cp "$WORK/$f" "$OUT/$f"
done
tar -C "$(dirname "$WORK")" -czf "$OUT/device-run.tar.gz" "$(basename "$WORK")" 2>/dev/null
echo "device-run: done in $((SECONDS - t0))s; summary in $OUT/summary.txt"
exit 0
