#!/usr/bin/env bash
# Every environment variable the compile path reads is in the inventory (engine/toolchain/cache_env.c),
# checked in the source so that paths no test runs here (hipRTC, NVRTC loading) are covered
# too: the compile path reads only through eng_compile_getenv("NAME"), each NAME is listed, and
# the files that compile call no bare getenv(). The check must be able to fail: it is run again
# on a copy of the tree where a compile path reads a variable nobody listed.
. tests/tap.sh
: "${KL_TMP:=$(mktemp -d)}"
# the files that hold compile paths; variables of the runtime side (which library runs
# kernels, sync launches) are not compile inputs and may use getenv there
compile_files="engine/cache/cache.c engine/cache/cache_warm_cold.c engine/cpu/backend_cpu.c engine/backend/gpu_rtc.c
               engine/toolchain/amd_clang.c engine/backend/backend_hip.c engine/toolchain/tool_run.c"
audit() { # root -> prints one line per problem
    local root=$1 name
    for name in $(grep -rho --include='*.c' 'eng_compile_getenv("[A-Za-z0-9_]*")' "$root"/engine | sed 's/.*("\(.*\)")/\1/' | sort -u); do
        grep -qE "^ *\{\"$name\", ENG_ENV_(KEY|NEUTRAL)," "$root/engine/toolchain/cache_env.c" ||
            echo "$name is read by the compile path and listed neither as key nor as neutral"
    done
    for f in $compile_files; do
        grep -n '[^_a-z]getenv(' "$root/$f" | sed "s|^|$f: a bare getenv: |"
    done
}
out=$(audit .)
tap_check "every variable the compile path reads is listed ($(grep -c 'ENG_ENV_' engine/toolchain/cache_env.c) entries)" test -z "$out"
printf '%s\n' "$out" | sed '/^$/d; s/^/# /'
n=$(grep -rho --include='*.c' 'eng_compile_getenv("[A-Za-z0-9_]*")' engine | sort -u | wc -l)
tap_check "the compile path reads through eng_compile_getenv ($n names)" test "$n" -ge 8

# The same check on a tree where the cpu compile reads an unlisted variable, and one where it
# calls getenv directly: both are named.
mkdir -p "$KL_TMP/tree"
cp -r engine "$KL_TMP/tree/"
sed -i 's/eng_compile_getenv("TMPDIR")/eng_compile_getenv("KLADDER_CPU_EXTRA_OPT")/' "$KL_TMP/tree/engine/toolchain/tool_run.c"
out=$(audit "$KL_TMP/tree")
tap_check "an unlisted variable is named" grep -qF 'KLADDER_CPU_EXTRA_OPT is read by the compile path and listed neither as key nor as neutral' <<<"$out"
cp engine/cpu/backend_cpu.c "$KL_TMP/tree/engine/cpu/"
cp engine/toolchain/tool_run.c "$KL_TMP/tree/engine/toolchain/"
sed -i 's/eng_compile_getenv("CXX")/getenv("CXX")/' "$KL_TMP/tree/engine/cpu/backend_cpu.c"
out=$(audit "$KL_TMP/tree")
tap_check "a bare getenv in a compile file is named" grep -qF 'engine/cpu/backend_cpu.c: a bare getenv:' <<<"$out"
