#!/usr/bin/env bash
# tests/lib.sh, the helpers the scripts share: kl_need ends a script with one SKIP line naming
# why when a command it needs is missing, and lets it go on when every command is there.
# kl-test: once (shell helpers only; nothing of ours runs)
. tests/lib.sh
set -u

out=$(bash -c '. tests/lib.sh; kl_need "nothing called that here" sh no-such-command-kl; echo went on')
tap_check "a missing command: one SKIP line with the reason, and the script ends" \
    test "$out" = "ok 1 - # SKIP nothing called that here"
out=$(bash -c '. tests/lib.sh; kl_need "unused" sh awk; echo went on')
tap_check "every command there: nothing printed, the script goes on" test "$out" = "went on"
out=$(bash -c '. tests/tap.sh; tap_ok first; . tests/lib.sh; tap_ok second')
tap_check "sourcing it after tests/tap.sh keeps the count" \
    test "$out" = "$(printf 'ok 1 - first\nok 2 - second')"
