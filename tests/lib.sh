# What every test script may use (sourced; not a test itself): the TAP helpers of tests/tap.sh
# and the few steps the scripts kept writing out again.
#
# kl_need WHY CMD...   a command the script cannot do without: when any CMD is missing, one
#                      "ok N - # SKIP WHY" line and the script ends there (exit 0)
[ "$(type -t tap_ok)" = function ] || . tests/tap.sh

kl_need() {
    local why=$1 cmd
    shift
    for cmd in "$@"; do
        if ! command -v "$cmd" >/dev/null 2>&1; then
            tap_skip "$why"
            exit 0
        fi
    done
}
