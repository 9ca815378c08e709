#!/usr/bin/env bash
# A kernel that never returns becomes `hang` once its limit passes (on a crowded machine at most
# eight times later, plus two seconds), the limit is recorded, and the run goes on with the next
# check. A fixed variant that hangs fails the run; a buggy variant that crashes its worker is
# caught.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures
limit=2
start=$(date +%s.%N)
"$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite $fx/hang.json --backend cpu --timeout $limit \
    --no-progress --json --events 3 >"$KL_TMP/out.json" 2>"$KL_TMP/err.txt" 3>"$KL_TMP/events.jsonl"
rc=$?
end=$(date +%s.%N)
tap_check "a buggy variant that hangs is caught: exit 0" test $rc -eq 0
sed 's/^/# /' "$KL_TMP/err.txt"
# One line per check-done event: verdict, variant, check name, elapsed_s, limit_s.
grep '"check-done"' "$KL_TMP/events.jsonl" |
    sed -E 's/.*"variant":"([^"]*)","check":"([^"]*)".*"verdict":"([^"]*)".*"limit_s":([0-9.]+),"elapsed_s":([0-9.]+).*/\3 \1 \2 \4 \5/' \
    >"$KL_TMP/done.txt"
sed 's/^/# /' "$KL_TMP/done.txt"
hang_line=$(grep ' buggy big ' "$KL_TMP/done.txt")
tap_check "the hanging check's verdict is hang" test "${hang_line%% *}" = hang
el=$(echo "$hang_line" | awk '{print $5}')
lim=$(echo "$hang_line" | awk '{print $4}')
# The limit is kept on the load-aware clock (engine/watchdog/fair_clock.h): on a machine crowded by others
# it stretches, at most ENG_FAIR_MAX_STRETCH (8) times; never shorter than the limit.
tap_check "it was stopped after the limit, within 8 times it plus 2 s (elapsed $el s, limit $lim s)" \
    awk -v e="$el" -v l="$limit" 'BEGIN { exit !(e >= l - 0.5 && e <= 8 * l + 2) }'
tap_check "the limit is recorded with the check" test "$lim" = "$limit"
tap_check "the run went on: the next buggy check ran and passed" grep -q '^pass buggy after ' "$KL_TMP/done.txt"
tap_check "the fixed variant passed both checks" test "$(grep -c '^pass fixed ' "$KL_TMP/done.txt")" -eq 2
total=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%d", b - a }')
tap_check "the whole run took less than 60 s ($total s)" test "$total" -lt 60
tap_check "the JSON report says hang for it" grep -q '"verdict":[[:space:]]*"hang"' "$KL_TMP/out.json"

# The same kernel as the *fixed* variant: an unexpected hang, exit 1.
sed 's/"fixed": "copy_fixed", "buggy": "copy_hang"/"fixed": "copy_hang"/' $fx/hang.json >"$KL_TMP/swapped.json"
cp $fx/hang.kl "$KL_TMP/"
"$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite "$KL_TMP/swapped.json" --backend cpu \
    --timeout $limit --no-progress >"$KL_TMP/out2.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/out2.txt"
tap_check "a fixed variant that hangs fails the run: exit 1" test $rc -eq 1
tap_check "and is reported as unexpected" grep -q '^hang .*fixed .*UNEXPECTED' "$KL_TMP/out2.txt"

# A kernel that crashes its worker costs only its own check: the checks after it run in a fresh
# worker and pass. The crash is a verdict: an error naming the signal, the kernel and its line,
# which catches the buggy variant as a hang does.
sed 's/"fixed": "copy_fixed", "buggy": "copy_hang"/"fixed": "copy_fixed", "buggy": "copy_crash"/' \
    $fx/hang.json >"$KL_TMP/crash.json"
cat $fx/hang.kl - >"$KL_TMP/hang.kl" <<'KL'
KL_KERNEL copy_crash(float *out, const float *in, int n)
{
    if (n > 1000)
        *(volatile float *)(kl_u64)8 = in[0]; /* a wild store: the worker dies with SIGSEGV */
    copy(out, in, n);
}
KL_EXPORT(copy_crash)
KL
"$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite "$KL_TMP/crash.json" --backend cpu \
    --timeout 20 --no-progress >"$KL_TMP/out3.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/out3.txt"
tap_check "a crashing buggy check is an error that catches the bug: exit 0 ($rc)" test $rc -eq 0
tap_check "it is marked expected and counted caught" \
    sh -c "grep -qE '^error +buggy +r1 big .*\(expected\)$' '$KL_TMP/out3.txt' &&
           grep -q 'buggy caught by 1 of 2 checks' '$KL_TMP/out3.txt'"
tap_check "its detail says how the worker died, in which kernel and line" \
    grep -qE 'died with signal 11 without a result: kladder worker: signal 11 \(SIGSEGV\) in copy_crash \(hang\.kl:[0-9]+, copy_crash\+0x[0-9a-f]+\) at address 0x8$' "$KL_TMP/out3.txt"
tap_check "the next buggy check ran in a fresh worker and passed" grep -q '^pass .*buggy .*after' "$KL_TMP/out3.txt"
tap_check "both fixed checks passed" test "$(grep -cE '^pass +fixed +r1 ' "$KL_TMP/out3.txt")" -eq 2

# A kernel that takes more arguments than the manifest gives is named, not run (on the cpu
# backend the code object says how many it takes).
cat >"$KL_TMP/extra.kl" <<'KL'
KL_KERNEL copy_fixed(float *out, const float *in, int n, int stride)
{
    for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += stride)
        out[i] = in[i];
}
KL_KERNEL copy_ref(float *out, const float *in, int n)
{
    for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += 64)
        out[i] = in[i];
}
KL_EXPORT(copy_fixed)
KL_EXPORT(copy_ref)
KL
sed 's/"source": "hang.kl"/"source": "extra.kl"/; s/"fixed": "copy_fixed", "buggy": "copy_hang"/"fixed": "copy_fixed"/' \
    $fx/hang.json >"$KL_TMP/extra.json"
"$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite "$KL_TMP/extra.json" --backend cpu \
    --timeout 20 --no-progress >"$KL_TMP/out4.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/out4.txt"
tap_check "an argument count mismatch fails the run: exit 1" test $rc -eq 1
tap_check "and names the kernel and both counts" \
    grep -q 'kernel copy_fixed takes 4 arguments, the manifest.s "args" gives 3' "$KL_TMP/out4.txt"
tap_check "no worker crashed on it" test -z "$(grep 'died with signal' "$KL_TMP/out4.txt")"
