#!/usr/bin/env bash
# The H200 runs behind this folder's README: run from the repository root on the GPU machine
# with the bundle of scripts/device-bundle.sh at build/device. Every command runs under a
# time limit (scripts/device-parts.sh), its output kept in $OUT/<part>/<name>.txt, one line per
# command in $OUT/steps.tsv (name, exit status, seconds, command); a failing command never stops
# the next.
#
#   bash bench/results/h200-2026-12-01-c/run.sh PART...    parts: late ranks centre recheck
set -u
cd "$(dirname "$0")/../../.."
. scripts/device-parts.sh

late() {
    local D=$OUT/late
    # aiter-6170 with lag copies (auto: seeds 1-4, behind and ahead), whose async copies land late
    c aiter-6170 200 "$K" --db "$D/r.db" run --case aiter-6170 --backend cuda --no-progress
    # the same bug without lag builds: how often does a plain launch read a tile in flight?
    c aiter-6170-plain 200 "$K" --db "$D/r.db" run --rung 5 --suite aiter-6170 --backend cuda --lag off --repeat 20000 --no-progress
    c aiter-6170-unit-x100 200 bash -c "for i in \$(seq 100); do '$K' --db '$D/u.db' run --rung 5 --suite aiter-6170 --backend cuda --lag off --repeat 1 --variant buggy --no-progress | grep -E '^(pass|fail) +baseline-buggy +r5 unit-test-M32-N1024'; done | awk '{print \$1}' | sort | uniq -c"
    c colsum-r5 120 "$K" --db "$D/r.db" run --rung 5 --suite tests/engine/fixtures/async/colsum.json --backend cuda --no-progress
    c colsum-r1 120 "$K" --db "$D/r.db" run --rung 1 --suite tests/engine/fixtures/async/colsum.json --backend cuda --no-progress
    c aiter-5418 120 "$K" --db "$D/r.db" run --rung 5 --suite aiter-5418 --backend cuda --no-progress
    c sglang-41868 120 "$K" --db "$D/r.db" run --case sglang-41868 --backend cuda --no-progress
    for s in aiter-6127 aiter-5801 flydsl-1213; do
        c "r2-$s" 120 "$K" --db "$D/r.db" run --rung 2 --suite "$s" --backend cuda --no-progress
    done
    c aiter-4841 120 "$K" --db "$D/r.db" run --rung 5 --suite aiter-4841 --backend cuda --no-progress
}

centre() {
    local D=$OUT/centre
    # our own kernel of aiter-6170's class (tests/engine/fixtures/async/centre.kl)
    c centre-r5 200 "$K" --db "$D/r.db" run --rung 5 --suite tests/engine/fixtures/async/centre.json --backend cuda --no-progress
    c centre-plain 200 "$K" --db "$D/r.db" run --rung 5 --suite tests/engine/fixtures/async/centre.json --backend cuda --lag off --repeat 20000 --no-progress
    c centre-unit-x100 200 bash -c "for i in \$(seq 100); do '$K' --db '$D/u.db' run --rung 5 --suite tests/engine/fixtures/async/centre.json --backend cuda --lag off --repeat 1 --variant buggy --no-progress | grep -E '^(pass|fail) +baseline-buggy +r5 unit-test-M32-N1024'; done | awk '{print \$1}' | sort | uniq -c"
}

recheck() {
    local D=$OUT/recheck
    # after the review's tidy-up of the late-landing code and rung 6's hooks: the same verdicts?
    c aiter-6170 200 "$K" --db "$D/r.db" run --case aiter-6170 --backend cuda --no-progress
    c centre-r5 200 "$K" --db "$D/r.db" run --rung 5 --suite tests/engine/fixtures/async/centre.json --backend cuda --no-progress
    c aiter-5418 120 "$K" --db "$D/r.db" run --rung 5 --suite aiter-5418 --backend cuda --no-progress
    c flydsl-1214-one-gpu 200 env KLADDER_RUNG6_ONE_DEVICE=1 "$K" --db "$D/r.db" run --case flydsl-1214 --backend cuda --no-progress
}

ranks() {
    local D=$OUT/ranks
    c flydsl-1214-one-gpu 200 env KLADDER_RUNG6_ONE_DEVICE=1 "$K" --db "$D/r.db" run --case flydsl-1214 --backend cuda --no-progress
    c stale-flag-one-gpu 120 env KLADDER_RUNG6_ONE_DEVICE=1 "$K" --db "$D/r.db" run --rung 6 --suite tests/engine/fixtures/stale_flag.json --backend cuda --no-progress
    c aiter-4812-one-gpu 200 env KLADDER_RUNG6_ONE_DEVICE=1 "$K" --db "$D/r.db" run --case aiter-4812 --backend cuda --no-progress
}

run_parts "$@"
