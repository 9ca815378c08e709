#!/usr/bin/env bash
# Kernel files as they ship (docs/kernels.md), written here with the shapes of public benchmark
# programs (tests/engine/fixtures/asship/README.md): whole translation units with their host code
# (main, cudaMalloc, a cuBLAS handle, timers, <<<...>>> launches, std:: helpers, host launchers
# overloading a kernel's name, a function another file defines, launchers naming their own
# `dim3 gridDim, blockDim`, explicit template instances) and a common header (kit.cuh) included
# by all of them, plus a HIP program with its helper header. Each suite beside them names one of
# the file's tuned kernels as the fixed variant and the file's plain kernel as the reference; on
# the cpu backend
#   - every file is accepted and compiled whole;
#   - every check of the fixed variant passes (rungs 1 and 2, and 5 where the kernel shares
#     memory or reduces across threads);
#   - a one-line bug (bugs.tsv: an off-by-one, a wrong index, a wrong formula, an overwrite of an
#     accumulator, a barrier removed from the common header) applied to a copy of the file is
#     caught: some check of the bugged kernel fails.
# Rung 2 runs the value classes inside an optimiser's and a normaliser's domain (not const-rows,
# near-ties, large-mean, max-finite, nan-inf, peaked: there two correct formulations of a
# layernorm or an AdamW step differ by more than an elementwise bound, which is a contract's
# question, not a bug's).
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/asship

# The sanitizer pass watches our own code (the source walk over whole files, the host shims'
# compile, the launchers), which rung 1 of the fixed variants exercises as fully as all of them.
only=()
[ "${KL_SAN:-0}" = 1 ] && only=(--rung 1)

verdicts() { # JSON -> "passed failed" counts of the variant "fixed" (and the baseline)
    python3 - "$1" <<'EOF'
import json, sys
checks = json.load(open(sys.argv[1]))["checks"]
mine = [c for c in checks if c["variant"] in ("fixed", "baseline-fixed")]
bad = [c for c in mine if c["verdict"] != "pass"]
for c in bad[:3]:
    print("# %s r%d %s: %s" % (c["verdict"], c["rung"], c["check"], c["detail"][:300]), file=sys.stderr)
print(len(mine) - len(bad), len(bad))
EOF
}

n=0
while IFS=$'\t' read -r suite file line text becomes why; do
    case $suite in '#'*|'') continue ;; esac
    n=$((n + 1))
    "$KLADDER" --db "$KL_TMP/k.db" run --suite "$fx/$suite.json" "${only[@]}" --backend cpu \
        --no-progress --json --timeout 120 >"$KL_TMP/$suite.json" 2>"$KL_TMP/$suite.err"
    rc=$?
    sed 's/^/# /' "$KL_TMP/$suite.err"
    read -r passed failed < <(verdicts "$KL_TMP/$suite.json" 2>"$KL_TMP/why")
    sed 's/^/# /' "$KL_TMP/why"
    src=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["source"])' "$fx/$suite.json")
    tap_check "$suite ($src): accepted whole, the fixed variant passes all $passed checks (exit $rc)" \
        test "$rc" -eq 0 -a "${failed:-1}" -eq 0 -a "${passed:-0}" -gt 0
    [ "${KL_SAN:-0}" = 1 ] && continue

    # the bug, on a copy: exactly one line changes
    bug=$KL_TMP/bug-$suite
    python3 "$fx/apply_bug.py" "$suite" "$bug" >/dev/null
    tap_check "$suite: the bug is one changed line of $file ($why)" \
        test "$(diff "$fx/$file" "$bug/$file" | grep -c '^[<>]')" -eq 2
    "$KLADDER" --db "$KL_TMP/k.db" run --suite "$bug/$suite.json" --backend cpu --no-progress \
        --json --timeout 120 >"$KL_TMP/$suite-bug.json" 2>"$KL_TMP/$suite-bug.err"
    rc=$?
    read -r passed failed < <(verdicts "$KL_TMP/$suite-bug.json" 2>/dev/null)
    tap_check "$suite: the bugged kernel is caught ($failed failed checks, exit $rc)" \
        test "$rc" -eq 1 -a "${failed:-0}" -gt 0
done <"$fx/bugs.tsv"
tap_check "every suite of bugs.tsv ran: fifteen suites over thirteen files of two languages ($n)" test "$n" -ge 15

# ---- setup errors: told once, exit 2, nothing recorded ------------------------------------------
mine=$KL_TMP/mine
mkdir -p "$mine"
cp -r "$fx/cuda" "$mine/"
edit() { # NAME PYTHON-STATEMENT: residual.json edited into $mine/NAME.json
    python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(s, open(sys.argv[2], "w"))' "$fx/residual.json" "$mine/$1.json" "$2"
}
setup_error() { # NAME -> exit status in $rc, stderr in $KL_TMP/err, checks recorded in $recorded
    "$KLADDER" --db "$KL_TMP/$1.db" run --suite "$mine/$1.json" --rung 1 --backend cpu \
        --no-progress >"$KL_TMP/out" 2>"$KL_TMP/err"
    rc=$?
    sed 's/^/# /' "$KL_TMP/err"
    recorded=$(python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("select count(*) from checks").fetchone()[0])' \
        "$KL_TMP/$1.db" 2>/dev/null || echo 0)
}
edit hostfn 's["variants"]["fixed"] = "residual_add_host"'
setup_error hostfn
tap_check "an entry point that is a host function of the file: exit 2 ($rc), nothing recorded ($recorded)" \
    test "$rc" -eq 2 -a "$recorded" -eq 0
