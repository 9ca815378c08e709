#!/usr/bin/env bash
# Runs every test of kladder twice: on the normal build and on the ASan+UBSan build.
#
#   tests/run.sh [--plain|--asan] [--quick] [--list] [-j N] [PATTERN...]
#
# --plain runs only the normal build's pass, --asan only the sanitizer build's. --quick is the
# edit loop's tier: the normal build only, without the tests that took more than KL_QUICK_MAX
# (default 8) wall seconds on the normal build in tests/test-times.tsv, the times of a whole run
# kept with the tests (a test not in it yet stays in the tier). -j N runs N tests at
# once (default: the number of cores). --list prints the labels of the tests it would run, one
# a line, and runs none. A PATTERN keeps the tests whose label contains it (a shell
# pattern: * and ? work), e.g. engine/rung6, test_results_json, 'importers/pull_*'; several
# PATTERNs keep what any of them keeps. Labels are what the report prints:
# build/test_results_json, build/asan/tests/engine/rung6.sh. See tests/README.md.
#
# A test is a cmocka binary (build*/tests/test_*) or a script tests/<group>/*.sh. Every test
# speaks TAP: lines "ok N - name" and "not ok N - name" are counted; a test that exits non-zero
# without reporting a failure counts as one failure of its own. Scripts get:
#   KLADDER   the binary under test      KL_BUILD   its build folder
#   KL_SAN    1 on the sanitizer pass    KL_TMP     a fresh scratch folder, removed afterwards
#   KL_CACHE  the compile cache the scripts share (a test of the cache itself keeps its own under
#             KL_TMP); both passes share it, since a kernel's code object depends on the kernel,
#             the compiler and its flags (all in the key), never on how kladder itself was built
# A script's header may carry marks, each on a line of its own:
#   # kl-test: once   nothing of ours runs that the sanitizers could check (only outside
#                     compilers and readers are driven): it runs on the first pass only
# Tests share no state, so they run side by side; the longest (by build/test-times.tsv, the
# last run's times, or tests/test-times.tsv in a fresh clone) start first. The last line is "N passed, N failed" (and ", N skipped"
# when any test said "# SKIP").
set -u
usage() {
    echo "usage: tests/run.sh [--plain|--asan] [--quick] [--list] [-j N] [PATTERN...]" >&2
    exit 2
}
builds=(build build/asan)
patterns=()
quick=0
list=0
jobs=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
    case $1 in
        --plain) builds=(build) ;;
        --asan) builds=(build/asan) ;;
        --quick) quick=1; builds=(build) ;;
        --list) list=1 ;;
        -j) [ $# -ge 2 ] || usage; jobs=$2; shift ;;
        -j*) jobs=${1#-j} ;;
        -h|--help) usage ;;
        -*) echo "tests/run.sh: unknown option $1" >&2; usage ;;
        *) patterns+=("$1") ;;
    esac
    shift
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "tests/run.sh: -j expects a positive number, got '$jobs'" >&2; usage; }
cd "$(dirname "$0")/.."
root=$PWD
logdir=$root/build/test-logs
resdir=$root/build/test-results
times=$root/build/test-times.tsv

