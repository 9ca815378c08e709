#!/usr/bin/env bash
# A built-in rung is one file: kladder built with tests/fixtures/rung9/rung9.c beside the eight
# rung files (engine/rungs/rungN.c; the ladder's list is written from the files by
# scripts/ladder-gen.sh, as the Makefile does) has a ninth rung wherever the engine and the faces
# that start runs look: `run --rung` takes 1 to 9, a suite may declare "9" and has its settings
# read by rung 9's own parser, and a run on the cpu backend plans and executes rung 9's checks in
# workers with the verdicts expected; the run is recorded as rung 9, `results --rung 9` lists
# it and the dashboard gives it a column. The kladder built from the tree alone still has eight.
# Rung 9's option of its own (--only NAME, in its entry) is in `run --help`, `run --options`
# (which the completions read), the man page made from the tables, and the launch panel, and
# the help/man/completion drift test passes on that kladder; given, it reaches rung 9's planner.
. tests/lib.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
kl_need "a C compiler is needed to build kladder with a ninth rung" cc pkg-config

# The rung files of the tree and the new one; the list as the Makefile writes it.
mkdir -p "$KL_TMP/gen"
scripts/ladder-gen.sh "$KL_TMP/gen/ladder.inc" engine/rungs/rung[0-9].c engine/rungs/rung[0-9][0-9].c \
    tests/fixtures/rung9/rung9.c 2>"$KL_TMP/gen.err" ||
    scripts/ladder-gen.sh "$KL_TMP/gen/ladder.inc" engine/rungs/rung[0-9].c tests/fixtures/rung9/rung9.c
sed 's/^/# /' "$KL_TMP/gen/ladder.inc"
tap_check "the ladder's list has the ninth rung last" test "$(tail -1 "$KL_TMP/gen/ladder.inc")" = "LADDER_RUNG(9)"

# The same compiler flags as the tree being tested (the sanitizer pass builds with its own).
san=""
[ "${KL_SAN:-0}" = 1 ] && san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -fPIC -I. $(pkg-config --cflags libcjson 2>/dev/null) $san"
libs="$(pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw -ltinfo) -lsqlite3 -lcjson -lcurl -lexpat -ldl -lpthread -lm"
# shellcheck disable=SC2086
cc $cflags -I"$KL_TMP/gen" -c -o "$KL_TMP/ladder.o" engine/tables/ladder.c &&
    cc $cflags -c -o "$KL_TMP/rung9.o" tests/fixtures/rung9/rung9.c &&
    cc $san -o "$KL_TMP/kladder9" "$KL_BUILD/obj/tui/main.o" "$KL_TMP/ladder.o" "$KL_TMP/rung9.o" \
        "$KL_BUILD/libkladder-tests.a" $libs >"$KL_TMP/build.log" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/build.log"
tap_check "kladder builds with rung9.c as its one new file" test $rc -eq 0
k9=$KL_TMP/kladder9

tap_check "run --rung takes 1 to 9 (its option table)" \
    grep -qE -e "^--rung	int	1	9(	|$)" <("$k9" run --options)
tap_check "the tree's own kladder still has 8" grep -qE -e "^--rung	int	1	8(	|$)" <("$KLADDER" run --options)

# Rung 9's own option, from its entry alone: the table, help, the man page, the completions.
tap_check "run --options lists rung 9's --only (the completions read it)" \
    grep -qE -e "^--only	value	.*NAME$" <("$k9" run --options)
tap_check "run --help says it" grep -qE -e "^  --only NAME +rung 9: run only the shape so named" \
    <("$k9" run --help)
tap_check "the tree's own kladder has no such option" \
    sh -c "! '$KLADDER' run --options | grep -q '^--only	'"
scripts/man-options.sh "$k9" docs/kladder.1 >"$KL_TMP/kladder9.1" 2>"$KL_TMP/man.err"
sed 's/^/# /' "$KL_TMP/man.err"
tap_check "the man page made from its tables (make man) lists --only" \
    grep -q '^\\fB\\-\\-only\\fR \\fINAME\\fR' "$KL_TMP/kladder9.1"
