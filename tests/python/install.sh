#!/usr/bin/env bash
# docs/python.md's install, as a new user runs it: `pip install --no-build-isolation --no-index
# ./python` in a fresh venv (one that sees the system's numpy and pytest, and has no `wheel`
# package of its own) installs the package with its own standard-library build backend, writes
# nothing into the checkout, and the installed package finds the checkout's library by itself.
# With it installed, `pytest -p kladder.pytest_plugin` loads the plugin once (no pluggy "Plugin
# already registered"), and so does plain pytest (the entry point); an op that raises shows its
# own traceback (file, line, the raise), once per ladder, not only the exception's message.
. tests/tap.sh
. tests/python_env.sh numpy pytest
venv=$KL_TMP/venv
if ! $py -m venv --system-site-packages "$venv" >"$KL_TMP/venv.txt" 2>&1; then
    tap_skip "python3 -m venv is not available (python3-venv)"
    exit 0
fi
vpy=$venv/bin/python
# what the checkout holds under python/ before (bytecode aside: other tests may leave some)
listing() { find python ! -path '*__pycache__*' ! -name '*.pyc' | sort; }
listing >"$KL_TMP/before.txt"
$vpy -m pip install --no-build-isolation --no-index ./python >"$KL_TMP/pip.txt" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/pip.txt" | tail -5
tap_check "pip install --no-build-isolation --no-index ./python in a fresh venv: exit 0 ($rc)" test $rc -eq 0
listing >"$KL_TMP/after.txt"
tap_diff "nothing written into the checkout (no python/build, no egg-info)" "$KL_TMP/before.txt" "$KL_TMP/after.txt"
(cd "$KL_TMP" && env -u PYTHONPATH -u KLADDER_LIB $vpy -c '
import os, kladder, kladder._lib as L
print(os.path.dirname(kladder.__file__))
print(L._find())') >"$KL_TMP/where.txt" 2>&1
sed 's/^/# /' "$KL_TMP/where.txt"
tap_check "the package is the venv's, not the checkout's" grep -q "^$venv/lib/python3[.0-9]*/site-packages/kladder\$" "$KL_TMP/where.txt"
tap_check "and without KLADDER_LIB it finds the checkout's build/libkladder.so" \
    grep -qx "$PWD/build/libkladder.so" "$KL_TMP/where.txt"

# A test file of a user's: a correct op, and one that raises three calls deep.
mkdir -p "$KL_TMP/t"
cat >"$KL_TMP/t/test_mine.py" <<'PY'
import kladder

def reference(x):
    return x * 2

def doubled(x):
    return x + x

def scaled(x):
    return _scale(x, 2)

def _scale(x, k):
    raise RuntimeError("scale %d is not supported here" % k)

buffers = {"x": kladder.In("f32", "N"), "y": kladder.Out("f32", "N")}
test_doubled = kladder.Case(doubled, reference, params={"N": 64}, buffers=buffers, rungs=(1,),
                            db=":memory:")
test_scaled = kladder.Case(scaled, reference, params={"N": 64}, buffers=buffers, rungs=(1,),
                           db=":memory:")

def test_fixture(kladder_ladder):
    kladder_ladder(scaled, reference, {"N": 64}, buffers, rungs=(1,), db=":memory:")
PY
for with_p in "-p kladder.pytest_plugin" ""; do
    (cd "$KL_TMP/t" && env -u PYTHONPATH $vpy -m pytest $with_p -p no:cacheprovider -q test_mine.py) \
        >"$KL_TMP/pytest.txt" 2>&1
    rc=$?
    sed 's/^/# /' "$KL_TMP/pytest.txt" | tail -12
    tap_check "pytest ${with_p:-(the entry point)}: runs, the raising op fails (exit $rc)" test $rc -eq 1
    tap_check "pytest ${with_p:-(the entry point)}: no pluggy error, the correct op's checks pass" \
        sh -c "! grep -qi 'already registered' '$KL_TMP/pytest.txt' &&
               grep -qE '^kladder run [0-9a-f-]{36} \(test_doubled\): pass, 4 checks run, 0 failed' '$KL_TMP/pytest.txt'"
done
tap_check "an item of the raising op shows its traceback: the caller's line and the raise" \
    sh -c "grep -qE '^test_mine.py:10: *\$' '$KL_TMP/pytest.txt' && grep -qE '^> +raise RuntimeError' '$KL_TMP/pytest.txt' &&
           grep -qE '^E +RuntimeError: scale 2 is not supported here' '$KL_TMP/pytest.txt'"
tap_check "and then the check it broke" \
    grep -qE '^kladder run [0-9a-f-]{36}, rung 1 check default \(shape N=64\): error .*the op failed: RuntimeError: scale 2' "$KL_TMP/pytest.txt"
# Counted in the failures section: with CI set in the environment, pytest's short summary
# repeats each failure's whole message instead of cutting it at the terminal's width.
sed '/short test summary info/,$d' "$KL_TMP/pytest.txt" >"$KL_TMP/failures.txt"
tap_check "the fixture's failure: the traceback once, the other checks point to it" \
    sh -c "test \$(grep -cE '^E +File \".*test_mine.py\", line 13, in _scale' '$KL_TMP/failures.txt') -eq 1 &&
           test \$(grep -cE '\(the traceback above\)\$' '$KL_TMP/failures.txt') -eq 3"
