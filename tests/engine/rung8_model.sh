#!/usr/bin/env bash
# Rung 8's built-in model on the cpu backend: the fixed kernels decode the same tokens as the
# reference kernels (score 1.0), and a reproducer's buggy kernel swapped in — one whose plain
# unit test, run beside it, passes — changes the model's tokens, named with the kernel and the
# first wrong step; kernels the small model cannot reach are skipped with the reason, never
# passed. A second seed (other weights, another token sequence) is caught the same way.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
run8() { # args... -> output in $KL_TMP/out.txt, exit status in $rc
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 8 --backend cpu --no-progress "$@" \
        >"$KL_TMP/out.txt" 2>&1
    rc=$?
}
has() { grep -qE -- "$1" "$KL_TMP/out.txt"; }
show() { sed 's/^/# /' "$KL_TMP/out.txt"; }

run8 --suite model
tap_check "model: the fixed model meets its expectation (exit 0)" test "$rc" -eq 0
tap_check "model: it scores 8/8 against the reference kernels, with no non-finite logit" \
    has 'score 8/8 tokens agree with the reference model; max logit error 0; 0 non-finite'
# a greedy output that repeats one token would make every swap look alike
toks=$(sed -n "s/.*the reference's \([0-9 ]*\).*/\1/p" "$KL_TMP/out.txt" | head -1)
tap_check "model: the greedy output is a non-trivial sequence ($toks)" \
    test "$(tr ' ' '\n' <<<"$toks" | sort -u | wc -l)" -ge 4
[ "$rc" -eq 0 ] || show

# aiter-6344: the tail the vectorised RMSNorm never writes.
run8 --case aiter-6344
tap_check "aiter-6344: exit 0 (the buggy kernel is caught)" test "$rc" -eq 0
tap_check "aiter-6344: the tail bug fails the model, naming the kernel and the first wrong step" \
    has "^fail +buggy +r8 model:swap:rmsnorm_tail_buggy .*"
tap_check "aiter-6344: ... with the score" \
    has "score [0-7]/8 tokens agree with the reference model with aiter-6344's rmsnorm_tail_buggy \(RMSNorm\) swapped in; first wrong token at step [0-7]: "
tap_check "aiter-6344: the race is reported unreachable at this size, with the reason" \
    has "^skip +buggy +r8 model:swap:rmsnorm_race_buggy .*" 
tap_check "aiter-6344: ... the reason" has 'the race needs rows over 64 x wave-size elements'
[ "$rc" -eq 0 ] || show

# flydsl-1199: the K loop drops the remainder tile (width 100, tile 64).
run8 --case flydsl-1199
tap_check "flydsl-1199: exit 0" test "$rc" -eq 0
tap_check "flydsl-1199: the K-tail GEMM fails the model, named" \
    has "with flydsl-1199's ktail_gemm_buggy \(GEMM\) swapped in; first wrong token at step"
[ "$rc" -eq 0 ] || show

# A second seed: other weights and another sequence, caught the same way.
run8 --case flydsl-1199 --seed 7
toks7=$(sed -n "s/.*the reference's \([0-9 ]*\).*/\1/p" "$KL_TMP/out.txt" | head -1)
tap_check "seed 7: another reference sequence ($toks7)" test -n "$toks7" -a "$toks7" != "$toks"
tap_check "seed 7: the fixed model still scores 8/8" has '^pass +fixed +r8 model:fixed '
tap_check "seed 7: the K-tail GEMM still fails it" has '^fail +buggy +r8 model:swap:ktail_gemm_buggy '
run8 --case aiter-6344 --seed 7
tap_check "seed 7: the RMSNorm tail still fails it" has '^fail +buggy +r8 model:swap:rmsnorm_tail_buggy '

# atom-2533: the request's cache rows sit at the end of a 4 GiB pool, across the int32 row
# wrap; the buggy gather reads zeros from row 3,728,270 on (the sequence's third token, step
# 2), and the greedy token first changes the step after.
run8 --case atom-2533
tap_check "atom-2533: exit 0 (the wrapping gather is caught)" test "$rc" -eq 0
tap_check "atom-2533: the gather's wrap fails the model once its row wraps" \
    has "with atom-2533's kv_gather_buggy \(KV-cache gather\) swapped in; first wrong token at step 3: "
