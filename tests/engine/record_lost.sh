#!/usr/bin/env bash
# A run that cannot record what it found fails loudly. The database is made to refuse one thing
# at a time (a trigger that aborts the statement: deterministic, unlike a lock held for the busy
# timeout): one check of the run, then the run's end. Either way the run names the database,
# the run and what was lost on stderr, its headline is not "expectation met", and it exits 2;
# a run missing a check is recorded with the verdict error, one whose end was refused is not
# recorded as finished. A run recorded whole still exits 0.
. tests/lib.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
kl_need "python3 is needed to change the database" python3
db=$KL_TMP/k.db
suite=tests/engine/fixtures/drop_tail.json
run() {
    "$KLADDER" --db "$db" run --rung 1 --suite $suite --backend cpu --no-progress --timeout 120 \
        "$@" >"$KL_TMP/out" 2>"$KL_TMP/err"
    rc=$?
    sed 's/^/# out: /' "$KL_TMP/out" | tail -3
    sed 's/^/# err: /' "$KL_TMP/err"
}
sql() { python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()' "$db" "$1"; }
newest() { # verdict and check count of the newest run
    "$KLADDER" --db "$db" results --json | python3 -c '
import json, sys
r = json.load(sys.stdin)[0]
print(r["verdict"], sum(r["counts"].values()))'
}

run
tap_check "recorded whole, the run exits 0 (exit $rc)" test $rc = 0
set -- $(newest)
tap_check "and is recorded pass with its 4 checks ($*)" test "$1 $2" = "pass 4"

# The buggy variant's check "big" is refused.
sql "CREATE TRIGGER refuse_check BEFORE INSERT ON checks
     WHEN NEW.seq = 3 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;"
run
tap_check "a check not recorded: exit 2 ($rc)" test $rc = 2
tap_check "stderr names the database, the check and why" \
    grep -q "recording check 3 (buggy big) of run .*failed: $db: .*refused by the test" "$KL_TMP/err"
tap_check "and counts what is missing" grep -q "1 of the 4 checks of run .* are not in $db" "$KL_TMP/err"
tap_check "the headline does not say met" bash -c "! grep -q 'expectation met' '$KL_TMP/out'"
set -- $(newest)
tap_check "the record holds 3 checks and the verdict error ($*)" test "$1 $2" = "error 3"
run --json
tap_check "--json: exit 2 and expectation_met false" \
    bash -c "test $rc = 2 && python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); sys.exit(d[\"expectation_met\"] is not False or d[\"verdict\"] != \"error\")' '$KL_TMP/out'"
sql "DROP TRIGGER refuse_check;"

# The run's end is refused: the run stays unfinished in the database.
sql "CREATE TRIGGER refuse_end BEFORE UPDATE OF verdict ON runs
     WHEN NEW.verdict != 'interrupted' BEGIN SELECT RAISE(ABORT, 'end refused by the test'); END;"
run
tap_check "an end not recorded: exit 2 ($rc)" test $rc = 2
tap_check "stderr names the database and says the run is left unfinished" \
    grep -q "is left unfinished in $db" "$KL_TMP/err"
tap_check "the headline does not say met" bash -c "! grep -q 'expectation met' '$KL_TMP/out'"
sql "DROP TRIGGER refuse_end;"
set -- $(newest)
tap_check "its record is not a pass: the next kladder finds it interrupted ($*)" test "$1" = interrupted
