#!/usr/bin/env bash
# Oracles that never fail a correct kernel (docs/engine.md, "Contracts, bounds and doubt"): six
# pairs of correct kernels of our own pass every value class at every baseline shape, with
# their contracts and with none (the safe defaults); each seeded bug is caught as fail by the
# class that reaches it; a difference only in rows past a declared domain is in doubt, which
# is neither a pass nor a catch, in the text, --json and --junit alike.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
f=tests/engine/fixtures/oracles
run() { # suite out-file [extra args]
    local s=$1 o=$2
    shift 2
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 2 --suite "$s" --backend cpu --no-progress \
        --timeout 60 "$@" >"$o" 2>&1
}

# The correct pairs, as written (with contracts) and with every contract key removed.
cp $f/*.kl "$KL_TMP/"
for p in softmax variance l2 topk quant attn; do
    python3 - "$f/$p-pair.json" "$KL_TMP/$p-bare.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for b in m["buffers"]:
    for k in ("reduce", "kind", "acc", "domain", "nonfinite", "nan_pick"):
        b.pop(k, None)
json.dump(m, open(sys.argv[2], "w"))
PY
    for form in pair bare; do
        s=$f/$p-pair.json
        [ $form = bare ] && s=$KL_TMP/$p-bare.json
        run "$s" "$KL_TMP/$p-$form.out" --json
        rc=$?
        tap_check "$p ($form): both correct kernels pass every check (exit 0)" test $rc -eq 0
        tap_check "$p ($form): no check fails or is in doubt" \
            python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); bad=[(c["variant"],c["check"],c["verdict"],c["detail"]) for c in d["checks"] if c["verdict"] not in ("pass","skip")]; print(*("# %s" % (b,) for b in bad), sep="\n") if bad else None; sys.exit(1 if bad or d["doubts"] else 0)' "$KL_TMP/$p-$form.out"
    done
done

# Each seeded bug, caught as fail (not doubt) by the class that reaches it.
caught() { # suite check-prefix what
    run $f/$1.json "$KL_TMP/$1.json" --json --variant buggy
    tap_check "$3: caught as fail by $2" python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
v = [c["verdict"] for c in d["checks"] if c["variant"] == "buggy" and (c["check"] == sys.argv[2] or (sys.argv[2].endswith("-") and c["check"].startswith(sys.argv[2])))]
sys.exit(0 if v and all(x == "fail" for x in v) else 1)' "$KL_TMP/$1.json" "$2"
}
caught softmax-nomax large-mean- "softmax without the max subtracted"
caught variance-onepass large-mean- "one-pass E[x^2] - E[x]^2 variance"
caught topk-last-tie ties- "top-k with ties to the highest index"
caught quant-fp8-scale under-fp8-min- "fp8 scale that underflows on tiny rows"
caught router-nan-wins nan-inf- "router where a NaN score wins"
caught attn-floor-chunks chunk-S1 "chunked attention with NaN below one chunk"
caught quant-zero-row zero-rows- "absmax quantizer dividing by zero on an all-zero row"
caught l2-bf16-acc const-rows- "L2 norm summing in bf16"
run $f/softmax-nomax.json "$KL_TMP/nm.txt"
sed 's/^/# /' "$KL_TMP/nm.txt" | grep -A1 large-mean | head -4
tap_check "the finding prints the kernel's error beside the bound and the reference's" \
    grep -qE 'P: [0-9]+ of [0-9]+ elements differ from the reference beyond the bound \(first at \[0, 0\]; normalized, reduce 64, acc f32\): against the arbiter: kernel error inf, bound [0-9.e-]+, reference error' "$KL_TMP/nm.txt"

# A contract that puts the large-mean rows past the domain: the one-pass variance differs only
# there, so its checks are in doubt, never a catch: the bug escapes (exit 1).
sed 's/"domain": 1000000000000000.0/"domain": 50/g' \
    $f/variance-onepass.json >"$KL_TMP/var_domain.json"
run "$KL_TMP/var_domain.json" "$KL_TMP/vd.txt" --junit "$KL_TMP/vd.xml"
rc=$?
grep -E '^doubt' -A1 "$KL_TMP/vd.txt" | sed 's/^/# /' | head -4
tap_check "doubt: the buggy variant is not caught by checks in doubt (exit 1)" test $rc -eq 1
tap_check "doubt: shown apart in the text" \
    grep -qE '^doubt +buggy +r2 large-mean-R64-N32 .*IN DOUBT' "$KL_TMP/vd.txt"
tap_check "doubt: the detail says why" grep -q 'in doubt: [0-9]* elements differ from the reference only in rows whose inputs pass the domain 50' "$KL_TMP/vd.txt"
tap_check "doubt: the summary counts them apart" grep -q '^in doubt: 2 checks' "$KL_TMP/vd.txt"
tap_check "doubt: JUnit shows it apart (a failure of type doubt, never a green skip)" \
    sh -c "grep -q '<failure type=\"doubt\" message=\"in doubt: ' '$KL_TMP/vd.xml' && ! grep -q '<skipped message=\"in doubt' '$KL_TMP/vd.xml'"
run "$KL_TMP/var_domain.json" "$KL_TMP/vd.json" --json
tap_check "doubt: --json has the verdict and the count" \
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["doubts"]==2 and sum(c["verdict"]=="doubt" for c in d["checks"])==2 else 1)' "$KL_TMP/vd.json"
id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$KL_TMP/vd.json")
"$KLADDER" --db "$KL_TMP/k.db" results "$id" >"$KL_TMP/vd_db.txt" 2>&1
tap_check "doubt: recorded in the database and counted apart" \
    grep -qE '^verdict +fail \(2 in doubt, [0-9]+ passed; the bug was not caught\)' "$KL_TMP/vd_db.txt"
