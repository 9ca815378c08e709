"""kladder's CI tracer (rung 7, aiter-5133): runs a test folder the way a CI job does and records,
from inside the Python process, which test functions really executed.

usage: python3 ci_trace.py script|pytest TESTDIR JUNIT_OUT

script: every test_*.py file is run on its own as `python3 FILE` (the buggy CI's form).
pytest: the folder is run by `python3 -m pytest` (the test runner).
A profile hook counts each function named test* defined in a file of TESTDIR that was called:
evidence, not the runner's own report. Writes JUnit XML to JUNIT_OUT (one <testsuite> per test
file, one <testcase> per function executed) and one JSON line per file on stdout:
{"file": NAME, "defined": N, "status": EXIT} (defined: test functions a test runner collects,
module-level def test* and methods test* of classes Test*). Exit status 0 unless it cannot run.
"""
import ast
import json
import os
import subprocess
import sys
from xml.sax.saxutils import quoteattr

BOOT = r"""
import atexit, json, os, runpy, sys
root = os.path.realpath(sys.argv[1]); out = sys.argv[2]; mode = sys.argv[3]
seen = set()
def prof(frame, event, arg):
    if event == 'call':
        c = frame.f_code
        if c.co_name.startswith('test'):
            f = os.path.realpath(c.co_filename)
            if f.startswith(root + os.sep):
                seen.add((os.path.relpath(f, root), c.co_name, c.co_firstlineno))
def dump():
    sys.setprofile(None)
    with open(out, 'a') as fh:
        for f, n, l in sorted(seen):
            fh.write(json.dumps({'file': f, 'name': n, 'line': l}) + '\n')
atexit.register(dump)
sys.setprofile(prof)
if mode == 'pytest':
    import pytest
    sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', root]))
sys.argv = sys.argv[4:]
sys.path.insert(0, os.path.dirname(sys.argv[0]))
runpy.run_path(sys.argv[0], run_name='__main__')
"""


def defined(path):
    """Test functions a test runner collects from the file."""
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), path)
    n = 0
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            n += 1
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            n += sum(1 for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and m.name.startswith("test"))
    return n


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("script", "pytest"):
        sys.stderr.write("usage: ci_trace.py script|pytest TESTDIR JUNIT_OUT\n")
        return 2
    mode, root, junit = sys.argv[1], os.path.realpath(sys.argv[2]), sys.argv[3]
    files = sorted(f for f in os.listdir(root) if f.startswith("test") and f.endswith(".py"))
    trace = junit + ".trace"
    open(trace, "w").close()
    status = {}
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    if mode == "script":
        for f in files:
            p = subprocess.run([sys.executable, "-c", BOOT, root, trace, mode, os.path.join(root, f)],
                               cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            status[f] = p.returncode
    else:
        p = subprocess.run([sys.executable, "-c", BOOT, root, trace, mode], cwd=root, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for f in files:
            status[f] = p.returncode
    ran = {f: set() for f in files}
    with open(trace) as fh:
        for line in fh:
            r = json.loads(line)
            if r["file"] in ran:
                ran[r["file"]].add((r["name"], r["line"]))
    os.unlink(trace)
    with open(junit, "w") as fh:
        fh.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n')
        for f in files:
            fh.write('<testsuite name=%s tests="%d">\n' % (quoteattr(f), len(ran[f])))
            for name, line in sorted(ran[f]):
                fh.write('<testcase classname=%s name=%s/>\n' % (quoteattr(f), quoteattr(name)))
            fh.write('</testsuite>\n')
        fh.write('</testsuites>\n')
    for f in files:
        print(json.dumps({"file": f, "defined": defined(os.path.join(root, f)), "status": status[f]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
