#!/usr/bin/env bash
# Twenty `kladder run`s on one database at once, and a reader listing the results in a loop
# while they write: every check each run printed is recorded under its run, every run is
# recorded finished with the verdict it printed (none left `running` or `interrupted`), and
# every exit status tells the truth (0 only for a run wholly recorded and met). A write that
# could not take the database's lock is no excuse: each write transaction takes the lock up
# front, under the busy timeout, so waiting for another run is all that contention costs. The
# answer depends on no timing: the runs may interleave in any order and must all land.
. tests/lib.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
kl_need "python3 is needed to read the runs' JSON" python3
db=$KL_TMP/k.db
suite=tests/engine/fixtures/drop_tail.json
N=${KL_CONCURRENT_RUNS:-20}
run_one() {
    "$KLADDER" --db "$db" run --rung 1 --suite $suite --backend cpu --no-progress --json \
        --timeout 120 >"$KL_TMP/out.$1" 2>"$KL_TMP/err.$1"
    echo $? >"$KL_TMP/rc.$1"
}

# One run first: the database exists with its schema (as a user's does) and the kernels are in
# the compile cache, so the twenty spend their time running and recording, not compiling.
run_one 0
tap_check "a first run on its own is met (exit $(cat "$KL_TMP/rc.0"))" test "$(cat "$KL_TMP/rc.0")" = 0

# The reader: `results --json` over and over until the runs end; each listing must succeed.
rm -f "$KL_TMP/stop"
(
    n=0 bad=0
    while [ ! -e "$KL_TMP/stop" ]; do
        if "$KLADDER" --db "$db" results --json >"$KL_TMP/list.json" 2>>"$KL_TMP/reader.err" &&
            python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$KL_TMP/list.json"; then
            n=$((n + 1))
        else
            bad=$((bad + 1))
        fi
        sleep 0.2 # a reader, not a load: the runs keep the cores
    done
    echo "$n $bad" >"$KL_TMP/reader"
) &
reader=$!

t0=$SECONDS
for i in $(seq 1 "$N"); do run_one "$i" & pids="$pids $!"; done
wait $pids
echo "# $N runs at once took $((SECONDS - t0)) s"
touch "$KL_TMP/stop"
wait $reader
read -r listed unlisted <"$KL_TMP/reader"
echo "# the reader listed the results $listed times, failed $unlisted times"
sed 's/^/# reader: /' "$KL_TMP/reader.err" | head -5
tap_check "the reader listed the results while the runs wrote ($listed times)" test "$listed" -ge 1
tap_check "and no listing failed ($unlisted)" test "$unlisted" = 0

# Each run against its record (the database's own export: every run and check it holds), and
# its exit status.
"$KLADDER" --db "$db" export --out "$KL_TMP/export.json" 2>"$KL_TMP/export.err"
tap_check "the database exports" test -s "$KL_TMP/export.json"
python3 - "$KL_TMP" "$N" "$db" >"$KL_TMP/tally" <<'PY'
import json, os, sys
tmp, n, db = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lost = unfinished = lying = printed_total = 0
exp = json.load(open(f"{tmp}/export.json"))
runs = {r["run_id"]: r for r in exp["runs"]}
checks = {}
for c in exp["checks"]:
    checks.setdefault(c["run_id"], set()).add((c["variant"], c["check"], c["verdict"]))
for i in range(1, n + 1):
    rc = int(open(f"{tmp}/rc.{i}").read())
    err = open(f"{tmp}/err.{i}", errors="replace").read()
    try:
        out = json.load(open(f"{tmp}/out.{i}"))
    except ValueError:
        out = None
    rec = runs.get(out["run_id"]) if out else None
    printed = {(c["variant"], c["check"], c["verdict"]) for c in out["checks"]} if out else set()
    recorded = checks.get(out["run_id"], set()) if out else set()
    printed_total += len(printed)
    missing = len(printed - recorded)
    lost += missing
    finished = bool(rec) and out is not None and rec["verdict"] == out["verdict"]
    unfinished += not finished
    whole = out is not None and missing == 0 and finished
    # truthful: 0 only for a run met and wholly recorded; anything else non-zero, naming the db
    truthful = (rc == 0) == (whole and out["expectation_met"]) and (rc == 0 or db in err)
    lying += not truthful
    if missing or not finished or not truthful:
        print(f"# run {i}: exit {rc}, printed {len(printed)} checks, recorded {len(recorded)}, "
              f"verdict {out and out['verdict']} recorded {rec and rec['verdict']}; "
              f"stderr: {err.strip()[:300]!r}")
print(f"printed {printed_total} lost {lost} unfinished {unfinished} untruthful {lying}")
PY
grep '^#' "$KL_TMP/tally"
set -- $(grep '^printed' "$KL_TMP/tally")
echo "# $N runs at once: $2 checks printed, $4 lost, $6 runs not recorded finished, $8 exit statuses untruthful"
tap_check "every run printed its checks ($2)" test "${2:-0}" -gt 0
tap_check "no check is lost (${4:-?} lost)" test "${4:-1}" = 0
tap_check "every run is recorded finished with the verdict it printed (${6:-?} not)" test "${6:-1}" = 0
tap_check "every exit status is truthful (${8:-?} not)" test "${8:-1}" = 0
ok=0
for i in $(seq 1 "$N"); do [ "$(cat "$KL_TMP/rc.$i")" = 0 ] && ok=$((ok + 1)); done
tap_check "all $N runs are met and recorded (exit 0: $ok)" test "$ok" = "$N"

# The database agrees with itself: each run's counts are its checks.
python3 - "$db" >"$KL_TMP/counts" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
bad = c.execute("""SELECT count(*) FROM runs r WHERE n_pass + n_fail + n_hang + n_error + n_skip
                   + n_cancelled + n_doubt != (SELECT count(*) FROM checks k WHERE k.run_id = r.id)""").fetchone()[0]
left = c.execute("SELECT count(*) FROM runs WHERE verdict IN ('running', 'interrupted')").fetchone()[0]
print(bad, left)
PY
read -r badcounts left <"$KL_TMP/counts"
tap_check "every run's counts match its checks ($badcounts do not)" test "$badcounts" = 0
tap_check "no run is left running or interrupted ($left)" test "$left" = 0
