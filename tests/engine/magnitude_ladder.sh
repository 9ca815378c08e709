#!/usr/bin/env bash
# Rung 2's magnitude-ladder class (docs/engine.md, value classes): rows of one magnitude each,
# 10, 100, ... up to 10^16, on kernels of our own on the cpu backend.
# - a row softmax of 0.125 * X without the row maximum subtracted overflows exp past x = 710:
#   large-mean (128, 16 once scaled) never gets there, the ladder's rows of 10^3 and up do, inside
#   the domain, and the check fails;
# - a two-pass and an online softmax of the same scaled logits, and an L2 normalization that
#   folds the scale into the values before squaring (beside a plain one), pass the ladder and
#   large-mean: no fail, no doubt;
# - where a declared domain (500) leaves the overflowing rows outside it, the rule for rows past
#   the domain judges them ("poison": NaN allowed there) and nothing fails; a domain of 2000
#   keeps the row of 1000 inside, and the same kernel fails.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
f=tests/engine/fixtures/magnitude
run() { # suite out-file [extra args]
    local s=$1 o=$2
    shift 2
    "$KLADDER" --db "$KL_TMP/k.db" run --rung 2 --suite "$s" --backend cpu --no-progress \
        --timeout 60 --json "$@" >"$o" 2>"$o.err"
}
verdicts() { # json-file variant check-prefix: the verdicts, one a line
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for c in d["checks"]:
    if c["variant"] == sys.argv[2] and c["check"].startswith(sys.argv[3]):
        print(c["verdict"])' "$@"
}
all_pass() { # json-file: every check passes, none in doubt, and the ladder ran
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
bad = [(c["variant"], c["check"], c["verdict"], c["detail"]) for c in d["checks"] if c["verdict"] != "pass"]
print(*("# %s" % (b,) for b in bad), sep="\n") if bad else None
ran = [c for c in d["checks"] if c["check"].startswith("magnitude-ladder")]
sys.exit(1 if bad or d["doubts"] or len(ran) != 4 else 0)' "$1"
}

# 1. The seeded bug: caught by the ladder as fail, at both shapes; large-mean passes it.
run $f/softmax-nomax.json "$KL_TMP/nm.json" --variant buggy
tap_check "scaled softmax without the max: caught as fail by magnitude-ladder at both shapes" \
    test "$(verdicts "$KL_TMP/nm.json" buggy magnitude-ladder | sort -u)" = fail
tap_check "scaled softmax without the max: large-mean does not reach it (scale 0.125: 16)" \
    test "$(verdicts "$KL_TMP/nm.json" buggy large-mean | sort -u)" = pass
tap_check "the finding names an input inside the domain past 710" python3 -c 'import json,re,sys
d = json.load(open(sys.argv[1]))
det = [c["detail"] for c in d["checks"] if c["check"] == "magnitude-ladder-R24-N64"][0]
m = re.search(r"input X there is ([0-9.e+-]+)", det)
print("# " + det)
sys.exit(0 if m and 710 < float(m.group(1)) < 1e5 and "NaN/Inf where the reference is finite" in det else 1)' "$KL_TMP/nm.json"

# 2. The correct kernels: two softmaxes, two L2 normalizations, no fail and no doubt.
for p in softmax-pair l2n-pair; do
    run $f/$p.json "$KL_TMP/$p.json"
    rc=$?
    tap_check "$p: both correct kernels pass magnitude-ladder and large-mean (exit 0)" test $rc -eq 0
    tap_check "$p: no check fails or is in doubt" all_pass "$KL_TMP/$p.json"
done

# 3. The domain decides: past a declared domain of 500 the overflowing rows are the contract's
# to judge (nothing fails); with 2000 the row of 1000 is inside it and the bug fails there.
run $f/softmax-nomax-domain.json "$KL_TMP/d500.json" --variant buggy
tap_check "domain 500: the overflow only past the domain fails nothing" \
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
sys.exit(1 if not d["checks"] or any(c["verdict"] == "fail" for c in d["checks"]) else 0)' "$KL_TMP/d500.json"
sed 's/"domain": 500/"domain": 2000/' $f/softmax-nomax-domain.json >"$KL_TMP/d2000.json"
cp $f/scaled.kl "$KL_TMP/"
run "$KL_TMP/d2000.json" "$KL_TMP/d2000.out.json" --variant buggy
tap_check "domain 2000: the row of 1000 is inside, and the ladder fails the bug" \
    test "$(verdicts "$KL_TMP/d2000.out.json" buggy magnitude-ladder-R24)" = fail
