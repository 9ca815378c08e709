# Sourced by the scripts of tests/python after tests/tap.sh: `. tests/python_env.sh MODULE...`.
# Debian's python3 in $py, the package and tests/python on PYTHONPATH, libkladder of the build
# under test; the script is skipped (exit 0) when python3 lacks one of the MODULEs
# (scripts/deps.sh --test installs them). On the sanitizer pass the library runs inside an
# interpreter built without the sanitizers: their runtime is preloaded and leaks are not counted
# (the interpreter's own are not ours).
export XDG_DATA_HOME=$KL_TMP/data XDG_CACHE_HOME=$KL_CACHE
export KLADDER_LIB=$KL_BUILD/libkladder.so PYTHONPATH=$PWD/python:$PWD/tests/python
export PYTHONDONTWRITEBYTECODE=1
py=/usr/bin/python3
for _m in "$@"; do
    if ! $py -c "import $_m" 2>/dev/null; then
        tap_skip "python3-$_m is not installed (scripts/deps.sh --test)"
        exit 0
    fi
done
if [ "$KL_SAN" = 1 ]; then
    export LD_PRELOAD=$(cc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0
fi
