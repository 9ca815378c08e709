#!/usr/bin/env bash
# The H200 runs behind this folder's README: run from the repository root on the GPU machine
# with the bundle of scripts/device-bundle.sh at build/device. Every command runs under a
# time limit (scripts/device-parts.sh), its output kept in $OUT/<part>/<name>.txt, one line per
# command in $OUT/steps.tsv (name, exit status, seconds, command); a failing command never stops
# the next.
#
#   bash bench/results/h200-2026-12-01-b/run.sh PART...    parts: xhost async model lag rare sanitizer
set -u
cd "$(dirname "$0")/../../.."
. scripts/device-parts.sh

xhost() {
    local D=$OUT/xhost
    c flydsl-1228 120 "$K" --db "$D/r.db" run --case flydsl-1228 --backend cuda --no-progress
    c aiter-4987 120 "$K" --db "$D/r.db" run --case aiter-4987 --backend cuda --no-progress
    c micro-run1 120 "$K" --db "$D/run1.db" run --rung 7 --suite timing-micro --backend cuda --no-progress
    c micro-run2 120 "$K" --db "$D/run2.db" run --rung 7 --suite timing-micro --backend cuda --no-progress
    c micro-cpu 180 "$K" --db "$D/cpu.db" run --rung 7 --suite timing-micro --backend cpu --no-progress
    sh_c export 60 "'$K' --db '$D/run1.db' export > '$D/h200-run1.json' && '$K' --db '$D/run2.db' export > '$D/h200-run2.json' && '$K' --db '$D/cpu.db' export > '$D/cpu.json'"
    sh_c compare-h200-h200 60 "'$K' --db '$D/run1.db' pull file://$D/h200-run2.json && '$K' --db '$D/run1.db' compare local \$(hostname) --rung 7"
    sh_c compare-cpu-h200 60 "'$K' --db '$D/cpu.db' pull file://$D/h200-run1.json && '$K' --db '$D/cpu.db' compare local \$(hostname) --rung 7"
    sh_c cross-host-suite 120 "cp kernels/timing_micro.kl '$D/' && python3 - '$D' <<'PY'
import json, sys
d = sys.argv[1]
m = json.load(open('kernels/suites/timing-micro.json'))
m['name'] = 'h200-xhost'; m.pop('control', None)
m['rungs']['7']['hosts'] = {'fixed': [d + '/h200-run1.json', d + '/h200-run2.json'],
                            'buggy': [d + '/h200-run1.json', d + '/cpu.json']}
json.dump(m, open(d + '/h200-xhost.json', 'w'), indent=1)
PY
'$K' --db '$D/x.db' run --rung 7 --suite '$D/h200-xhost.json' --backend cuda --no-progress"
}

async() {
    local D=$OUT/async
    c compile 120 "$K" compile --backend cuda --target sm_90 kernels/aiter_5418.kl kernels/aiter_6170.kl kernels/sglang_41868.kl tests/engine/fixtures/async/colsum.kl
    c aiter-5418 120 "$K" --db "$D/r.db" run --rung 5 --suite aiter-5418 --backend cuda --no-progress
    c aiter-6170 120 "$K" --db "$D/r.db" run --rung 5 --suite aiter-6170 --backend cuda --no-progress
    c sglang-41868-r1 120 "$K" --db "$D/r.db" run --rung 1 --suite sglang-41868 --backend cuda --no-progress
    c sglang-41868-r5 120 "$K" --db "$D/r.db" run --rung 5 --suite sglang-41868 --backend cuda --no-progress
    c colsum 120 "$K" --db "$D/r.db" run --rung 1 --suite tests/engine/fixtures/async/colsum.json --backend cuda --no-progress
}

model() {
    local D=$OUT/model
    c model-large 200 "$K" --db "$D/r.db" run --rung 8 --suite model-large --backend cuda --no-progress
    c model-large-6402 200 "$K" --db "$D/r.db" run --rung 8 --suite model-large --case aiter-6402 --backend cuda --no-progress
    c model-large-2533 200 "$K" --db "$D/r.db" run --rung 8 --suite model-large --case atom-2533 --backend cuda --no-progress
    c model 120 "$K" --db "$D/r.db" run --rung 8 --suite model --backend cuda --no-progress
    c model-1213 120 "$K" --db "$D/r.db" run --rung 8 --case flydsl-1213 --backend cuda --no-progress
    c model-6127 120 "$K" --db "$D/r.db" run --rung 8 --case aiter-6127 --backend cuda --no-progress
}

lag() {
    local D=$OUT/lag
    c aiter-6127 200 "$K" --db "$D/r.db" run --case aiter-6127 --backend cuda --no-progress
    c aiter-6127-lag-off 200 "$K" --db "$D/r.db" run --case aiter-6127 --backend cuda --lag off --no-progress
    c flydsl-1020 200 "$K" --db "$D/r.db" run --case flydsl-1020 --backend cuda --no-progress
    c delay-line-r2 120 "$K" --db "$D/r.db" run --rung 2 --suite tests/engine/fixtures/lag/delay_line.json --backend cuda --no-progress
    c delay-line-r5 120 "$K" --db "$D/r.db" run --rung 5 --suite tests/engine/fixtures/lag/delay_line.json --backend cuda --no-progress
    c delay-line-r2-off 120 "$K" --db "$D/r.db" run --rung 2 --suite tests/engine/fixtures/lag/delay_line.json --backend cuda --lag off --no-progress
    for s in aiter-5801 atom-1750 flydsl-1213; do
        c "r2-$s" 120 "$K" --db "$D/r.db" run --rung 2 --suite "$s" --backend cuda --no-progress
    done
}

