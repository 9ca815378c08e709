#!/usr/bin/env bash
# scripts/python-check.sh [PYTHON]: can this interpreter run kladder's Python package and its
# pytest plugin? The package needs Python 3.9 or later with numpy, the plugin pytest; Debian's
# /usr/bin/python3 has both once `make deps-test` (scripts/deps.sh --test) installed
# python3-numpy and python3-pytest. PYTHON defaults to the python3 first on PATH, which on a
# machine with an interpreter manager may be a private Python without them. Prints one line
# saying what the interpreter is and has, or what it lacks and how to get it; exit 0 when it
# can, 1 when it cannot, 2 on a usage error.
set -u
if [ $# -gt 1 ] || [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
    echo "usage: scripts/python-check.sh [PYTHON]" >&2
    exit 2
fi
py=${1:-python3}
where=$(command -v -- "$py" 2>/dev/null) || {
    echo "python-check: '$py' is not an interpreter found on PATH (give its path, e.g. /usr/bin/python3)"
    exit 1
}
# the interpreter says itself its version, whether it is too old, and each module it lacks
report=$("$where" - 2>&1 <<'PY'
import importlib.util, sys
lacks = [m for m in ("numpy", "pytest") if importlib.util.find_spec(m) is None]
old = sys.version_info < (3, 9)
print("kladder-python-check", "%d.%d.%d" % sys.version_info[:3], "old" if old else "ok", *lacks)
PY
)
case $report in kladder-python-check\ *) ;; *) false ;; esac || {
    said=$(printf '%s' "$report" | tr -d '\000-\037' | head -c 200)
    echo "python-check: '$where' did not run as a Python interpreter (${said:+it said: }${said:-it printed nothing})"
    exit 1
}
read -r _ version age lacks <<<"$report"
if [ "$age" = old ]; then
    echo "python-check: $where is Python $version; kladder's package needs Python 3.9 or later"
    exit 1
fi
if [ -n "$lacks" ]; then
    echo "python-check: $where (Python $version) lacks ${lacks// /, }: use /usr/bin/python3, to" \
         "which make deps-test gives python3-numpy and python3-pytest, or install them into" \
         "this interpreter (pip install ${lacks})"
    exit 1
fi
echo "python-check: $where (Python $version) has numpy and pytest: PYTHONPATH=python $where -m pytest -p kladder.pytest_plugin ..."
