# kladder fleet's faults without a cluster (Slurm's commands stand in as scripts that print
# what Slurm prints): collect lands every whole export while a half-written one lands nothing,
# a temp file of an atomic write is never an export, a task without an export is reported with
# its Slurm state and its log's tail (a timed-out task too), a second collect adds nothing,
# Slurm's errors are shown as they are; submit's usage errors and its dry run.
. tests/tap.sh
db=$KL_TMP/user.db
k() { "$KLADDER" --db "$db" "$@"; }
gen=tests/fixtures/remote/noisy_pair.py
mkdir -p "$KL_TMP/p" "$KL_TMP/bin"
python3 "$gen" "$KL_TMP/p" || exit 1
fleet=$KL_TMP/fleet
mkdir -p "$fleet/logs"
printf '0 a node n1\n1 b node n2\n2 c node n3\n3 d node n4\n' >"$fleet/fleet.targets"
printf 'array 77\n' >"$fleet/fleet.jobs"
cp "$KL_TMP/p/run1.json" "$fleet/a.json"
python3 tests/fixtures/remote/third_host.py "$KL_TMP/p/run2.json" "$fleet/c.json" c
# b's export cut in the middle, as a writer that is not `kladder export --out` would leave it
head -c 20000 "$KL_TMP/p/run2.json" >"$fleet/b.json"
# the temp file of an atomic write in progress
head -c 100 "$KL_TMP/p/run2.json" >"$fleet/e.json.tmp.Xy12ab"
printf 'kladder fleet: task 3 (d) on n4\nslurmstepd: error: *** JOB 80 ON n4 CANCELLED AT 2026-12-02T10:00:00 DUE TO TIME LIMIT ***\n' \
    >"$fleet/logs/task-3.log"
cat >"$KL_TMP/bin/squeue" <<'SH'
#!/bin/sh
# what squeue -h -t all -j JOB_I -o %T|%N prints for this fleet's tasks
case "$*" in
*77_3*) echo 'TIMEOUT|n4' ;;
*) echo 'COMPLETED|n1' ;;
esac
SH
cat >"$KL_TMP/bin/sacct" <<'SH'
#!/bin/sh
echo 'Slurm accounting storage is disabled' >&2
exit 1
SH
chmod +x "$KL_TMP/bin/squeue" "$KL_TMP/bin/sacct"
PATH=$KL_TMP/bin:$PATH k fleet collect "$fleet" >"$KL_TMP/out1" 2>"$KL_TMP/err1"
tap_check "collect with a fault exits 1" test $? = 1
tap_check "the whole exports land, each under its label" \
    test "$(grep -cE '^[ac]: 18 new runs, 324 checks \(0 already present\)$' "$KL_TMP/out1")" = 2
tap_check "the half-written export is refused, named" grep -q '^b: error: ' "$KL_TMP/err1"
tap_check "and lands nothing" test "$(k results --host b --json)" = "[]"
k hosts list >"$KL_TMP/hosts"
tap_check "a temp file of an atomic write is no export" sh -c "! grep -q '^e ' '$KL_TMP/hosts'"
tap_check "the timed-out task is named with its Slurm state and node" \
    grep -q '^d: error: no export: task 77_3 TIMEOUT on n4$' "$KL_TMP/err1"
tap_check "with its log's tail" grep -q 'DUE TO TIME LIMIT' "$KL_TMP/err1"

PATH=$KL_TMP/bin:$PATH k fleet collect "$fleet" >"$KL_TMP/out2" 2>/dev/null
tap_check "a second collect adds nothing" \
    test "$(grep -cE '^[ac]: 0 new runs, 0 checks \([0-9]+ already present\)$' "$KL_TMP/out2")" = 2
tap_check "the runs are there once" \
    test "$(k results --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 36

# b's export written whole at last: it lands on the next collect
cp "$KL_TMP/p/run2.json" "$fleet/b.json"
PATH=$KL_TMP/bin:$PATH k fleet collect "$fleet" >"$KL_TMP/out3" 2>/dev/null
tap_check "a whole export that replaced the half-written one lands" \
    grep -q '^b: 18 new runs' "$KL_TMP/out3"

# Slurm's own errors, as they are, when neither command knows the task
printf '#!/bin/sh\necho "slurm_load_jobs error: Unable to contact slurm controller (connect failure)" >&2\nexit 1\n' \
    >"$KL_TMP/bin/squeue"
PATH=$KL_TMP/bin:$PATH k fleet collect "$fleet" >/dev/null 2>"$KL_TMP/err4"
tap_check "squeue's and sacct's errors are shown as they are" \
    grep -q 'state not known (squeue: slurm_load_jobs error: Unable to contact slurm controller (connect failure); sacct: Slurm accounting storage is disabled)' "$KL_TMP/err4"
PATH=$KL_TMP/bin:$PATH k fleet status "$fleet" >/dev/null 2>"$KL_TMP/err5"
tap_check "status with no controller exits 1 with both errors" \
    sh -c "test $? = 1 && grep -q 'Unable to contact slurm controller' '$KL_TMP/err5'"

