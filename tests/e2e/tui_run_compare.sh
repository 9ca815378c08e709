# Compare flow in a real terminal: a run made on "another machine" (a second database, exported
# with kladder export and served over HTTP on loopback) and the same run made here. In the
# interface, P pulls the other host, the Runs tab shows both, and the Compare tab matches their
# checks: local against the pulled host, then a machine as side B.
. tests/e2e/tui_run_lib
kl_need "tmux and python3 are needed" tmux python3
other=$KL_TMP/other.db here=$KL_TMP/here.db web=$KL_TMP/web
mkdir -p "$web"
run_cpu() { "$KLADDER" --db "$1" run --backend cpu --rung 4 --suite flydsl-1220 --variant buggy \
                --no-progress >"$KL_TMP/run.out" 2>&1; }
tap_check "a cpu run on the other machine" run_cpu "$other"
tap_check "exported" "$KLADDER" --db "$other" export --out "$web/results.json"
tap_check "a cpu run here" run_cpu "$here"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$web" "$port" >"$KL_TMP/http.log" 2>&1 &
http_pid=$!
trap 'kill $http_pid 2>/dev/null; cleanup' EXIT
for i in $(seq 1 50); do
    curl -sf "http://127.0.0.1:$port/results.json" >/dev/null 2>&1 && break
    sleep 0.1
done
"$KLADDER" --db "$here" hosts add otherbox "http://127.0.0.1:$port/results.json" >/dev/null

tui_start "$here"
wait_for "the dashboard shows the local verdict at rung 4" '^ ▸ local +✓' || exit 0
keys P
wait_for "P pulls the host over HTTP" '^ +otherbox: 1 new run, 3 checks \(0 already present\)' 30 || exit 0
wait_for "the Runs tab lists the pulled run beside the local one" '^ [0-9-]+ [0-9:]+ +vm@otherbox '
wait_for "the status line reports the pull" 'Pull done: every host answered'
keys 1
wait_for "the dashboard now has a row for the pulled host" '^ ▸ otherbox +✓'
keys 4
wait_for "Compare: side A is local" '^ A local'
wait_for "side B is the pulled host" '^ B otherbox \(host, 1 runs\)'
wait_for "three checks matched" '^ 3 rows · '
# rows timed once a side are not judged (docs/tui.md, Compare): then the summary says so
wait_for "the summary names the faster side, says they are even, or that no row was judged" \
    '^ ((A|B) \((local|otherbox)\) (is [0-9.]+× faster than|and B) |no row judged: )'
wait_for "the caught bug fails on both sides" 'R4 +flydsl-12… .*✗/✗$|R4 +flydsl-1220 .*✗/✗$'
wait_for "the baselines pass on both sides" '✓/✓$'
keys b
wait_for "b moves side B to the machine (both runs used the same one)" '^ B [0-9a-f]{8} cpu emulation'
keys a
wait_for "a moves side A on" '^ A otherbox'
# The CLI twin agrees on the rows.
"$KLADDER" --db "$here" compare local otherbox --json >"$KL_TMP/cmp.json"
tap_check "kladder compare matches the same three checks" \
    python3 -c "import json,sys; d=json.load(open('$KL_TMP/cmp.json')); sys.exit(len(d['rows']) != 3)"
tui_quit
