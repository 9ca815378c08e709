# kladder fleet on a real Slurm: a one-node cluster of this test's own (munged, slurmctld and
# slurmd on localhost, config, state, key and socket under KL_TMP, no cgroups) runs a 3-task job
# array on the cpu backend; the dependent collect job pulls the three exports, each under its
# label; a second collect adds nothing; the three hosts compare. A task whose run fails is
# reported with its Slurm state and its log's tail. The daemons are stopped on every way out.
# Skipped where slurm-wlm or munge is missing (scripts/deps.sh --test installs them).
. tests/tap.sh
missing=
for t in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
    command -v "$t" >/dev/null || missing="$missing $t"
done
if [ -n "$missing" ]; then
    tap_skip "Slurm test: not installed:$missing (scripts/deps.sh --test installs slurm-wlm munge)"
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    tap_skip "Slurm test: slurmd runs jobs as their user and must start as root"
    exit 0
fi
export XDG_CACHE_HOME=$KL_CACHE
export TMPDIR=$KL_TMP # the tasks' private databases too
s=$KL_TMP/slurm
mkdir -p "$s/munge" "$s/state" "$s/spool" "$s/log"
chmod 700 "$s/munge"
export SLURM_CONF=$s/slurm.conf

# waits up to $1 tenths of a second for the command after it to succeed
wait_for() {
    local n=$1
    shift
    while [ "$n" -gt 0 ]; do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.1
        n=$((n - 1))
    done
    return 1
}
stop_pid() { # $1 pid file: TERM, up to 3 s, then KILL
    [ -f "$1" ] || return 0
    local pid
    pid=$(cat "$1")
    kill "$pid" 2>/dev/null || return 0
    wait_for 30 sh -c "! kill -0 $pid" || kill -9 "$pid" 2>/dev/null
}
cleanup() {
    timeout 5 scancel --quiet --user="$(id -un)" 2>/dev/null
    wait_for 50 sh -c '[ -z "$(timeout 2 squeue -h 2>/dev/null)" ]'
    stop_pid "$s/slurmd.pid"
    stop_pid "$s/slurmctld.pid"
    stop_pid "$s/munge/pid"
}
trap cleanup EXIT

mungekey -c -k "$s/munge/key" -b 1024 && chmod 600 "$s/munge/key"
munged --force --socket="$s/munge/sock" --key-file="$s/munge/key" --log-file="$s/munge/log" \
    --pid-file="$s/munge/pid" --seed-file="$s/munge/seed"
read -r ctld_port d_port < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
cat >"$SLURM_CONF" <<CONF
ClusterName=kltest
SlurmctldHost=localhost
SlurmctldAddr=127.0.0.1
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$s/munge/sock
CredType=cred/munge
SlurmUser=$(id -un)
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/log/slurmctld.log
SlurmdLogFile=$s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
KillWait=1
MinJobAge=600
SchedulerParameters=sched_interval=1
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
slurmctld -i && slurmd -N localhost
wait_for 100 sh -c 'sinfo -h -o %t | grep -qx idle'
if ! sinfo -h -o %t 2>/dev/null | grep -qx idle; then
    tap_fail "a one-node cluster of its own is up (logs under $s/log)"
    tail -5 "$s/log/slurmctld.log" "$s/log/slurmd.log" 2>/dev/null
    echo "1..$_tap_n"
    exit 0
fi
tap_ok "a one-node cluster of its own is up"

db=$KL_TMP/user.db
# every call that talks to Slurm is bounded: a controller that stops answering fails the test
k() { timeout 60 "$KLADDER" --db "$db" "$@"; }
suite=$PWD/tests/engine/fixtures/drop_tail.json
fleet=$KL_TMP/fleet
k fleet submit --out "$fleet" --nodes a=localhost,b=localhost,c=localhost --suite "$suite" \
    --rung 1 --backend cpu --variant fixed --run-arg --no-progress --time 2 >"$KL_TMP/submit" 2>&1
tap_check "fleet submit submits a job array and a collect job" grep -q '^collect job ' "$KL_TMP/submit"
collect_job=$(awk '$1 == "collect" { print $2 }' "$fleet/fleet.jobs")
done_job() { [ -z "$(squeue -h -j "$1" -t pending,running,completing 2>/dev/null)" ]; }
wait_for 250 done_job "$collect_job"
tap_check "the collect job ended within 25 s" done_job "$collect_job"
for h in a b c; do
    tap_check "collect pulled host $h" grep -q "^$h: 1 new run, " "$fleet/logs/collect.log"
done
k fleet status "$fleet" >"$KL_TMP/status" 2>&1
tap_check "fleet status shows each task COMPLETED under its label" \
    test "$(grep -cE '^[0-2] +[abc] +COMPLETED' "$KL_TMP/status")" = 3
k fleet collect "$fleet" >"$KL_TMP/again" 2>&1
tap_check "a second collect adds nothing" \
    test "$(grep -c ': 0 new runs, 0 checks (1 already present)' "$KL_TMP/again")" = 3
tap_check "each label is a host with its run" \
    test "$(k results --host b --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 1
k compare a b c --json >"$KL_TMP/compare.json"
python3 - "$KL_TMP/compare.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["hosts"] == ["a", "b", "c"], d["hosts"]
assert d["rows"], d
for r in d["rows"]:
    assert [c["side"]["verdict"] for c in r["cells"]] == ["pass"] * 3, r
    # rung 1 times each check once: never judged, so never flagged, however far apart
    for c in r["cells"][1:]:
        assert c["timing"] in ("too-few-repeats", None) and not c["flagged"], c
PY
tap_check "the three hosts compare: every check passed on each, none judged on one launch" \
    test $? = 0

# a task whose run fails: reported with its Slurm state and the tail of its log
bad=$KL_TMP/bad
k fleet submit --out "$bad" --nodes d=localhost --suite no-such-suite --rung 1 --backend cpu \
    --no-collect >/dev/null 2>&1
bad_job=$(awk '$1 == "array" { print $2 }' "$bad/fleet.jobs")
wait_for 100 done_job "$bad_job"
k fleet collect "$bad" >"$KL_TMP/bad.out" 2>"$KL_TMP/bad.err"
tap_check "collect of a failed task exits 1" test $? = 1
tap_check "the failed task is named with its state and node" \
    grep -q "^d: error: no export: task ${bad_job}_0 FAILED on localhost" "$KL_TMP/bad.err"
tap_check "with its log's tail" grep -q 'kladder run exited 2; no export from d' "$KL_TMP/bad.err"
cat "$KL_TMP/bad.err"
echo "1..$_tap_n"
