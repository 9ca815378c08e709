#!/usr/bin/env bash
# Three rules of the contract judge (docs/engine.md, "Contracts, bounds and doubt"), on kernels
# of our own on the cpu backend:
# - a normalized output's bound grows with the cancellation in x - mean: two correct float32
#   layer norms (two-pass, Welford) pass every value class at every baseline shape against a
#   float64 reference (near-ties rows failed them at a bound of 1e-6 before), while a one-pass
#   E[x^2] - E[x]^2 variance, a layer norm without eps and one dividing by N - 1 are caught;
# - a check the fixed variant fails the same way as the buggy one is in doubt for both: a
#   reference that forgets eps is NaN on all-zero rows, where both variants give 0;
# - "every other row equals a run without them": a log-sum-exp whose shift is the largest value
#   of the whole tensor lets a NaN, Inf or FLT_MAX in one row spoil the ordinary rows; it is
#   caught by the clean run although its one-row output is judged by "poison" alone, and two
#   correct ones pass.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
f=tests/engine/fixtures/oracles
run() { # suite out-file [extra args]
    local s=$1 o=$2
    shift 2
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 2 --suite "$s" --backend cpu --no-progress \
        --timeout 60 "$@" >"$o" 2>&1
}
verdicts() { # json-file variant check-prefix: the verdicts, one a line
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for c in d["checks"]:
    if c["variant"] == sys.argv[2] and c["check"].startswith(sys.argv[3]):
        print(c["verdict"])' "$@"
}

# 1. The layer norm pair: every class, every baseline shape, no failure and no doubt.
run $f/layernorm-pair.json "$KL_TMP/ln.json" --json
rc=$?
tap_check "layer norm pair: both correct kernels pass (exit 0)" test $rc -eq 0
tap_check "layer norm pair: every check passes, none in doubt" python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
bad = [(c["variant"], c["check"], c["verdict"]) for c in d["checks"] if c["verdict"] != "pass"]
print(*("# %s" % (b,) for b in bad), sep="\n") if bad else None
sys.exit(1 if bad or d["doubts"] or len(d["checks"]) != 60 else 0)' "$KL_TMP/ln.json"
# the same pair without the cancellation term (a column layout the bound cannot read) fails
# near-ties: what a float32 layer norm on a GPU met at a bound of 1e-6
python3 - "$f/layernorm-pair.json" "$KL_TMP/ln-col.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["buffers"][1]["reduce"] = "N + 0"  # the same length, another expression: not read
m["source"] = "layernorm.kl"
json.dump(m, open(sys.argv[2], "w"))
PY
cp $f/layernorm.kl "$KL_TMP/"
run "$KL_TMP/ln-col.json" "$KL_TMP/ln-col.txt" --variant fixed
grep -A1 '^fail .*near-ties' "$KL_TMP/ln-col.txt" | head -2 | sed 's/^/# /'
tap_check "without the cancellation term near-ties is a false alarm (kernel error > 1e-5)" \
    grep -qE '^ +value class near-ties: Y: .*kernel error [1-9][.0-9]*e-05 against the reference, bound 1e-06' "$KL_TMP/ln-col.txt"

for bug in onepass:large-mean noeps:zero-rows unbiased:distinct; do
    s=${bug%%:*} cls=${bug#*:}
    run $f/layernorm-$s.json "$KL_TMP/ln-$s.json" --json --variant buggy
    v=$(verdicts "$KL_TMP/ln-$s.json" buggy "$cls-" | sort -u | tr '\n' ' ')
    tap_check "layer norm bug $s: caught as fail by $cls (got: $v)" test "$v" = "fail "
done

# 2. A wrong reference: both variants fail zero-rows the same way, so it is in doubt for both;
# the buggy variant is still caught by large-mean, and the database says doubt too. Nothing
# failed, but a check could not be settled: the run's verdict is doubt (exit 3), never a pass.
run $f/layernorm-badref.json "$KL_TMP/bad.json" --json
rc=$?
tap_check "same failure: nothing failed, but the run is in doubt (exit 3, got $rc)" \
    sh -c "test $rc -eq 3 && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d[\"verdict\"] == \"doubt\" and not d[\"expectation_met\"] else 1)' '$KL_TMP/bad.json'"
tap_check "same failure: zero-rows is in doubt for the fixed variant" \
    test "$(verdicts "$KL_TMP/bad.json" fixed zero-rows)" = doubt
tap_check "same failure: zero-rows is in doubt for the buggy variant" \
    test "$(verdicts "$KL_TMP/bad.json" buggy zero-rows)" = doubt
tap_check "same failure: the buggy variant is still caught by large-mean" \
    test "$(verdicts "$KL_TMP/bad.json" buggy large-mean)" = fail
tap_check "same failure: the detail says why" \
    grep -q 'in doubt: the fixed and the buggy variant fail this check the same way (oracle reference+sentinel, first at element 0)' "$KL_TMP/bad.json"
id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$KL_TMP/bad.json")
"$KLADDER" --db "$KL_TMP/k.db" results "$id" >"$KL_TMP/bad_db.txt" 2>&1
sed 's/^/# /' "$KL_TMP/bad_db.txt" | head -3
tap_check "same failure: the database records the two checks in doubt" \
    grep -qE '^verdict +doubt \(2 in doubt' "$KL_TMP/bad_db.txt"

# 3. The clean run: the leak is caught on nan-inf and max-finite, the correct pair passes.
run $f/lse-pair.json "$KL_TMP/lse.json" --json
rc=$?
tap_check "log-sum-exp pair: both correct kernels pass every class (exit 0, no doubt)" \
    sh -c "test $rc -eq 0 && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d[\"doubts\"] == 0 and all(c[\"verdict\"] == \"pass\" for c in d[\"checks\"]) else 1)' '$KL_TMP/lse.json'"
run $f/lse-leak.json "$KL_TMP/leak.txt" --variant buggy
grep -A1 '^fail' "$KL_TMP/leak.txt" | head -2 | sed 's/^/# /'
for cls in nan-inf max-finite; do
    tap_check "shared max across rows: caught by $cls" grep -qE "^fail +buggy +r2 $cls-R16-N64 " "$KL_TMP/leak.txt"
done
tap_check "shared max across rows: the finding names the ordinary row it reached" \
    grep -qE '^ +value class nan-inf: O: 4 elements that the inputs. NaN/Inf or magnitudes past the domain [0-9.e+]+ do not reach \(the reference is the same without them\) differ from the kernel.s own run without them \(first at \[3\]\)' "$KL_TMP/leak.txt"
