# Compare over one database with no host pulled and one machine in it: local and that machine
# are the same runs, so side B stays empty and the view says what would make a second side,
# instead of putting the machine beside itself (1.00x on every row); the CLI's compare of
# local with that machine is not a default of the view.
. tests/screen/screen_lib
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
db=$KL_TMP/one.db
"$KLADDER" --db "$db" run --suite tests/engine/fixtures/rowscale.json --backend cpu --variant fixed \
    --no-progress >"$KL_TMP/run.txt" 2>&1
tap_check "a run recorded here" test $? -eq 0
SCREEN_DB=$db SCREEN_KEEP_DB=1 screen_run 100x24 '4
:save-screen one-machine
L
:save-screen one-machine-zh'
sed 's/^/# /' "$SCREENS/one-machine.screen" | head -8
tap_check "one machine: the view says there is no second side and how to get one" \
    grep -q 'Only one machine has results: pull another host (P) or run on another backend' \
        "$SCREENS/one-machine.screen"
tap_check "one machine: no row set beside itself (no 1.00x)" \
    bash -c "! grep -qE '1\\.00(×|x)' '$SCREENS/one-machine.screen'"
sed 's/^/# /' "$SCREENS/one-machine-zh.screen" | head -6
tap_check "in Chinese too" grep -q '只有一台机器有结果：拉取其他主机（P），或用另一后端运行' "$SCREENS/one-machine-zh.screen"