# a label whose host already pulls another URL is that label's error; the others still land
db2=$KL_TMP/other.db
"$KLADDER" --db "$db2" hosts add a "file://$KL_TMP/p/run1.json" >/dev/null
PATH=$KL_TMP/bin:$PATH "$KLADDER" --db "$db2" fleet collect "$fleet" >"$KL_TMP/out6" 2>"$KL_TMP/err6"
tap_check "a label taken by another source is refused, naming it" \
    grep -q "^a: error: host 'a' already pulls file://" "$KL_TMP/err6"
tap_check "while the other labels land" grep -q '^c: 18 new runs' "$KL_TMP/out6"

# submit: usage errors, Slurm's refusals, the dry run
suite=tests/engine/fixtures/drop_tail.json
k fleet submit --nodes n1 --suite "$suite" >/dev/null 2>"$KL_TMP/u1"
tap_check "submit without --out is a usage error" sh -c "test $? = 2 && grep -q 'expects --out DIR' '$KL_TMP/u1'"
k fleet submit --out "$KL_TMP/f2" --nodes n1,n1 --suite "$suite" >/dev/null 2>"$KL_TMP/u2"
tap_check "two targets of one label are refused" grep -q "two targets are labelled 'n1'" "$KL_TMP/u2"
k fleet submit --out "$KL_TMP/f2" --nodes 'Gpu Box' --suite "$suite" >/dev/null 2>"$KL_TMP/u3"
tap_check "a node name with a space is refused" grep -q "'Gpu Box'" "$KL_TMP/u3"
k fleet submit --out "$KL_TMP/my fleet" --nodes n1 --suite "$suite" >/dev/null 2>"$KL_TMP/u4"
tap_check "a folder that cannot go into the script is refused" grep -q -- '--out path cannot go into the script' "$KL_TMP/u4"
k fleet submit --out "$KL_TMP/f3" --nodes x=n1,y=n2 --partition mi300 --suite "$suite" --rung 1 \
    --backend cpu --time 10 --sbatch --account=lab --dry-run >"$KL_TMP/dry"
tap_check "--dry-run prints a 3-task array" grep -qx '#SBATCH --array=0-2' "$KL_TMP/dry"
tap_check "with the extra #SBATCH lines" grep -qx '#SBATCH --account=lab' "$KL_TMP/dry"
tap_check "and writes nothing" test ! -e "$KL_TMP/f3"
bash -n "$KL_TMP/dry"
tap_check "the printed scripts are valid bash" test $? = 0
printf '#!/bin/sh\necho "sbatch: error: invalid partition specified: gpu" >&2\necho "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2\nexit 1\n' \
    >"$KL_TMP/bin/sbatch"
chmod +x "$KL_TMP/bin/sbatch"
PATH=$KL_TMP/bin:$PATH k fleet submit --out "$KL_TMP/f4" --partition gpu --suite "$suite" \
    >/dev/null 2>"$KL_TMP/u5"
tap_check "sbatch's refusal is shown as it is, exit 2" \
    sh -c "test $? = 2 && grep -q 'Batch job submission failed: Invalid partition name specified' '$KL_TMP/u5'"
k fleet $'bo\033gus' >/dev/null 2>"$KL_TMP/u6"
tap_check "an unknown subcommand is a usage error, escaped" \
    sh -c "test $? = 2 && grep -q \"unknown subcommand 'bo.x1bgus'\" '$KL_TMP/u6'"
echo "1..$_tap_n"

# submit where sbatch cannot submit (no Slurm controller): the error as Slurm says it, exit 2,
# and the fleet folder as it was: the scripts, fleet.targets and logs/ of a fleet that is not
# there are taken back, folders it made too, while what was in a folder before stays
cat >"$KL_TMP/bin/sbatch" <<'SH'
#!/bin/sh
echo 'sbatch: fatal: Could not establish a configuration source' >&2
exit 1
SH
chmod +x "$KL_TMP/bin/sbatch"
PATH=$KL_TMP/bin:$PATH k fleet submit --out "$KL_TMP/new/fleet" --nodes n1,n2 --suite rmsnorm-bf16 \
    >"$KL_TMP/sout" 2>"$KL_TMP/serr"
rc=$?
sed 's/^/# /' "$KL_TMP/serr"
tap_check "submit without a controller: exit 2, Slurm's words" \
    sh -c "test $rc -eq 2 && grep -q 'Could not establish a configuration source' '$KL_TMP/serr'"
tap_check "submit without a controller: nothing left behind, not even the folders it made" \
    test ! -e "$KL_TMP/new"
mkdir -p "$KL_TMP/old/logs"
echo mine >"$KL_TMP/old/notes.txt"
echo earlier >"$KL_TMP/old/logs/task-0.log"
PATH=$KL_TMP/bin:$PATH k fleet submit --out "$KL_TMP/old" --nodes n1 --suite rmsnorm-bf16 \
    >/dev/null 2>&1
tap_check "submit into a folder in use: its own files stay, the scripts go" \
    sh -c "test -f '$KL_TMP/old/notes.txt' && test -f '$KL_TMP/old/logs/task-0.log' &&
           test ! -e '$KL_TMP/old/fleet.sbatch' && test ! -e '$KL_TMP/old/collect.sbatch' &&
           test ! -e '$KL_TMP/old/fleet.targets'"
