#!/usr/bin/env bash
# The kernel files of tests/engine/fixtures/asship (written here, with the shapes of public
# benchmark programs) on an NVIDIA GPU, cuda backend (BACKEND names another): each suite's fixed kernel against its
# reference, every rung the suite lists, the file compiled whole by the toolkit's nvcc; then the
# suite's one-line bug (bugs.tsv, applied to a copy by apply_bug.py) the same way. Four suites at
# a time, each with a database of its own.
#   summary.tsv: per suite, the exit status and the checks of the fixed kernel that did not pass,
#   then the exit status and the failed checks of the bugged copy.
# What to expect: as tests/engine/asship_kernels.sh shows on the cpu backend, every fixed kernel
# clean (exit 0, 0 not passed) and every bugged copy caught (exit 1, at least one failed check).
# Run from the repository root on the GPU machine:
#
#   BIN=build/device/kladder OUT=build/device-out bash bench/asship_gpu.sh [SUITE...]
#
# SUITE names rows of bugs.tsv (all of them by default).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-build/kladder}
[ -d "$(dirname "$BIN")/lib" ] && export LD_LIBRARY_PATH="$(dirname "$BIN")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT=${OUT:-build/device-out}
mkdir -p "$OUT/runs"
fx=tests/engine/fixtures/asship
BACKEND=${BACKEND:-cuda}
export BIN OUT fx BACKEND XDG_DATA_HOME=$OUT/data XDG_CACHE_HOME=$OUT/cache
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv >"$OUT/gpu.txt" 2>&1
command -v nvcc >/dev/null && nvcc --version | tail -n 2 >>"$OUT/gpu.txt"

one() { # SUITE -> one line of summary.tsv
    local suite=$1 d=$OUT/runs s=$SECONDS rc brc
    timeout -k 5 240 "$BIN" --db "$d/$suite.db" run --suite "$fx/$suite.json" --backend "$BACKEND" \
        --timeout 60 --json --no-progress >"$d/$suite.json" 2>"$d/$suite.err"
    rc=$?
    python3 "$fx/apply_bug.py" "$suite" "$d/bug-$suite" >/dev/null
    timeout -k 5 240 "$BIN" --db "$d/$suite.db" run --suite "$d/bug-$suite/$suite.json" --backend "$BACKEND" \
        --timeout 60 --json --no-progress >"$d/bug-$suite.json" 2>"$d/bug-$suite.err"
    brc=$?
    python3 - "$suite" $rc "$d/$suite.json" $brc "$d/bug-$suite.json" $((SECONDS - s)) <<'PY'
import json, sys
suite, rc, fixed, brc, bug, secs = sys.argv[1:]
def checks(path):
    try:
        return [c for c in json.load(open(path))["checks"] if c["variant"] in ("fixed", "baseline-fixed")]
    except Exception:
        return []
f, b = checks(fixed), checks(bug)
print("\t".join([suite, rc, str(sum(c["verdict"] != "pass" for c in f)), str(len(f)), brc,
                 str(sum(c["verdict"] == "fail" for c in b)), str(len(b)), secs]))
PY
}
export -f one
printf 'suite\tfixed_exit\tfixed_not_passed\tfixed_checks\tbug_exit\tbug_failed\tbug_checks\tseconds\n' >"$OUT/summary.tsv"
if [ $# -gt 0 ]; then printf '%s\n' "$@"; else grep -v '^#' "$fx/bugs.tsv" | cut -f1; fi |
    xargs -P 4 -I{} bash -c 'one {}' | sort >>"$OUT/summary.tsv"
cat "$OUT/summary.tsv"
