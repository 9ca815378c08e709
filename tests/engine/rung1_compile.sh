#!/usr/bin/env bash
# Rung 1 on shape-specialised suites ("specialize"), cpu backend: a shape whose kernel does not
# compile is a failing check that names the shape and the compiler's first error line, and the
# run goes on (aiter-4987: an untuned MoE shape's fallback the compiler cannot lower; and a
# second class of our own, a vector loader instantiated for a width nobody wrote). A compile
# failure of a suite that does not specialise is still the tool's error; a bad "specialize" is
# refused naming the file and the field.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
fx=tests/engine/fixtures/rung1_compile
run1() { # suite [options] -> output in $KL_TMP/out.txt, exit status in $rc
    local suite=$1
    shift
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite "$suite" --backend cpu --no-progress \
        --timeout 120 "$@" >"$KL_TMP/out.txt" 2>&1
    rc=$?
}
has() { grep -qE -- "$1" "$KL_TMP/out.txt"; }

run1 aiter-4987
tap_check "aiter-4987: exit 0 (expectation met)" test "$rc" -eq 0
tap_check "aiter-4987: the model's untuned shape fails (not an error), named" \
    has '^fail +buggy +r1 model_shape +N=768,K=512 '
tap_check "aiter-4987: ... with the compiler's first error line" \
    has "the kernel specialised for N=768,K=512 does not compile for cpu-wave32: error: .*kl_buffer_load_lds"
tap_check "aiter-4987: every untuned shape of the buggy fallback fails" \
    test "$(grep -cE '^fail +buggy +r1 (untuned-|model_shape)' "$KL_TMP/out.txt")" -eq 7
tap_check "aiter-4987: the fixed fallback compiles and is right at every untuned shape" \
    test "$(grep -cE '^pass +fixed +r1 (untuned-|model_shape)' "$KL_TMP/out.txt")" -eq 7
tap_check "aiter-4987: the plain unit test (tuned shapes) passes both variants" \
    test "$(grep -cE '^pass +baseline-(fixed|buggy) ' "$KL_TMP/out.txt")" -eq 4
tap_check "aiter-4987: no check is an error" test -z "$(grep -E '^error ' "$KL_TMP/out.txt")"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$KL_TMP/out.txt"
run1 aiter-4987 --variant buggy --json
tap_check "JSON: the compile failure is a fail of oracle compile at its shape" \
    test "$(jq '[.checks[] | select(.check == "model_shape" and .verdict == "fail" and .oracle == "compile"
        and .shape == "N=768,K=512")] | length' "$KL_TMP/out.txt" 2>/dev/null)" -eq 1

# Our own: a loader instantiated for a width the tuned table never needed.
run1 $fx/rowsum_vec.json
tap_check "rowsum-vec: exit 0" test "$rc" -eq 0
tap_check "rowsum-vec: C=6 fails, named, with the compiler's words" \
    has "^fail +buggy +r1 c6 +C=6 "
tap_check "rowsum-vec: ... the first error line" \
    has "the kernel specialised for C=6 does not compile for cpu-wave32: error: .*rs_loader<2>"
tap_check "rowsum-vec: C=16 (a width with a loader) passes both variants" \
    test "$(grep -cE '^pass +(fixed|buggy) +r1 c16 ' "$KL_TMP/out.txt")" -eq 2
tap_check "rowsum-vec: the fixed fallback passes C=6" has '^pass +fixed +r1 c6 '
[ "$rc" -eq 0 ] || sed 's/^/# /' "$KL_TMP/out.txt"

# A suite that does not specialise: its source not compiling is the run's one setup error
# (exit 2, said once with its line; tests/engine/compile_error.sh has the rest), no shape's failure.
mkdir -p "$KL_TMP/plain"
{ cat $fx/rowsum_vec.kl; echo 'KL_KERNEL broken(float *o) { o[0] = undeclared_here; }'; } >"$KL_TMP/plain/rowsum_vec.kl"
jq 'del(.specialize)' $fx/rowsum_vec.json >"$KL_TMP/plain/rowsum_vec.json"
run1 "$KL_TMP/plain/rowsum_vec.json" --variant fixed
broken_line=$(grep -c '' "$KL_TMP/plain/rowsum_vec.kl")
tap_check "no specialize: a source that does not compile is a setup error (exit 2, $rc)" \
    test "$rc" -eq 2 -a "$(grep -c 'does not compile for' "$KL_TMP/out.txt")" -eq 1
tap_check "no specialize: ... at its line, no check run, not a shape's failure" \
    bash -c "grep -qE '^rowsum_vec\.kl:$broken_line: error: .*undeclared_here' '$KL_TMP/out.txt' &&
             ! grep -qE '^(pass|fail|error) ' '$KL_TMP/out.txt'"

# A bad "specialize": the file, the field, what was expected; exit 2.
bad() { # jq-edit expected
    jq "$1" $fx/rowsum_vec.json >"$KL_TMP/plain/bad.json"
    local out rc
    out=$("$KLADDER" --db "$KL_TMP/k.db" run --rung 1 --suite "$KL_TMP/plain/bad.json" --backend cpu --no-progress 2>&1)
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "$KL_TMP/plain/bad.json: $2" <<<"$out"; then
        tap_ok "$2"
    else
        tap_fail "$2: exit $rc"
        printf '%s\n' "$out" | sed 's/^/# /'
    fi
}
bad '.specialize = ["Q"]' 'specialize[0]: expected the name of a parameter, got "Q"'
bad '.specialize = []' 'specialize: expected a non-empty array of parameter names'
bad '.specialize = "C"' 'specialize: expected a non-empty array of parameter names'
echo "1..$_tap_n"
