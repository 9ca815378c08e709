#!/usr/bin/env bash
# make python-check PYTHON=...: one line naming the interpreter and what it lacks for the
# Python package (numpy) and its plugin (pytest), exit 1; Debian's python3 with both passes;
# something that is no interpreter, or no file, is said to be so.
# kl-test: once (a shell script and interpreters; nothing of ours is compiled in)
. tests/tap.sh
chk() { make -s --no-print-directory python-check PYTHON="$1" >"$KL_TMP/out" 2>&1; }
if /usr/bin/python3 -c 'import numpy, pytest' 2>/dev/null; then
    chk /usr/bin/python3
    rc=$?
    sed 's/^/# /' "$KL_TMP/out"
    tap_check "Debian's python3 with numpy and pytest: exit 0, named" \
        sh -c "test $rc -eq 0 && grep -q '^python-check: /usr/bin/python3 (Python 3\.[0-9]*\.[0-9]*) has numpy and pytest' '$KL_TMP/out'"
else
    tap_skip "python3-numpy or python3-pytest is not installed (scripts/deps.sh --test)"
fi
# an interpreter without either: a venv that does not see the system's packages
if /usr/bin/python3 -m venv --without-pip "$KL_TMP/bare" 2>/dev/null; then
    chk "$KL_TMP/bare/bin/python3"
    rc=$?
    sed 's/^/# /' "$KL_TMP/out"
    tap_check "a bare venv's python3: exit non-zero, it and both lacks named on one line" \
        sh -c "test $rc -ne 0 && grep -q '^python-check: $KL_TMP/bare/bin/python3 (Python [0-9.]*) lacks numpy, pytest: use /usr/bin/python3' '$KL_TMP/out'"
else
    tap_skip "python3 -m venv is not available (python3-venv)"
fi
printf '#!/bin/sh\necho "\033]0;title\007hello"\n' >"$KL_TMP/fake"
chmod +x "$KL_TMP/fake"
chk "$KL_TMP/fake"
rc=$?
sed 's/^/# /' "$KL_TMP/out"
tap_check "a program that is no Python: exit non-zero, said so, its words without control characters" \
    sh -c "test $rc -ne 0 && grep -q 'did not run as a Python interpreter' '$KL_TMP/out' &&
           ! grep -q \$(printf '\033') '$KL_TMP/out'"
chk no-such-python-here
rc=$?
tap_check "a name on no PATH: exit non-zero, says it is not found" \
    sh -c "test $rc -ne 0 && grep -q \"'no-such-python-here' is not an interpreter found on PATH\" '$KL_TMP/out'"
