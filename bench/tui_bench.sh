#!/usr/bin/env bash
# Interface benchmark: the time from start to the first frame, and per keystroke, with 100,000
# checks in the database (two pulled hosts of 500 runs x 100 checks). Targets: first frame
# <= 50 ms, a keystroke <= 5 ms.
#
#   bench/tui_bench.sh [--runs R] [--checks C] [--repeat N] [--size COLSxROWS]
#
# KLADDER (default build/kladder) is the binary measured. The interface runs headless
# (KLADDER_SCRIPT) and writes its own timings (KLADDER_TIMING: microseconds from start to the
# first frame, then from each key's arrival to the end of its frame); curses writes its output to
# /dev/null, so the terminal's own drawing time is not in the numbers. Keys are grouped:
#   navigation  keys that move or open what is already loaded (j, l, G, Enter on a run, m, Esc...)
#   load        keys that read a view's data afresh (3: the Runs list, x: a filter change,
#               4: the comparison of the two hosts)
# Prints the median and the worst of each group over all repetitions.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=500 checks=100 repeat=5 size=120x40
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --checks) checks=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        *) echo "usage: $0 [--runs R] [--checks C] [--repeat N] [--size COLSxROWS]" >&2; exit 2 ;;
    esac
done
K=${KLADDER:-build/kladder}
[ -x "$K" ] || { echo "no binary at $K (make first, or set KLADDER)" >&2; exit 2; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

gen=tests/fixtures/remote/gen_results.py
python3 "$gen" --host h200 --runs "$runs" --checks "$checks" --backend cuda --device "NVIDIA H200" \
    --out "$w/a.json"
python3 "$gen" --host mi455 --runs "$runs" --checks "$checks" --seed 2 --speed 1.3 --out "$w/b.json"
db=$w/bench.db
"$K" --db "$db" hosts add h200 "file://$w/a.json" >/dev/null
"$K" --db "$db" hosts add mi455 "file://$w/b.json" >/dev/null
"$K" --db "$db" pull >"$w/pulled"
echo "database: $(tr '\n' ';' <"$w/pulled" | sed 's/;$//; s/;/; /g')"

# One key per line; the second column says which group its frame belongs to.
cat >"$w/plan" <<'PLAN'
j nav
l nav
2 nav
j nav
j nav
3 load
j nav
j nav
PgDn nav
Enter nav
j nav
G nav
m nav
Esc nav
Esc nav
H load
x load
G nav
g nav
4 load
j nav
f nav
f nav
G nav
1 nav
k nav
PLAN
cut -d' ' -f1 "$w/plan" >"$w/steps"
: >"$w/all"
for i in $(seq 1 "$repeat"); do
    KLADDER_TIMING=$w/t KLADDER_SCRIPT=$w/steps KLADDER_SIZE=$size "$K" --db "$db"
    # first-frame line, then one "key US" line per key of the plan; a "loaded US" line follows
    # the key whose view was read in the background, when its data is on screen
    awk -v plan="$w/plan" 'BEGIN { n = 0; while ((getline l < plan) > 0) { split(l, f, " "); g[++n] = f[2]; k[n] = f[1] } }
        $1 == "first-frame" { print "first", $2, "start"; next }
        $1 == "loaded" { print "loaded", $2, k[i]; next }
        { i++; print g[i], $2, k[i] }' "$w/t" >>"$w/all"
done
summary() { # group label
    sort -n -k2 <(grep "^$1 " "$w/all") | awk -v label="$2" '{ v[NR] = $2; key[NR] = $3 }
        END { if (!NR) exit; m = v[int((NR + 1) / 2)];
              printf "%-34s median %8.2f ms   worst %8.2f ms (%s)   n=%d\n", label, m / 1000, v[NR] / 1000, key[NR], NR }'
}
echo "interface at $size, $repeat runs of the script:"
summary first "start to first frame (dashboard)"
summary nav "navigation keystroke"
summary load "keystroke that loads a view"
summary loaded "background read shown (from its key)"
for k in 3 H x 4; do
    grep "^load [0-9]* $k\$" "$w/all" | sort -n -k2 | awk -v k="$k" '{ v[NR] = $2 } END { if (NR) printf "  load key %-3s median %8.2f ms\n", k, v[int((NR + 1) / 2)] / 1000 }'
done
for k in 3 4; do
    grep "^loaded [0-9]* $k\$" "$w/all" | sort -n -k2 | awk -v k="$k" '{ v[NR] = $2 } END { if (NR) printf "  data of key %-3s on screen, median %8.2f ms\n", k, v[int((NR + 1) / 2)] / 1000 }'
done