wanted() { # $1 label: kept by a pattern, or no pattern given
    [ ${#patterns[@]} -eq 0 ] && return 0
    local p
    for p in "${patterns[@]}"; do
        # shellcheck disable=SC2053
        [[ $1 == *$p* ]] && return 0
    done
    return 1
}
marked() { # $1 script, $2 mark: the script's header says "# kl-test: $2"
    head -n 30 "$1" | grep -q -E "^# kl-test:.*\b$2\b"
}
export LC_ALL=C.UTF-8 TERM=xterm-256color
unset NO_COLOR
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98
export CMOCKA_MESSAGE_OUTPUT=TAP
# The tests' python3 is the system's (the one scripts/deps.sh gives numpy and pytest), ahead of
# an interpreter manager's shim on PATH: such a shim is a shell script that costs a tenth of a
# second of processor per call, and the scripts call python3 hundreds of times.
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
    pybin=$root/build/test-bin
    mkdir -p "$pybin"
    ln -sf /usr/bin/python3 "$pybin/python3"
    export PATH=$pybin:$PATH
fi

# The quick tier leaves out what the kept times say is slow, so it follows the suite as it is
# timed (a fixed file: the tier is the same on every machine and on a loaded one).
declare -A slow=()
if [ $quick = 1 ]; then
    quick_max=${KL_QUICK_MAX:-8}
    [[ $quick_max =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
        { echo "tests/run.sh: KL_QUICK_MAX expects seconds, got '$quick_max'" >&2; exit 2; }
    while IFS= read -r label; do
        slow[$label]=1
    done < <(awk -F'\t' -v m="$quick_max" '$1 !~ /^build\/asan\// && $2 + 0 > m + 0 { print $1 }' \
                 "$root/tests/test-times.tsv")
fi

# ---- the plan: one line per test, "label<TAB>build<TAB>kind<TAB>path" ------------------------
plan=()
missing=0
first_pass=1
for build in "${builds[@]}"; do
    [ -x "$build/kladder" ] || { echo "missing $build/kladder: run make first"; missing=$((missing + 1)); continue; }
    for t in "$build"/tests/test_*; do
        [ -x "$t" ] || continue
        wanted "$build/${t##*/}" || continue
        [ -z "${slow[$build/${t##*/}]:-}" ] || continue
        plan+=("$build/${t##*/}"$'\t'"$build"$'\t'bin$'\t'"$t")
    done
    for group in unitsh screen engine gpu importers e2e python; do
        for s in tests/$group/*.sh; do
            [ -f "$s" ] || continue
            wanted "$build/$s" || continue
            [ $first_pass = 1 ] || ! marked "$s" once || continue
            [ -z "${slow[$build/$s]:-}" ] || continue
            plan+=("$build/$s"$'\t'"$build"$'\t'sh$'\t'"$s")
        done
    done
    first_pass=0
done

if [ $list = 1 ]; then
    for p in "${plan[@]}"; do printf '%s\n' "${p%%$'\t'*}"; done
    exit 0
fi
rm -rf "$logdir" "$resdir"
mkdir -p "$logdir" "$resdir"

# Longest first, so that the pool does not end on one long test alone: by the last run's times,
# else (a fresh clone) by tests/test-times.tsv, the times of a whole run kept with the tests; a
# test not timed yet counts as long.
#
# Each test also gets a weight, the share of a core it kept busy in that run (its processor
# seconds over its wall seconds, in percent, at least 34, at most 100): a test that mostly waits
# (a TUI driven through tmux, a pull from a slow server, a hang that waits out its limit) takes a
# third of a slot, so the cores are not left idle while it waits. A test not timed yet weighs 100.
known=$times
[ -f "$known" ] || known=$root/tests/test-times.tsv
[ -f "$known" ] || known=/dev/null
order=()
declare -A weight=()
while IFS=$'\t' read -r i w; do
    order+=("$i")
    weight[$i]=$w
done < <(
    for i in "${!plan[@]}"; do printf '%s\t%s\n' "${plan[$i]%%$'\t'*}" "$i"; done |
        awk -F'\t' 'FILENAME != "-" { wall[$1] = $2; cpu[$1] = $3; next }
            {
                w = 100; t = 100000
                if ($1 in wall) {
                    t = wall[$1]
                    if (t > 0 && cpu[$1] != "") w = int(100 * cpu[$1] / t)
                    if (w < 34) w = 34
                    if (w > 100) w = 100
                }
                printf "%s\t%s\t%s\n", t, $2, w
            }' "$known" - | sort -t$'\t' -k1,1nr -k2,2n | cut -f2,3)

# ---- one test ---------------------------------------------------------------------------------
run_one() { # $1 index into plan: writes its result file "ok nok skip seconds", prints its line
    local label build kind path
    IFS=$'\t' read -r label build kind path <<<"${plan[$1]}"
    local log="$logdir/$(echo "$label" | tr '/ ' '__').log"
    local san=0
    [ "$build" = build/asan ] && san=1
    export KLADDER=$root/$build/kladder KL_BUILD=$root/$build KL_SAN=$san
    export KL_CACHE=$root/build/test-cache
    mkdir -p "$KL_CACHE"
    local t0 t1 rc cpu
    # the processor seconds (user + system, the test's own and its children's) beside the wall
    # time: on a loaded machine the wall time says little of a test's own cost
    local TIMEFORMAT='%3U %3S'
    t0=$(date +%s.%N)
    local attempt rerun=
    for attempt in 1 2; do
        if [ "$kind" = bin ]; then
            cpu=$( { time "$path" >"$log" 2>&1 </dev/null; } 2>&1 )
            rc=$?
        else
            KL_TMP=$(mktemp -d)
            # a user's own themes or settings never reach a test
            XDG_CONFIG_HOME=$KL_TMP/config
            export KL_TMP XDG_CONFIG_HOME
            cpu=$( { time bash "$path" >"$log" 2>&1 </dev/null; } 2>&1 )
            rc=$?
            rm -rf "$KL_TMP"
        fi
        # LeakSanitizer's own tracer now and then dies while it stops a process's threads at
        # exit ("LeakSanitizer has encountered a fatal error": a known fault of the tool, which
        # reports no leak and which a second run does not meet): a test that failed with that
        # line, and only such a test, runs once more; the first log is kept beside the second.
        [ $attempt = 1 ] && [ $san = 1 ] && grep -q 'LeakSanitizer has encountered a fatal error' "$log" &&
            { [ "$rc" -ne 0 ] || grep -q -E '^not ok [0-9]+' "$log"; } || break
        mv "$log" "${log%.log}.lsan-fault.log"
        rerun="    run twice: LeakSanitizer's tracer died in the first run (${log#"$root"/}, .log -> .lsan-fault.log)"
    done
    t1=$(date +%s.%N)
    cpu=$(awk '{ printf "%.1f", $1 + $2 }' <<<"$cpu")
    local ok nok skip
    ok=$(grep -c -E '^ok [0-9]+' "$log")
    skip=$(grep -c -E '^ok [0-9]+.*# ?SKIP' "$log")
    nok=$(grep -c -E '^not ok [0-9]+' "$log")
    ok=$((ok - skip))
    if [ "$rc" -ne 0 ] && [ "$nok" -eq 0 ]; then
        nok=1
        echo "not ok 0 - $label exited with status $rc" >>"$log"
    fi
    if [ "$ok" -eq 0 ] && [ "$nok" -eq 0 ] && [ "$skip" -eq 0 ]; then
        nok=1
        echo "not ok 0 - $label reported no test at all" >>"$log"
    fi
    local secs
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    echo "$ok $nok $skip $secs $cpu" >"$resdir/$1"
    local out
    out=$(printf '%-52s %4d ok %3d failed %3d skipped %6ss' "$label" "$ok" "$nok" "$skip" "$secs")
    [ -z "$rerun" ] || out+=$'\n'"$rerun"
    if [ "$nok" -gt 0 ]; then
        out+=$'\n'$(grep -E '^not ok' "$log" | head -n 20 | sed 's/^/    /')
        out+=$'\n'"    (log: ${log#"$root"/})"
    fi
    printf '%s\n' "$out"
}

# ---- the pool ---------------------------------------------------------------------------------
# A test starts while the weights of those running leave room for it (100 a job); the longest
# still waits for room rather than being overtaken, so the order above holds.
declare -A running_w=()
load=0
for i in "${order[@]}"; do
    while [ ${#running_w[@]} -gt 0 ] && [ $((load + weight[$i])) -gt $((jobs * 100)) ]; do
        done_pid=
        wait -n -p done_pid
        if [ -z "$done_pid" ]; then # nothing left to wait for (never expected)
            running_w=()
            load=0
            break
        fi
        load=$((load - running_w[$done_pid]))
        unset "running_w[$done_pid]"
    done
    run_one "$i" &
    running_w[$!]=${weight[$i]}
    load=$((load + weight[$i]))
done
wait

# ---- the summary ------------------------------------------------------------------------------
passed=0 failed=$missing skipped=0 ran=0
failures=()
: >"$times.new"
for i in "${!plan[@]}"; do
    label=${plan[$i]%%$'\t'*}
    ran=$((ran + 1))
    if [ ! -f "$resdir/$i" ]; then
        failed=$((failed + 1)); failures+=("$label (no result)")
        continue
    fi
    read -r ok nok skip secs cpu <"$resdir/$i"
    passed=$((passed + ok)); failed=$((failed + nok)); skipped=$((skipped + skip))
    [ "$nok" -gt 0 ] && failures+=("$label")
    printf '%s\t%s\t%s\n' "$label" "$secs" "$cpu" >>"$times.new"
done
# keep the times of tests this run left out, so a partial run does not forget them
if [ -f "$times" ]; then
    awk -F'\t' 'NR == FNR { seen[$1] = 1; next } !($1 in seen)' "$times.new" "$times" >>"$times.new"
fi
sort -t$'\t' -k2,2nr "$times.new" >"$times"
rm -f "$times.new"
rm -rf "$resdir"

if [ "$ran" -eq 0 ] && [ ${#patterns[@]} -gt 0 ]; then
    # a mistyped pattern must not look like a clean run
    failed=$((failed + 1))
    failures+=("(no test label matches: ${patterns[*]})")
fi

if [ "$ran" -gt 0 ]; then
    echo
    echo "slowest (wall and processor seconds; all in ${times#"$root"/}):"
    for i in "${!plan[@]}"; do
        label=${plan[$i]%%$'\t'*}
        awk -F'\t' -v l="$label" '$1 == l' "$times"
    done | sort -t$'\t' -k2,2nr | head -n 10 | awk -F'\t' '{ printf "  %7ss  %7s cpu  %s\n", $2, ($3 == "" ? "?" : $3 "s"), $1 }'
fi
echo
if [ ${#failures[@]} -gt 0 ]; then
    echo "failed: ${failures[*]}"
fi
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
