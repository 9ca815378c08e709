#!/usr/bin/env bash
# The three cases whose bug is not in a kernel (aiter-6360, sglang-33142, aiter-5133): each
# built-in reproducer meets its expectation through `run --case`, and each rung catches its bug
# CLASS, not the reproducer: a suite of this test's own brings a different bug of the same class
# (a merged table with another column damaged another way; another API name moved; another test
# layout run as scripts) and a different correct variant, which must pass.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
run() { "$KLADDER" --db "$KL_TMP/k.db" run --backend cpu --no-progress "$@"; }
for c in aiter-6360 sglang-33142 aiter-5133; do
    run --case $c >"$KL_TMP/$c.txt" 2>&1
    tap_check "$c: run --case meets its expectation" test $? -eq 0
done
tap_check "aiter-6360: the finding counts the damaged cells, each kind with its first line" \
    grep -qF '7 problems as the dispatch reads tables/a6360-merged-buggy.csv: 4 lines from line 2: column ep: empty cell (expected an int); 3 lines from line 6: column ep: expected an int, got "8.0" (an integer written as a float).' "$KL_TMP/aiter-6360.txt"
tap_check "aiter-6360: ... and the shapes left untuned, the first ones whole" \
    grep -qF '7 of 7 production shapes find no tuned row; ' "$KL_TMP/aiter-6360.txt" &&
    grep -qF 'Untuned (tables/a6360-production.csv): line 2 (cu_num=80, M=1, N=7168, K=2048, ep=0); line 3 (cu_num=80, M=16, N=7168, K=2048, ep=0); and 5 more' "$KL_TMP/aiter-6360.txt"
tap_check "sglang-33142: names the moved name, where it went, the caller that fell back and the one that raised" \
    grep -qE 'flykern.expr.buffer_ops is not in this release \(moved to flykern._src.*rmsnorm_call fell back.*gather_call raised ImportError' "$KL_TMP/sglang-33142.txt"
tap_check "aiter-5133: names the files and the counts" \
    grep -qF 'test_flydsl_grouped_gemm.py defines 5, executed 0; test_silu_mul.py defines 2, executed 0' "$KL_TMP/aiter-5133.txt"

d=$KL_TMP/suite
mkdir -p "$d/t" "$d/lib-1/gridkit" "$d/lib-2/gridkit/runtime" "$d/good/app" "$d/bad/app" "$d/ops" "$d/ops/sub"
cp kernels/flydsl_1153.kl "$d/"
head -n 18 kernels/suites/aiter-5133.json | sed 's/"name": "aiter-5133"/"name": "class-test"/' >"$d/head.json"
# rung 3: a different table (tile sizes), a different damage (an int column quoted with a
# thousands separator by a spreadsheet export); the correct merge keeps them plain.
cat >"$d/t/schema.json" <<'J'
{"format": "kladder-config-schema", "version": 1,
 "columns": {"arch": "string", "tokens": "int", "block_m": "int", "splits": "int"},
 "key": ["arch", "tokens"]}
J
printf 'arch,tokens,block_m,splits\ngfx942,512,64,2\ngfx942,4096,128,4\n' >"$d/t/a.csv"
printf 'arch,tokens,block_m,splits\ngfx950,16384,256,8\n' >"$d/t/b.csv"
printf 'arch,tokens,block_m,splits\ngfx942,512,64,2\ngfx942,"4,096",128,4\ngfx950,"16,384",256,8\n' >"$d/t/bad.csv"
printf 'arch,tokens,splits,block_m\ngfx950,16384,8,256\ngfx942,512,2,64\ngfx942,4096,4,128\n' >"$d/t/good.csv"
printf 'arch,tokens\ngfx942,512\ngfx942,4096\ngfx950,16384\n' >"$d/t/prod.csv"
{ cat "$d/head.json"; cat <<'J'
  "rungs": {"3": {"shapes": [{"name": "default"}],
    "tuned_table": {"schema": "t/schema.json", "tables": ["t/a.csv", "t/b.csv"],
                    "merged": {"fixed": "t/good.csv", "buggy": "t/bad.csv"}, "production": "t/prod.csv"}}}
}
J
} >"$d/table.json"
run --rung 3 --suite "$d/table.json" >"$KL_TMP/table.txt" 2>&1
tap_check "another merged table: expectation met" test $? -eq 0
tap_check "... the thousands separators named, each with its line" \
    grep -qF 'line 3: column tokens: expected an int, got "4,096"; line 4: column tokens' "$KL_TMP/table.txt"
tap_check "... and the two shapes left untuned, not the intact one" \
    grep -qF 'Untuned (t/prod.csv): line 3 (arch=gfx942, tokens=4096); line 4' "$KL_TMP/table.txt"
tap_check "... the reordered correct merge passes" grep -qE '^pass +fixed +r3 tuned-table' "$KL_TMP/table.txt"