tap_check "says it is no kernel, naming the field and the file" \
    grep -qF 'hostfn.json: variants.fixed: "residual_add_host" in cuda/residual.cu is no kernel (no __global__ function of that name)' "$KL_TMP/err"
tap_check "and not that the file does not compile" bash -c "! grep -q 'does not compile' '$KL_TMP/err'"
edit fewargs 's["args"] = s["args"][:3]'
setup_error fewargs
tap_check "too few args for the kernel: exit 2 ($rc), nothing recorded ($recorded)" \
    test "$rc" -eq 2 -a "$recorded" -eq 0
tap_check "naming the kernel and both counts" \
    grep -qF "fewargs.json: kernel residual_add_vec takes 4 arguments, the manifest's \"args\" gives 3" "$KL_TMP/err"
# A reference whose signature is not the variant's: matmul.json gives matmul_per_output its own
# "reference_args" (it takes BT; the tiled matmul_tiled does not).
# Wrong there, the count is told against that list by name.
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
s["reference_args"] = s["reference_args"][:5]
json.dump(s, open(sys.argv[2], "w"))' "$fx/matmul.json" "$mine/refargs.json"
setup_error refargs
tap_check "too few reference_args for the reference: exit 2 ($rc), nothing recorded ($recorded)" \
    test "$rc" -eq 2 -a "$recorded" -eq 0
tap_check "naming the reference kernel, the list and both counts" \
    grep -qF "refargs.json: kernel matmul_per_output takes 7 arguments, the manifest's \"reference_args\" gives 5" "$KL_TMP/err"
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
s["reference_args"][4] = "BT2"
json.dump(s, open(sys.argv[2], "w"))' "$fx/matmul.json" "$mine/refname.json"
setup_error refname
tap_check "an unknown name in reference_args: exit 2, the field and index named" \
    sh -c "test $rc -eq 2 && grep -qF 'reference_args[4]' '$KL_TMP/err' && grep -qF 'BT2' '$KL_TMP/err'"

# ---- a race report in the source's own words, whole -------------------------------------------
# softmax_rows_block of softmax.cu (not a suite's kernel): lane 0 of each warp writes its partial
# sum into partial[warp] while other threads may still read the row maximum broadcast from
# partial[0]; no barrier between them. The pct schedule of rung 5 finds it; the report names the
# kernel as the source does (not its mangled symbol), both lines, and ends its sentence.
if [ "${KL_SAN:-0}" != 1 ]; then
    edit kernel4 's["variants"]["fixed"] = "softmax_rows_block"; s["source"] = "cuda/softmax.cu"; s["params"] = {"N": 16, "C": 200}; s["buffers"] = [{"name": "out", "dtype": "f32", "shape": ["N", "C"], "role": "output"}, {"name": "inp", "dtype": "f32", "shape": ["N", "C"], "role": "input"}]; s["args"] = ["out", "inp", "N", "C"]; s["reference"] = "softmax_rows_naive"; s["launch"] = {"block": [128, 1, 1], "grid": ["N", 1, 1], "shared_bytes": 16}; s["reference_launch"] = {"block": [32, 1, 1], "grid": ["ceil(N, 32)", 1, 1]}; s["tolerance"] = {"abs": 1e-5, "rel": 1e-4}; s["baseline"] = [{"N": 16, "C": 200}]; s["rungs"] = {"5": {"repeats": 1}}'
    "$KLADDER" --db "$KL_TMP/k.db" run --suite "$mine/kernel4.json" --backend cpu --no-progress \
        >"$KL_TMP/kernel4.txt" 2>&1
    grep -m1 'data race' "$KL_TMP/kernel4.txt" | sed 's/^/# /'
    wline=$(grep -n 'partial\[warp\] = total;' "$fx/cuda/softmax.cu" | cut -d: -f1)
    rline=$(grep -n 'const float row_top = partial\[0\];' "$fx/cuda/softmax.cu" | cut -d: -f1)
    tap_check "softmax_rows_block races on its shared broadcast: named as the source spells it, at lines $wline and $rline" \
        grep -qE "data race on __shared__ memory .*: write by block [0-9]+ thread [0-9]+ at softmax_rows_block\+0x[0-9a-f]+ \(softmax.cu:$wline\), then read by block [0-9]+ thread [0-9]+ at softmax_rows_block\+0x[0-9a-f]+ \(softmax.cu:$rline\), with no barrier, fence or atomic ordering them \([0-9]+ conflicting accesses in this launch\)" "$KL_TMP/kernel4.txt"
    tap_check "the barrier removed from kit.cuh's block sum: a race in a device function of the common header, told whole" \
        grep -qE 'data race on __shared__ memory .* at (a device function|[A-Za-z_][^ ]*\+0x[0-9a-f]+) \(kit.cuh:[0-9]+\), then .* at (a device function|[A-Za-z_][^ ]*\+0x[0-9a-f]+) \(kit.cuh:[0-9]+\), with no barrier, fence or atomic ordering them \([0-9]+ conflicting accesses in this launch\)' "$KL_TMP/global-norm-bug.json"
fi
echo "1..$_tap_n"
