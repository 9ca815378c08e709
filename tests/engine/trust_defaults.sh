#!/usr/bin/env bash
# Rung 2's default contract ("2": {}, no contract key on any output) never fails a correct
# kernel and still catches the bug classes (docs/engine.md, "Contracts, bounds and doubt"):
# four pairs of correct kernels written apart from each other, each against a plain float
# reference with no wide accumulator (no arbiter to clear anything): a column variance and
# normalization (two-pass; Welford partials merged by Chan's rule), an L2 norm (a block tree;
# LAPACK's scaled sum), a top-k (NaN never picked; NaN picked first, as torch.topk), a chunked
# attention (online; two passes). Each kind also has a seeded bug the defaults still catch. A
# shared failure of both variants is in doubt wherever each fails first; an infinite bound is
# never quoted as one to be beyond.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
f=tests/engine/fixtures/trust
run() { # suite out-file [extra args]
    local s=$1 o=$2
    shift 2
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 2 --suite "$s" --backend cpu --no-progress \
        --timeout 60 "$@" >"$o" 2>&1
}
# verdicts FILE VARIANT: the verdicts of one variant's checks, one a line, as "verdict check"
verdicts() {
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for c in d["checks"]:
    if c["variant"] == sys.argv[2]:
        print(c["verdict"], c["check"], c["detail"][:300])' "$1" "$2"
}

for p in colnorm l2 topk attn; do
    run $f/$p-pair.json "$KL_TMP/$p-pair.json" --json
    rc=$?
    tap_check "$p: two correct kernels pass every check of \"2\": {} (exit 0)" test $rc -eq 0
    for v in fixed buggy; do
        verdicts "$KL_TMP/$p-pair.json" $v >"$KL_TMP/$p-$v.txt"
        grep -v '^pass ' "$KL_TMP/$p-$v.txt" | sed 's/^/# /' | head -4
        tap_check "$p: the $v side's correct kernel: every check passes, none in doubt" \
            test -s "$KL_TMP/$p-$v.txt" -a "$(grep -vc '^pass ' "$KL_TMP/$p-$v.txt")" = 0
    done
    run $f/$p-bug.json "$KL_TMP/$p-bug.json" --json
    rc=$?
    verdicts "$KL_TMP/$p-bug.json" buggy >"$KL_TMP/$p-bug.txt"
    # a buggy check in doubt (the L2 norm's max-finite rows, past its domain) leaves the run in
    # doubt (exit 3) though the bug is caught: no run holding a doubt says it met everything
    tap_check "$p: the seeded bug is caught under the default contract (exit 0, or 3 with a doubt; got $rc)" \
        sh -c "test $rc -eq 0 -o \( $rc -eq 3 -a \$(grep -c '^doubt ' '$KL_TMP/$p-bug.txt') -gt 0 \)"
    tap_check "$p: ... as fail by a value class, not only by the plain unit test" \
        grep -qE '^fail [a-z-]+-' "$KL_TMP/$p-bug.txt"
    verdicts "$KL_TMP/$p-bug.json" fixed >"$KL_TMP/$p-bugfixed.txt"
    tap_check "$p: ... while its correct kernel passes every check" \
        test "$(grep -vc '^pass ' "$KL_TMP/$p-bugfixed.txt")" = 0
done

# Which class catches which bug: the one the class is about.
tap_check "one-pass E[x^2] - E[x]^2 column variance: caught by large-mean" \
    grep -q '^fail large-mean-' "$KL_TMP/colnorm-bug.txt"
tap_check "top-k with ties to the highest index: caught by ties" \
    grep -q '^fail ties-' "$KL_TMP/topk-bug.txt"
tap_check "L2 norm summed in bf16: caught by const-rows" \
    grep -q '^fail const-rows-' "$KL_TMP/l2-bug.txt"

# A declared column normalization ("reduce": "R" over ["R", "N"]) gets the cancellation term
# along its rows: the correct pair passes identical-rows and large-mean against the plain
# reference, and the one-pass variance is still caught by large-mean.
for s in pair bug; do
    python3 - $f/colnorm-$s.json "$KL_TMP/colnorm-declared-$s.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["source"] = "colnorm.kl"
