#!/usr/bin/env bash
# Rung 5 as the product runs it: the cost of one more repeat, with the engine's own loop (launch,
# one-pass content hash on the device, compare) rather than bench/kbench's isolated hash. Each
# suite's rung 5 runs twice, with R1 and R2 repeats of the fixed variant; per check,
#   per repeat = (elapsed at R2 - elapsed at R1) / (R2 - R1)
# which cancels setup, compilation and allocation (wall time, host side), beside the check's own
# event-timed median per repeat (time_us.median: device events around replays of the captured
# repeats, which hold the scratch reset, the kernel and the content hash). The two agree when
# the host keeps the device fed. Prints one line per check.
#
#   bench/rung5_product.sh [--backend cuda|hip] [--r1 N] [--r2 N] [SUITE...]
set -euo pipefail
cd "$(dirname "$0")/.."
K=${KLADDER:-build/kladder}
backend=cuda r1=100 r2=2000
suites=()
while [ $# -gt 0 ]; do
    case $1 in
        --backend) backend=$2; shift 2 ;;
        --r1) r1=$2; shift 2 ;;
        --r2) r2=$2; shift 2 ;;
        -*) echo "usage: $0 [--backend B] [--r1 N] [--r2 N] [SUITE...]" >&2; exit 2 ;;
        *) suites+=("$1"); shift ;;
    esac
done
[ ${#suites[@]} -gt 0 ] || suites=(atom-2533 aiter-6344-tail aiter-6344)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
for s in "${suites[@]}"; do
    for r in "$r1" "$r2"; do
        "$K" --db "$w/db" run --rung 5 --suite "$s" --variant fixed --backend "$backend" \
            --repeat "$r" --json --no-progress --timeout 120 >"$w/$s.$r.json" || true
    done
    python3 - "$s" "$r1" "$r2" "$w/$s.$r1.json" "$w/$s.$r2.json" <<'PY'
import json, sys
suite, r1, r2 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
a, b = (json.load(open(p)) for p in sys.argv[4:6])
def checks(rep):
    return {c["check"]: c for c in rep["checks"] if c["rung"] == 5 and c["variant"] == "fixed"}
ca, cb = checks(a), checks(b)
for name in ca:
    x, y = ca[name], cb.get(name)
    if not y or x["verdict"] != "pass" or y["verdict"] != "pass":
        print(f"{suite} {name}: not measured ({x['verdict']}/{y and y['verdict']})")
        continue
    per = (y["elapsed_s"] - x["elapsed_s"]) / (y["repeats"] - x["repeats"]) * 1e6
    k = y["time_us"]["median"]
    print(f"{suite} {name}: repeats {x['repeats']} -> {y['repeats']}, per repeat {per:.2f} us "
          f"(wall), {k:.2f} us (device events, median)")
PY
done