tap_check "atom-2533: its unit test passes the buggy gather beside it" has '^pass +baseline-buggy +r8 unit-test-'
[ "$rc" -eq 0 ] || show
# recorded as columns: the fixed model scores 1 with no diverging step, the swapped-in gather
# 5 of 8 diverging at step 3
run_id=$(sed -n 's/^kladder run \([0-9a-f-]*\):.*/\1/p' "$KL_TMP/out.txt")
"$KLADDER" --db "$KL_TMP/k.db" results "$run_id" --json | tr -d ' \t\n' >"$KL_TMP/res.json"
tap_check "atom-2533: the fixed model's score is recorded" \
    grep -q '"check":"model:fixed"[^}]*}[^}]*"score":{"value":1,"baseline":1,"samples":8,"diverge_step":null}' "$KL_TMP/res.json"
tap_check "atom-2533: the swapped-in gather's score and diverging step are recorded" \
    grep -q '"check":"model:swap:kv_gather_buggy"[^}]*}[^}]*"score":{"value":0.625,"baseline":1,"samples":8,"diverge_step":3}' "$KL_TMP/res.json"

# A kernel the small model cannot reach: skipped with the reason, the run inconclusive, never
# passed.
run8 --case flydsl-1020
tap_check "flydsl-1020: unreachable here, with the measured reason" \
    has 'not reached by the small model: 8 cached positions can lose at most 8 x 2\^-9'

# flydsl-1213: the router's scores sit on sigmoid's flat shoulder, within a few dozen ulps of
# each other, where the buggy top-k's packed id decides: other experts are picked, and the
# model's tokens change while the routing unit test passes the same kernel.
run8 --case flydsl-1213
tap_check "flydsl-1213: exit 0 (the packed-id routing is caught)" test "$rc" -eq 0
tap_check "flydsl-1213: the buggy router fails the model, naming the role" \
    has "with flydsl-1213's route_buggy \(MoE routing\) swapped in; first wrong token at step "
tap_check "flydsl-1213: its unit test passes the buggy router beside it" \
    has '^pass +baseline-buggy +r8 unit-test-'
# not one lucky set of weights: another seed's router near-ties are caught as well
run8 --case flydsl-1213 --seed 7
tap_check "flydsl-1213 --seed 7: caught too" \
    sh -c "[ $rc -eq 0 ] && grep -q \"route_buggy (MoE routing) swapped in; first wrong token at step\" '$KL_TMP/out.txt'"
# aiter-6127's capacity race needs a batch that overflows an expert: one token a step never does
run8 --case aiter-6127
tap_check "aiter-6127: unreachable, with the reason, exit 1" \
    sh -c "[ $rc -eq 1 ] && grep -q 'moe_route_buggy (aiter-6127) is not reached by the small model: the model routes one token a step' '$KL_TMP/out.txt'"
# a kernel the model cannot reach still gets its unit test (the half of the lesson that runs
# everywhere: flydsl-1020 and aiter-6127 alike), and the skip says where the large model stands
tap_check "aiter-6127: its unit test runs and passes beside the unreachable swap" \
    has '^pass +baseline-buggy +r8 unit-test-'
tap_check "aiter-6127: the skip says plainly the large model does not reach it either" \
    has 'The large model \(--suite model-large\) does not reach it either\.'

# aiter-6402's 32-bit output offsets need 2^31 bytes of logits: not the small model's one row,
# which the large configuration's head is for.
run8 --case aiter-6402
tap_check "aiter-6402: exit 1 (inconclusive), not passed" test "$rc" -eq 1
tap_check "aiter-6402: unreachable by the small model, naming the large configuration" \
    has 'gemm_store_buggy \(aiter-6402\) is not reached by the small model: .*--suite model-large'
tap_check "aiter-6402: ... and says the large model on a GPU reaches it" \
    has 'gemm_store_buggy .*The large model reaches it: --rung 8 --suite model-large, on a GPU\.'