m["buffers"][1].update({"reduce": "R", "kind": "sum"})
m["buffers"][2].update({"reduce": "R", "kind": "normalized"})
json.dump(m, open(sys.argv[2], "w"))
PY
done
cp $f/colnorm.kl "$KL_TMP/"
run "$KL_TMP/colnorm-declared-pair.json" "$KL_TMP/cd-pair.txt"
rc=$?
grep -E '^(fail|doubt)' -A1 "$KL_TMP/cd-pair.txt" | sed 's/^/# /' | head -4
tap_check "declared column normalization: the correct pair passes (exit 0)" test $rc -eq 0
run "$KL_TMP/colnorm-declared-bug.json" "$KL_TMP/cd-bug.json" --json
rc=$?
verdicts "$KL_TMP/cd-bug.json" buggy >"$KL_TMP/cd-bug.txt"
tap_check "declared column normalization: the one-pass variance is caught by large-mean" \
    grep -q '^fail large-mean-' "$KL_TMP/cd-bug.txt"

# No finding quotes an infinite bound as one the kernel is beyond: where the reference is
# NaN/Inf the finding names both values instead.
cat "$KL_TMP"/*-bug.json "$KL_TMP"/*-pair.json >"$KL_TMP/all.json"
tap_check "no finding says 'bound inf'" sh -c "! grep -q 'bound inf' '$KL_TMP/all.json'"

# Doubt on a shared failure wherever each variant fails first: a reference that is wrong on
# row 2 only, a correct kernel (fails first at row 2) and a kernel wrong on row 0 (fails first
# at row 0): the check is in doubt for both, never a catch nor a false alarm.
cp $f/l2.kl "$KL_TMP/l2.kl"
cat >>"$KL_TMP/l2.kl" <<'EOF'
KL_KERNEL l2n_ref_row2(float *O, const float *X, int R, int N)
{
    if (threadIdx.x)
        return;
    float s = 0.0f;
    for (int k = 0; k < N; k++)
        s += X[(kl_size)blockIdx.x * N + k] * X[(kl_size)blockIdx.x * N + k];
    O[blockIdx.x] = sqrtf(s) + (blockIdx.x == 2 ? 1.0f : 0.0f);
}
KL_KERNEL l2n_seq_row0(float *O, const float *X, int R, int N)
{
    if (threadIdx.x)
        return;
    float s = 0.0f;
    for (int k = N - 1; k >= 0; k--)
        s += X[(kl_size)blockIdx.x * N + k] * X[(kl_size)blockIdx.x * N + k];
    O[blockIdx.x] = sqrtf(s) + (blockIdx.x == 0 ? 1.0f : 0.0f);
}
KL_EXPORT(l2n_ref_row2)
KL_EXPORT(l2n_seq_row0)
EOF
python3 - $f/l2-bug.json "$KL_TMP/l2-shared.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m.update({"name": "trust-l2-shared", "source": "l2.kl", "reference": "l2n_ref_row2",
          "variants": {"fixed": "l2n_tree", "buggy": "l2n_seq_row0"}})
json.dump(m, open(sys.argv[2], "w"))
PY
run "$KL_TMP/l2-shared.json" "$KL_TMP/shared.json" --json
verdicts "$KL_TMP/shared.json" fixed >"$KL_TMP/shared-fixed.txt"
verdicts "$KL_TMP/shared.json" buggy >"$KL_TMP/shared-buggy.txt"
head -2 "$KL_TMP/shared-fixed.txt" | sed 's/^/# /'
tap_check "shared failure, different first elements: the fixed variant is in doubt, not failed" \
    sh -c "grep -q '^doubt zero-rows-R8-N4096 in doubt: the fixed and the buggy variant fail this check the same way (oracle reference' '$KL_TMP/shared-fixed.txt' && ! grep -q '^fail ' '$KL_TMP/shared-fixed.txt'"
tap_check "shared failure: the buggy variant is in doubt too, never a catch" \
    sh -c "grep -q '^doubt zero-rows-' '$KL_TMP/shared-buggy.txt' && ! grep -q '^fail ' '$KL_TMP/shared-buggy.txt'"
echo "1..$_tap_n"
