# TAP helpers for test scripts (sourced). Each check prints "ok N - name" or "not ok N - name".
# KL_CACHE, the compile cache tests/run.sh shares among a pass's scripts, falls back to a
# private folder when a script is run by hand.
: "${KL_CACHE:=${KL_TMP:-/nonexistent}/cache}"
_tap_n=0
tap_ok()   { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
tap_fail() { _tap_n=$((_tap_n + 1)); echo "not ok $_tap_n - $*"; }
tap_skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - # SKIP $*"; }
# tap_check NAME COMMAND...: ok when the command succeeds.
tap_check() { local name=$1; shift; if "$@"; then tap_ok "$name"; else tap_fail "$name"; fi; }
# tap_diff NAME EXPECTED_FILE ACTUAL_FILE: ok when identical, else the diff goes to the log.
tap_diff() {
    if diff -u "$2" "$3"; then tap_ok "$1"; else tap_fail "$1"; fi
}

# True when NVRTC can compile here: the CUDA toolkit's library where the engine looks for it
# or the one KLADDER_NVRTC names; the GPU compile tests skip their CUDA part otherwise.
tap_have_nvrtc() {
    [ -n "${KLADDER_NVRTC:-}" ] ||
        compgen -G '/usr/local/cuda*/lib*/libnvrtc.so*' >/dev/null ||
        compgen -G '/usr/local/cuda*/targets/*/lib/libnvrtc.so*' >/dev/null
}