# The large configuration (--suite model-large) is a GPU's: on the cpu backend every check is
# skipped with the reason and the sizes it would need, and the run proves nothing (exit 1).
run8 --suite model-large
tap_check "model-large on cpu: exit 1, not passed" test "$rc" -eq 1
tap_check "model-large on cpu: skipped, saying why" \
    has '^skip +fixed +r8 model:fixed +V=151936,D=100,F=200,T=8,B=8192'
tap_check "model-large on cpu: ... why, with the sizes a GPU needs" \
    has 'not reached on the cpu backend: .*logits 8192 x 151936 bf16 = 2.49 GB .*KV pool 3728276 rows x 576 bf16 = 4.29 GB.*6.85 GB of device memory in all'
run8 --suite model-large --case aiter-6402
tap_check "model-large --case aiter-6402 on cpu: the swap is planned, beside its unit test" \
    sh -c "grep -qE '^skip +buggy +r8 model:swap:gemm_store_buggy' '$KL_TMP/out.txt' && grep -qE '^pass +baseline-buggy +r8 unit-test-' '$KL_TMP/out.txt'"
tap_check "model-large --case aiter-6402: the padding wrap says the large model misses it too" \
    has 'gemm_store_pad_buggy \(aiter-6402\) is not reached by the large model: .*14,081\.\.14,134'
# a run that could test nothing is neither pass nor fail: inconclusive, stored as skip, and it
# never says the bug is "caught by no rung" when no check of it ran
tap_check "model-large --case aiter-6402 on cpu: exit 1, INCONCLUSIVE, not EXPECTATION NOT MET" \
    sh -c "test $rc -eq 1 && grep -q '^INCONCLUSIVE' '$KL_TMP/out.txt' && ! grep -q 'EXPECTATION NOT MET' '$KL_TMP/out.txt'"
tap_check "model-large --case aiter-6402 on cpu: its suites' bugs are not said to be caught by no rung" \
    sh -c "grep -q '^aiter-6402: no rung.s check of the bug ran here' '$KL_TMP/out.txt' && ! grep -q 'caught by no rung' '$KL_TMP/out.txt'"
tap_check "model-large --case aiter-6402 on cpu: recorded as skip, not fail" \
    sh -c "'$KLADDER' --db '$KL_TMP/k.db' results --json | python3 -c 'import json,sys; r=json.load(sys.stdin); sys.exit(r[0][\"verdict\"] != \"skip\")'"

# The plain unit test of the same buggy kernel runs beside the model and passes it: that
# contrast is the lesson.
run8 --case flydsl-1199
tap_check "flydsl-1199: the unit test beside the model passes the buggy GEMM" \
    has '^pass +baseline-buggy +r8 unit-test-'
tap_check "flydsl-1199: ... before the model fails it" \
    sh -c "grep -nE '^(pass +baseline-buggy|fail +buggy +r8 model:swap)' '$KL_TMP/out.txt' | head -1 | grep -q baseline-buggy"
run8 --case aiter-6344
tap_check "aiter-6344: the unit tests of the tail suite pass the buggy RMSNorm" \
    test "$(grep -cE '^pass +baseline-buggy +r8 unit-test-' "$KL_TMP/out.txt")" -ge 1
tap_check "aiter-6344: no unit test is planned for the unreachable race" \
    test "$(grep -cE '^[a-z]+ +baseline' "$KL_TMP/out.txt")" -eq "$(grep -cE '^pass +baseline-buggy +r8 unit-test-' "$KL_TMP/out.txt")"

# Recorded: results lists the model runs under rung 8.
"$KLADDER" --db "$KL_TMP/k.db" results --rung 8 >"$KL_TMP/res.txt" 2>&1
tap_check "results: the model runs are recorded under rung 8, suite model" \
    grep -qE '^[0-9a-f]{8} .* 8 +model ' "$KL_TMP/res.txt"

# A case the model does not use is a usage error naming the cases it does.
out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 8 --case flydsl-1088 --backend cpu 2>&1)
rc=$?
tap_check "a case without a kernel in the model: exit 2, naming the ones it has" \
    sh -c "[ $rc -eq 2 ] && grep -qF 'the built-in model uses no kernel of case flydsl-1088 (it uses those of aiter-6344, flydsl-1199, flydsl-1020, atom-2533, aiter-6402, flydsl-1213, aiter-6127)' <<'EOF2'
$out
EOF2"
