#!/usr/bin/env bash
# The cost of a run beyond its kernels: `kladder run --case CASE` timed end to end, for one or
# more kladder binaries run alternately in one session (old and new side by side), and from each
# run's JSON report the overhead per check: (wall time - the checks' own elapsed time) / checks.
#
#   bench/run_overhead.sh [--case ID] [--backend B] [--repeat N] [--out FILE] BINARY...
#
# Prints one line per binary: median wall, min wall, checks, median overhead per check; with
# --out also writes every measurement as JSON lines. Each binary gets its own fresh database
# and a warm compile cache (one untimed run first), as a user's second run would have.
set -u
case_id=flydsl-1199 backend=cuda repeat=5 out=
while [ $# -gt 0 ]; do
    case $1 in
    --case) case_id=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--case ID] [--backend B] [--repeat N] [--out FILE] BINARY..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
[ -n "$out" ] && : >"$out"
i=0
for k in "$@"; do
    "$k" --db "$tmp/warm$i.db" run --case "$case_id" --backend "$backend" --no-progress --json >/dev/null 2>&1
    i=$((i + 1))
done
for r in $(seq 1 "$repeat"); do
    i=0
    for k in "$@"; do
        t0=$(date +%s.%N)
        "$k" --db "$tmp/db$i.db" run --case "$case_id" --backend "$backend" --no-progress --json \
            >"$tmp/rep.json" 2>"$tmp/err.txt"
        rc=$?
        t1=$(date +%s.%N)
        python3 - "$tmp/rep.json" "$t0" "$t1" "$k" "$rc" "$r" >>"$tmp/m$i.jsonl" <<'PY'
import json, sys
rep, t0, t1, k, rc, r = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
try:
    d = json.load(open(rep))
    checks = d["checks"]
    busy = sum(c["elapsed_s"] for c in checks)
    n = len(checks)
    verdicts = {}
    for c in checks:
        verdicts[c["verdict"]] = verdicts.get(c["verdict"], 0) + 1
except Exception as e:
    n, busy, verdicts = 0, 0.0, {"unreadable": str(e)}
wall = t1 - t0
print(json.dumps({"binary": k, "repeat": r, "exit": rc, "wall_s": round(wall, 4), "checks": n,
                  "checks_elapsed_s": round(busy, 4),
                  "overhead_per_check_ms": round((wall - busy) / n * 1000, 2) if n else None,
                  "verdicts": verdicts}))
PY
        i=$((i + 1))
    done
done
i=0
for k in "$@"; do
    python3 - "$tmp/m$i.jsonl" "$k" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
w = [r["wall_s"] for r in rows]
o = [r["overhead_per_check_ms"] for r in rows if r["overhead_per_check_ms"] is not None]
print("%-40s wall median %.3f s (min %.3f), %d checks, overhead per check median %s ms, exits %s"
      % (sys.argv[2], statistics.median(w), min(w), rows[0]["checks"],
         "%.1f" % statistics.median(o) if o else "n/a", sorted({r["exit"] for r in rows})))
PY
    [ -n "$out" ] && cat "$tmp/m$i.jsonl" >>"$out"
    i=$((i + 1))
done
