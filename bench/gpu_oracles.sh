#!/usr/bin/env bash
# Oracles that never fail a correct kernel, on a GPU (run on the H200: bench/results/h200-2026-12-02-final):
# the correct pairs of tests/engine/fixtures/oracles/ must pass every value class at every
# baseline shape (no fail; a doubt is listed), and each seeded bug must be caught as fail by
# the class that reaches it. The same verdicts as tests/engine/oracles_contracts.sh on the cpu
# backend.
#
#   bench/gpu_oracles.sh [--backend cuda|hip] [--kladder BINARY] [--out DIR]
#
# Writes each run's --json report to DIR (default bench/results/oracles-<backend>) and prints
# one line per suite; exits 1 when a pair fails a check or a bug escapes.
set -u
backend=cuda kladder=build/kladder out=
while [ $# -gt 0 ]; do
    case $1 in
    --backend) backend=$2; shift 2 ;;
    --kladder) kladder=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--backend cuda|hip] [--kladder BINARY] [--out DIR]" >&2; exit 2 ;;
    esac
done
out=${out:-bench/results/oracles-$backend}
mkdir -p "$out"
f=tests/engine/fixtures/oracles
bad=0
for p in softmax variance l2 topk quant attn layernorm lse; do
    "$kladder" --db "$out/k.db" run --rung 2 --suite $f/$p-pair.json --backend "$backend" \
        --no-progress --json >"$out/$p-pair.json" 2>"$out/$p-pair.err"
    line=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
v=[c["verdict"] for c in d["checks"]]
print("%s pair: %d checks, %d fail, %d doubt" % (sys.argv[2], len(v), v.count("fail"), v.count("doubt")))
sys.exit(1 if v.count("fail") else 0)' "$out/$p-pair.json" "$p") || bad=1
    echo "$line"
done
while read -r suite class; do
    "$kladder" --db "$out/k.db" run --rung 2 --suite $f/$suite.json --backend "$backend" \
        --variant buggy --no-progress --json >"$out/$suite.json" 2>"$out/$suite.err"
    line=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); a=sys.argv[2]
v=[c["verdict"] for c in d["checks"] if c["variant"]=="buggy" and (c["check"]==a or (a.endswith("-") and c["check"].startswith(a)))]
ok=v and all(x=="fail" for x in v)
print("%s: %s %s" % (sys.argv[3], a, "caught as fail" if ok else "NOT caught: %s" % v))
sys.exit(0 if ok else 1)' "$out/$suite.json" "$class" "$suite") || bad=1
    echo "$line"
done <<'LIST'
softmax-nomax large-mean-
variance-onepass large-mean-
topk-last-tie ties-
quant-fp8-scale under-fp8-min-
router-nan-wins nan-inf-
attn-floor-chunks chunk-S1
quant-zero-row zero-rows-
l2-bf16-acc const-rows-
layernorm-onepass large-mean-
layernorm-noeps zero-rows-
layernorm-unbiased distinct-
lse-leak nan-inf-
lse-leak max-finite-
LIST
exit $bad
