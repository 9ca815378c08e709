#!/usr/bin/env bash
# kl-test: slow
# Public kernel files exactly as they ship (docs/kernels.md): twelve CUDA sources of llm.c's
# dev/cuda (MIT; tests/engine/fixtures/shipped/llm.c/README.md says where each came from), whole
# translation units with their host code (main, cudaMalloc, cuBLAS and cuBLASLt handles, timers,
# <<<...>>> launches, std:: helpers, host launchers overloading a kernel's name) and their shared
# common.h, unchanged. Each suite beside them (tests/engine/fixtures/shipped/*.json) names one of
# the file's optimised kernels as the fixed variant and the file's own naive kernel as the
# reference; on the cpu backend
#   - every file is accepted and compiled whole;
#   - every check of the fixed variant passes (rungs 1 and 2, and 5 where the kernel shares
#     memory or reduces across threads);
#   - a one-line bug (bugs.tsv: an off-by-one, a wrong index, a wrong formula, an overwrite of an
#     accumulator, a barrier removed) applied to a copy of the file is caught: some check of the
#     bugged kernel fails.
# Rung 2 runs the value classes inside an optimiser's and a normaliser's domain (not const-rows,
# near-ties, large-mean, max-finite, nan-inf, peaked: there two correct formulations of a
# layernorm or an AdamW step differ by more than an elementwise bound, which is a contract's
# question, not a bug's).
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/shipped

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
tap_check "at least twelve public files ($n)" test "$n" -ge 12
echo "1..$_tap_n"