KLADDER=$k9 KL_MAN=$KL_TMP/kladder9.1 KL_TMP=$KL_TMP/drift bash -c 'mkdir -p "$KL_TMP"; bash tests/importers/options_drift.sh' \
    >"$KL_TMP/drift.tap" 2>&1
grep '^not ok' "$KL_TMP/drift.tap" | sed 's/^/# /'
tap_check "the help/man/completion drift test passes on it ($(grep -c '^ok' "$KL_TMP/drift.tap") ok)" \
    sh -c "! grep -q '^not ok' '$KL_TMP/drift.tap' && grep -q '^ok' '$KL_TMP/drift.tap'"

cp tests/fixtures/rung9/nine.json kernels/flydsl_1199.kl "$KL_TMP/"
"$k9" --db "$KL_TMP/k.db" run --rung 9 --suite "$KL_TMP/nine.json" --backend cpu --variant both \
    --no-progress --timeout 120 >"$KL_TMP/run.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/run.txt"
tap_check "rung 9 on the cpu backend: expectation met (exit 0)" test $rc -eq 0
tap_check "the unit test passes both variants" \
    sh -c "grep -cE '^pass +baseline-(fixed|buggy) ' '$KL_TMP/run.txt' | grep -qx 2"
tap_check "rung 9's tail shapes fail the buggy kernel" \
    sh -c "grep -cE '^fail +buggy +r9 k(96|160) ' '$KL_TMP/run.txt' | grep -qx 2"
tap_check "and pass the fixed one" \
    sh -c "grep -cE '^pass +fixed +r9 k(96|160) ' '$KL_TMP/run.txt' | grep -qx 2"
# Recorded like any rung (the database keeps rung numbers to CDB_RUNG_MAX), listed by
# `results --rung 9`, and given its own column by the dashboard, named from the rung's entry
# though the case index does not teach it.
"$k9" --db "$KL_TMP/k.db" results --rung 9 >"$KL_TMP/results.txt" 2>&1
sed 's/^/# /' "$KL_TMP/results.txt"
tap_check "the run is recorded as rung 9: results --rung 9 lists it" \
    sh -c "! grep -q 'recording the run failed' '$KL_TMP/run.txt' && grep -q 'nine' '$KL_TMP/results.txt'"
mkdir -p "$KL_TMP/screens"
printf ':save-screen %s\n' "$KL_TMP/screens/dash.screen" >"$KL_TMP/dash.script"
KLADDER_SCRIPT=$KL_TMP/dash.script KLADDER_SIZE=200x40 "$k9" --db "$KL_TMP/k.db" \
    >"$KL_TMP/tui.txt" 2>&1
sed 's/^/# /' "$KL_TMP/screens/dash.screen" 2>/dev/null | head -14
tap_check "the dashboard has a ninth column, named by the rung's entry" \
    grep -qE '^ *gap \\ rung .* 8 [^ ].* 9 named shapes' "$KL_TMP/screens/dash.screen"
tap_check "and the local host's row shows rung 9's verdict in it" \
    grep -qE '^ *. local .*(✓|\+) *$' "$KL_TMP/screens/dash.screen"

# A kladder of eight rungs pulls the host that ran rung 9: the run lands whole and its
# dashboard widens to the pulled rung, the column named by number only.
"$k9" --db "$KL_TMP/k.db" export --out "$KL_TMP/nine-host.json" >"$KL_TMP/export.txt" 2>&1
"$KLADDER" --db "$KL_TMP/k8.db" hosts add ninehost "$KL_TMP/nine-host.json" >>"$KL_TMP/export.txt" 2>&1
"$KLADDER" --db "$KL_TMP/k8.db" pull ninehost >>"$KL_TMP/export.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/export.txt"
tap_check "an eight-rung kladder pulls a host's rung 9 run (exit $rc)" \
    sh -c "test $rc -eq 0 && '$KLADDER' --db '$KL_TMP/k8.db' results --rung 9 2>&1 | grep -q nine"
KLADDER_SCRIPT=$KL_TMP/dash.script KLADDER_SIZE=200x40 "$KLADDER" --db "$KL_TMP/k8.db" \
    >"$KL_TMP/tui8.txt" 2>&1
