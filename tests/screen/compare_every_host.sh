# The Compare tab's every-host mode (m) over three pulled hosts: one machine run twice (noise
# only) and a third run with a fence check 10x and a tile check 1.5x slower
# (tests/fixtures/remote/noisy_pair.py). Only the slowed host stands out on the injected rows;
# s sorts by the host that differs, f keeps its rows, a turns the baseline; at 80x24 nothing
# wraps; the Chinese labels. The rows are checked against `kladder compare A B C --json`.
. tests/screen/screen_lib

gen=tests/fixtures/remote/noisy_pair.py
db=$KL_TMP/every.db
mkdir -p "$KL_TMP/p" "$KL_TMP/q"
python3 "$gen" "$KL_TMP/p" && python3 "$gen" "$KL_TMP/q" --inject fence10x --inject tile1.5x &&
    python3 tests/fixtures/remote/third_host.py "$KL_TMP/q/run2.json" "$KL_TMP/c.json" c ||
    { tap_fail "fixture documents written"; exit 0; }
k() { "$KLADDER" --db "$db" "$@"; }
k --data-dir tests/fixtures/tui hosts add h200-a "file://$KL_TMP/p/run1.json" >/dev/null &&
    k hosts add h200-b "file://$KL_TMP/p/run2.json" >/dev/null &&
    k hosts add h200-c "file://$KL_TMP/c.json" >/dev/null && k pull >/dev/null 2>&1
tap_check "three hosts pulled" test $? = 0

SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 120x34 '4
m
/
:type fence
Enter
:save-screen compare-every-host
f
f
f
:save-screen compare-every-host-differs-c
s
s
s
:save-screen compare-every-host-sort-c
x
a
:save-screen compare-every-host-baseline-b
L
:save-screen compare-every-host-zh'
SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 80x24 '4
m
f
:save-screen compare-every-host-80x24'

for n in compare-every-host compare-every-host-differs-c compare-every-host-sort-c \
    compare-every-host-baseline-b compare-every-host-zh compare-every-host-80x24; do
    screen_check "$n"
done

# the rows the screens show against the CLI's matrix
k compare h200-a h200-b h200-c --differs h200-c --json >"$KL_TMP/c.json2"
python3 - "$KL_TMP/c.json2" "$KL_TMP/screens/compare-every-host-differs-c.screen" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
screen = open(sys.argv[2], encoding="utf-8").read()
fence = [r for r in rows if r["suite"] == "fence-2213"]
assert fence, rows
for r in fence:
    line = [l for l in screen.splitlines() if " " + r["check"] + " " in l and r["variant"] in l]
    assert line, (r["check"], screen)
assert "10.3×▲ !" in screen, screen
PY
tap_check "the screen shows the CLI's rows where the slowed host differs" test $? = 0
echo "1..$_tap_n"