# A merge the size of a real one: 400 rows, every tokens cell written as a float, each a value
# of its own. The finding states the counts and the first few, whole, not 400 lines cut off.
awk 'BEGIN { print "arch,tokens,block_m,splits"; for (i = 1; i <= 400; i++) print "gfx942," i * 16 ".0,64,2" }' >"$d/t/big-bad.csv"
awk 'BEGIN { print "arch,tokens,block_m,splits"; for (i = 1; i <= 400; i++) print "gfx942," i * 16 ",64,2" }' >"$d/t/big-good.csv"
awk 'BEGIN { print "arch,tokens"; for (i = 1; i <= 400; i++) print "gfx942," i * 16 }' >"$d/t/big-prod.csv"
sed 's/t\/bad.csv/t\/big-bad.csv/; s/t\/good.csv/t\/big-good.csv/; s/t\/prod.csv/t\/big-prod.csv/' "$d/table.json" >"$d/big.json"
run --rung 3 --suite "$d/big.json" --json >"$KL_TMP/big.json" 2>"$KL_TMP/big.err"
tap_check "a 400-row damaged merge: expectation met" test $? -eq 0
python3 - "$KL_TMP/big.json" >"$KL_TMP/big.detail" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
print(next(c["detail"] for c in d["checks"] if c["variant"] == "buggy" and c["check"] == "tuned-table"))
P
tap_check "... 400 problems, the first three whole and how many more" \
    grep -qF '400 problems as the dispatch reads t/big-bad.csv: line 2: column tokens: expected an int, got "16.0" (an integer written as a float); line 3: column tokens: expected an int, got "32.0" (an integer written as a float); line 4: column tokens: expected an int, got "48.0" (an integer written as a float); and 397 more.' "$KL_TMP/big.detail"
tap_check "... 400 of 400 shapes untuned, counted past the 20 the lookup names, the first two shown" \
    grep -qF '400 of 400 production shapes find no tuned row;' "$KL_TMP/big.detail" &&
    grep -qF 'Untuned (t/big-prod.csv): line 2 (arch=gfx942, tokens=16); line 3 (arch=gfx942, tokens=32); and 398 more' "$KL_TMP/big.detail"
tap_check "... and the finding ends where it means to, not cut off" \
    test "$(tail -c 9 "$KL_TMP/big.detail")" = "398 more"

# rung 7, api: another library, another moved name (a function moved into a submodule), the
# guarded caller falling back through a None check, the unguarded one at module level.
echo '' >"$d/lib-1/gridkit/__init__.py"
printf 'def launch_grid(n):\n    return [i * 2 for i in range(n)]\n' >"$d/lib-1/gridkit/launch.py"
echo '' >"$d/lib-2/gridkit/__init__.py"
echo '' >"$d/lib-2/gridkit/launch.py"
echo '' >"$d/lib-2/gridkit/runtime/__init__.py"
printf 'def launch_grid(n):\n    return [i * 2 for i in range(n)]\n' >"$d/lib-2/gridkit/runtime/grids.py"
printf 'def launch_grid(n):\n    return [i * 2 for i in range(n)]\n' >>"$d/lib-1/gridkit/__init__.py"
printf 'def launch_grid(n):\n    from gridkit.runtime.grids import launch_grid as g\n    return g(n)\n' >>"$d/lib-2/gridkit/__init__.py"
echo '' >"$d/bad/app/__init__.py"
printf 'try:\n    from gridkit.launch import launch_grid\nexcept ImportError:\n    launch_grid = None\n\ndef run():\n    return launch_grid(4) if launch_grid else [0, 2, 4, 6]\n' >"$d/bad/app/sched.py"
printf 'from gridkit.launch import launch_grid\n\ndef run():\n    return launch_grid(3)\n' >"$d/bad/app/warm.py"
echo '' >"$d/good/app/__init__.py"
printf 'import gridkit\n\ndef run():\n    return gridkit.launch_grid(4)\n' >"$d/good/app/sched.py"
printf 'from gridkit import launch_grid\n\ndef run():\n    return launch_grid(3)\n' >"$d/good/app/warm.py"
{ cat "$d/head.json"; cat <<'J'
  "rungs": {"7": {"api": {"library": "gridkit", "releases": ["lib-1", "lib-2"],
    "callers": {"fixed": "good", "buggy": "bad"}, "calls": ["app.sched:run", "app.warm:run"]}}}
}
J
} >"$d/api.json"
run --rung 7 --suite "$d/api.json" >"$KL_TMP/api.txt" 2>&1
tap_check "another moved name: expectation met" test $? -eq 0
tap_check "... gridkit.launch.launch_grid named, and the public gridkit that now has it" \
    grep -qF 'gridkit.launch.launch_grid is not in this release (moved to gridkit;' "$KL_TMP/api.txt"
tap_check "... app.sched:run fell back, app.warm:run raised" \
    grep -qE 'app.sched:run fell back.*app.warm:run raised ImportError' "$KL_TMP/api.txt"
tap_check "... the public-API callers pass both releases" \
    test "$(grep -cE '^pass +fixed +r7 api:lib-' "$KL_TMP/api.txt")" -eq 2

# rung 7, ci: another layout (a test class and a nested folder's helper, unittest-style
# asserts) where the fixed CI runs pytest; a file that runs its own tests passes either way.
printf 'class TestQuant:\n    def test_a(self):\n        assert 1\n\n    def test_b(self):\n        assert 2\n' >"$d/ops/test_quant.py"
printf 'def test_self():\n    assert True\n\nif __name__ == "__main__":\n    test_self()\n' >"$d/ops/test_selfrun.py"
printf 'def helper():\n    return 1\n' >"$d/ops/sub/util.py"
{ cat "$d/head.json"; cat <<'J'
  "rungs": {"7": {"ci": {"tests": "ops", "runner": {"fixed": "pytest", "buggy": "script"}}}}
}
J
} >"$d/ci.json"
run --rung 7 --suite "$d/ci.json" >"$KL_TMP/ci.txt" 2>&1
tap_check "another test layout: expectation met" test $? -eq 0
tap_check "... the class's tests counted, none executed" grep -qF 'test_quant.py defines 2, executed 0' "$KL_TMP/ci.txt"
tap_check "... the exit status passes both" test "$(grep -cE '^pass +baseline-(fixed|buggy) +r7 ci-exit-status' "$KL_TMP/ci.txt")" -eq 2
