#!/usr/bin/env bash
# Why a failure was judged against the reference alone (no wide build of it to weigh the kernel
# against) is said once per run, in words a user can act on, never in every check's finding:
# a plain HIP suite whose reference declares no kl_acc accumulators gets one summary line naming
# the reference and kl_acc, and its JSON one "no_arbiter" entry; the same suite with its
# reference's accumulator declared kl_acc, and a suite of ours that declares it, get none.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/k.db
pl=tests/engine/fixtures/plain
dir=$KL_TMP/mine
mkdir -p "$dir"
cp $pl/block_sumsq.hip "$dir/"
# a round default length: only rung 2's chunked lengths reach the dropped tail, on five checks
sed 's/"params": {"n": 1000}/"params": {"n": 1024}/' $pl/block-sumsq.json >"$dir/round.json"
run() { # suite out [args]
    local s=$1 o=$2
    shift 2
    "$KLADDER" --db "$db" run --rung 2 --suite "$s" --backend cpu --no-progress --timeout 60 "$@" \
        >"$o" 2>&1
}

run "$dir/round.json" "$KL_TMP/plain.txt"
rc=$?
sed 's/^/# /' "$KL_TMP/plain.txt" | grep -vE '^# pass '
tap_check "plain float reference: the run ends as before (exit $rc)" test $rc -eq 0
tap_check "some checks fail against the reference" \
    grep -qE '^ +out: 1 of 1 elements differ from the reference beyond the bound .*: kernel error [0-9.e+-]+ against the reference, bound [0-9.e+-]+$' "$KL_TMP/plain.txt"
tap_check "no finding names the arbiter or kl_acc" \
    bash -c "! grep -E '^ +' '$KL_TMP/plain.txt' | grep -qiE 'arbiter|kl_acc'"
tap_check "one summary line says why, naming the reference and what to declare" \
    test "$(grep -cE '^judged against the reference alone \([0-9]+ checks\): nothing wider told the kernel.s error from the reference.s own rounding, because the reference block_sumsq_ref declares no kl_acc accumulators, so kladder has no wider build of it to ask; declare them with the type kl_acc' "$KL_TMP/plain.txt")" -eq 1
nfail=$(grep -cE '^ +out: .* against the reference, bound ' "$KL_TMP/plain.txt")
tap_check "and counts the checks it concerns ($nfail failures)" \
    grep -qE "^judged against the reference alone \\($nfail checks\\)" "$KL_TMP/plain.txt"
run "$dir/round.json" "$KL_TMP/plain.json" --json
tap_check "--json: one no_arbiter entry with the same count, and each failing check carries it" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
na = d.get("no_arbiter", [])
fails = [c for c in d["checks"] if c["verdict"] == "fail"]
ok = (len(na) == 1 and na[0]["checks"] == int(sys.argv[2]) and "block_sumsq_ref" in na[0]["why"]
      and "kl_acc" in na[0]["why"] and all("arbiter" not in c["detail"] for c in d["checks"]))
sys.exit(not ok)' "$KL_TMP/plain.json" "$nfail"

# The same reference with its accumulator declared kl_acc: the arbiter settles each failure
# (the dropped tail is far past any rounding), the bug is still caught, and no line is said.
python3 - "$dir/block_sumsq.hip" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
head, ref = s.split('extern "C" __global__ void block_sumsq_ref', 1)
open(p, "w").write(head + 'extern "C" __global__ void block_sumsq_ref' + ref.replace("float acc", "kl_acc acc"))
PY
run "$dir/round.json" "$KL_TMP/acc.txt"
rc=$?
sed 's/^/# /' "$KL_TMP/acc.txt" | grep -vE '^# pass '
tap_check "kl_acc reference: exit 0 ($rc)" test $rc -eq 0
tap_check "the buggy variant still caught, now against the arbiter" \
    grep -qE '^ +out: 1 of 1 elements differ from the reference beyond the bound .*: against the arbiter: kernel error ' "$KL_TMP/acc.txt"
tap_check "and no 'judged against the reference alone' line" \
    bash -c "! grep -q 'judged against the reference alone' '$KL_TMP/acc.txt'"

# A suite of ours whose reference declares kl_acc: none either.
run tests/engine/fixtures/oracles/softmax-nomax.json "$KL_TMP/nm.txt"
tap_check "softmax-nomax (reference with kl_acc): no such line" \
    bash -c "grep -q 'against the arbiter' '$KL_TMP/nm.txt' && ! grep -q 'judged against the reference alone' '$KL_TMP/nm.txt'"

# A built-in reproducer is kladder's own, not the user's to edit: its line says why, naming
# the reference, without asking the user to declare anything in it.
run aiter-5801 "$KL_TMP/builtin.txt"
sed 's/^/# /' "$KL_TMP/builtin.txt" | grep 'judged against'
tap_check "a built-in suite: the line names its reference as built-in" \
    grep -qE '^judged against the reference alone \([0-9]+ checks\): .* because the built-in reference ggemm_ref declares no kl_acc accumulators, so kladder has no wider build of it to ask$' "$KL_TMP/builtin.txt"
tap_check "a built-in suite: no advice to declare kl_acc in a source the user does not edit" \
    bash -c "! grep -q 'declare them with the type kl_acc' '$KL_TMP/builtin.txt'"
