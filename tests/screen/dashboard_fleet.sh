# The Dashboard's host rows for a fleet: eight pulled hosts (one machine's runs, each pulled
# under a node's name, as `kladder fleet collect` files them) each get their row of latest
# verdicts at 120x40 and 80x24; at 80x20 the rows that do not fit are counted.
. tests/screen/screen_lib

gen=tests/fixtures/remote/noisy_pair.py
db=$KL_TMP/fleet.db
mkdir -p "$KL_TMP/p"
python3 "$gen" "$KL_TMP/p" || { tap_fail "fixture documents written"; exit 0; }
k() { "$KLADDER" --db "$db" "$@"; }
nodes=()
for i in 1 2 3 4 5 6 7 8; do nodes+=("$KL_TMP/node$i.json" "n$i"); done
python3 tests/fixtures/remote/third_host.py "$KL_TMP/p/run1.json" "${nodes[@]}"
# the first call fills the database from the fixture index
k --data-dir tests/fixtures/tui hosts add node-1 "file://$KL_TMP/node1.json" >/dev/null
for i in 2 3 4 5 6 7 8; do
    k hosts add "node-$i" "file://$KL_TMP/node$i.json" >/dev/null
done
k pull >/dev/null 2>&1
tap_check "eight hosts pulled" test "$(k hosts list | grep -c '^node-')" = 8

SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 120x40 ':save-screen dashboard-fleet-120x40'
screen_check dashboard-fleet-120x40
tap_check "every host has its row" \
    test "$(grep -cE '^ +. node-[1-8] ' "$KL_TMP/screens/dashboard-fleet-120x40.screen")" = 8
SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 80x24 ':save-screen dashboard-fleet-80x24'
screen_check dashboard-fleet-80x24
shown=$(grep -cE '^ +. node-[1-8] ' "$KL_TMP/screens/dashboard-fleet-80x24.screen")
if [ "$shown" = 8 ]; then
    tap_check "at 80x24 every host fits, none is counted as left out" \
        sh -c "! grep -q 'more hosts' '$KL_TMP/screens/dashboard-fleet-80x24.screen'"
else
    tap_check "at 80x24 the hosts left out are counted" \
        grep -q "^ *+$((8 - shown)) more hosts" "$KL_TMP/screens/dashboard-fleet-80x24.screen"
fi
SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 80x20 ':save-screen dashboard-fleet-80x20'
screen_check dashboard-fleet-80x20
shown=$(grep -cE '^ +. node-[1-8] ' "$KL_TMP/screens/dashboard-fleet-80x20.screen")
tap_check "at 80x20 some hosts are left out and counted" \
    sh -c "test $shown -lt 8 && grep -q '^ *+$((8 - shown)) more hosts' '$KL_TMP/screens/dashboard-fleet-80x20.screen'"
echo "1..$_tap_n"