rare() {
    local D=$OUT/rare
    c aiter-4841 120 "$K" --db "$D/r.db" run --rung 5 --suite aiter-4841 --backend cuda --no-progress
    c flydsl-1214-one-gpu 120 env KLADDER_RUNG6_ONE_DEVICE=1 "$K" --db "$D/r.db" run --rung 6 --suite flydsl-1214 --backend cuda --no-progress
    c late-oob 120 "$K" --db "$D/r.db" run --rung 5 --suite tests/engine/fixtures/late_oob.json --backend cuda --no-progress
    c repeat-bench-1e6 120 env KLADDER="$K" bench/repeat_rate.sh --backend cuda --repeats 1000000
    c repeat-bench 300 env KLADDER="$K" bench/repeat_rate.sh --backend cuda
}

ahead() {
    local D=$OUT/ahead
    c aiter-4841 120 "$K" --db "$D/r.db" run --rung 5 --suite aiter-4841 --backend cuda --no-progress
    c aiter-4841-lag-behind-only 120 "$K" --db "$D/r.db" run --rung 5 --suite aiter-4841 --backend cuda --lag 1,2,3,4 --no-progress
    c aiter-6127-r2 120 "$K" --db "$D/r.db" run --rung 2 --suite aiter-6127 --backend cuda --no-progress
    for s in aiter-5801 atom-1750 flydsl-1213 flydsl-1020; do
        c "r2-$s" 120 "$K" --db "$D/r.db" run --rung 2 --suite "$s" --backend cuda --no-progress
    done
    c clip-flag-r5 120 "$K" --db "$D/r.db" run --rung 5 --suite tests/engine/fixtures/lag/clip_flag.json --backend cuda --no-progress
    c clip-flag-r5-behind-only 120 "$K" --db "$D/r.db" run --rung 5 --suite tests/engine/fixtures/lag/clip_flag.json --backend cuda --lag 1,2,3,4 --no-progress
    c aiter-5418 120 "$K" --db "$D/r.db" run --rung 5 --suite aiter-5418 --backend cuda --no-progress
}

rare_long() {
    local D=$OUT/rare_long
    # 2.99e7 repeats of the buggy kernel without lag copies: does the plain race show at all?
    c aiter-4841-auto 300 "$K" --db "$D/r.db" run --rung 5 --suite aiter-4841 --backend cuda --variant buggy --lag off --repeat auto --rate 1e-7 --confidence 0.95 --timeout 280 --no-progress
}

sanitizer() {
    local D=$OUT/sanitizer
    export XDG_DATA_HOME=$D/data # the tool's reports stay under it, and come back
    sh_c where 10 "command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer"
    c racecheck-leaders 100 "$K" --db "$D/r.db" run --rung 5 --suite tests/engine/fixtures/race/leaders.json --backend cuda --repeat 1 --timeout 5 --sanitizer racecheck --no-progress
    c synccheck-xblock 100 "$K" --db "$D/r.db" run --rung 5 --suite tests/engine/fixtures/race/xblock.json --backend cuda --repeat 1 --timeout 5 --sanitizer synccheck --no-progress
    c racecheck-xblock 100 "$K" --db "$D/r.db" run --rung 5 --suite tests/engine/fixtures/race/xblock.json --backend cuda --repeat 1 --timeout 5 --sanitizer racecheck --no-progress
    c memcheck-aiter-6402 100 "$K" --db "$D/r.db" run --rung 1 --suite aiter-6402 --backend cuda --timeout 5 --sanitizer memcheck --no-progress
    c memcheck-sglang-41868 100 "$K" --db "$D/r.db" run --rung 1 --suite sglang-41868 --backend cuda --timeout 5 --sanitizer memcheck --no-progress
    for s in aiter-4987 aiter-6344-tail flydsl-1020 flydsl-1264 sglang-41868; do
        c "racecheck-fixed-$s" 100 "$K" --db "$D/r.db" run --rung 1 --suite "$s" --backend cuda --variant fixed --timeout 5 --sanitizer racecheck --no-progress
    done
    c racecheck-fixed-aiter-6127-r2 100 "$K" --db "$D/r.db" run --rung 2 --suite aiter-6127 --backend cuda --variant fixed --lag off --timeout 5 --sanitizer racecheck --no-progress
    unset XDG_DATA_HOME
    c aiter-4812-one-gpu 120 env KLADDER_RUNG6_ONE_DEVICE=1 "$K" --db "$D/r.db" run --case aiter-4812 --backend cuda --no-progress
}

run_parts "$@"