sed 's/^/# /' "$KL_TMP/screens/dash.screen" 2>/dev/null | sed -n '4p;12,13p'
tap_check "and its dashboard has a ninth column with the pulled host's verdict" \
    sh -c "grep -qE '^ *gap .* 8 [^ ].* R?9 *\$' '$KL_TMP/screens/dash.screen' &&
           grep -qE '^ *. ninehost .*(✓|\+) *\$' '$KL_TMP/screens/dash.screen'"

# --only reaches rung 9's planner (its block of the run): one shape of the two runs.
"$k9" --db "$KL_TMP/only.db" run --rung 9 --suite "$KL_TMP/nine.json" --backend cpu --only k160 \
    --no-progress --timeout 120 >"$KL_TMP/only.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/only.txt"
tap_check "--only k160 runs that shape alone, caught (exit $rc)" \
    sh -c "test $rc -eq 0 && grep -qE '^fail +buggy +r9 k160 ' '$KL_TMP/only.txt' &&
           grep -qE '^pass +fixed +r9 k160 ' '$KL_TMP/only.txt' && ! grep -q 'k96' '$KL_TMP/only.txt'"
"$k9" --db "$KL_TMP/only.db" run --rung 9 --suite "$KL_TMP/nine.json" --backend cpu --only k7 \
    --no-progress >"$KL_TMP/only-bad.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/only-bad.txt"
tap_check "a name of no shape: rung 9's own message (exit 2)" \
    sh -c "test $rc -eq 2 && grep -q -- '--only k7 names no shape' '$KL_TMP/only-bad.txt'"
"$k9" --db "$KL_TMP/only.db" run --rung 1,5 --suite "$KL_TMP/nine.json" --backend cpu --only k96 \
    >"$KL_TMP/only-rung.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/only-rung.txt"
tap_check "given to a run without rung 9: refused, naming its rung (exit 2)" \
    sh -c "test $rc -eq 2 && grep -q -- \"--only is rung 9's own option; give --rung 9\" '$KL_TMP/only-rung.txt'"

# The launch panel has a row for it (o in Runs opens the suite file): typed there, the command
# line it starts carries it.
printf '3\no\n:type %s\nEnter\n:save-screen %s\nUp\nUp\nEnter\n:type k96\nEnter\n:save-screen %s\n' \
    "$KL_TMP/nine.json" "$KL_TMP/screens/panel.screen" "$KL_TMP/screens/panel-only.screen" \
    >"$KL_TMP/panel.script"
XDG_STATE_HOME=$KL_TMP/state KLADDER_SCRIPT=$KL_TMP/panel.script KLADDER_SIZE=200x40 "$k9" \
    --db "$KL_TMP/k.db" >"$KL_TMP/panel.txt" 2>&1
sed 's/^/# /' "$KL_TMP/screens/panel.screen" 2>/dev/null | head -14
tap_check "the launch panel has rung 9's --only row, saying what it does" \
    grep -qE '^ *--only +. not given \(rung 9: run only the shape so named\)' "$KL_TMP/screens/panel.screen"
sed 's/^/# /' "$KL_TMP/screens/panel-only.screen" 2>/dev/null | grep -E 'only|kladder run'
tap_check "a value typed on it goes on the run's command line" \
    sh -c "grep -qE '^ *--only +. k96 .' '$KL_TMP/screens/panel-only.screen' &&
           grep -qE 'kladder .*run --rung 9 --suite .* --only k96 ' '$KL_TMP/screens/panel-only.screen'"

sed 's/"shapes"/"shapez"/' "$KL_TMP/nine.json" >"$KL_TMP/bad.json"
"$k9" --db "$KL_TMP/k.db" run --rung 9 --suite "$KL_TMP/bad.json" --backend cpu >"$KL_TMP/bad.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/bad.txt"
tap_check "rung 9's own parser refuses an unknown setting by name (exit 2)" \
    sh -c "test $rc -eq 2 && grep -q 'rungs.9' '$KL_TMP/bad.txt' && grep -q shapez '$KL_TMP/bad.txt'"
"$KLADDER" --db "$KL_TMP/k8.db" run --rung 9 --suite "$KL_TMP/nine.json" --backend cpu >"$KL_TMP/eight.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/eight.txt"
tap_check "the tree's kladder refuses rung 9 (exit 2)" test $rc -eq 2
