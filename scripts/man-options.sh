#!/bin/sh
# The man page's option lists, written from the option tables the parser walks: every block
# of docs/kladder.1 between a line `.\" options of VERB ...` and the next `.\" end of options`
# is replaced by what `kladder VERB --man-options` prints (VERB `kladder`: the global options,
# `kladder --man-options`). The rest of the page is copied as it is.
#
#   scripts/man-options.sh KLADDER PAGE >OUT     (`make man` rewrites docs/kladder.1 so)
#
# tests/importers/options_drift.sh runs it too: the page in the repository must be what it
# writes, so an option added to a table, or one taken out of the page, fails the test.
set -eu
[ $# -eq 2 ] || { echo "usage: scripts/man-options.sh KLADDER PAGE" >&2; exit 2; }
kl=$1 page=$2
[ -x "$kl" ] || { echo "scripts/man-options.sh: $kl is not an executable kladder" >&2; exit 2; }
awk -v kl="$kl" '
    function q(s) { gsub(/'\''/, "'\''\\'\'''\''", s); return "'\''" s "'\''" }
    /^\.\\" options of / {
        print
        cmd = $4 == "kladder" ? q(kl) " --man-options" : q(kl) " " q($4) " --man-options"
        n = 0
        while ((cmd | getline line) > 0) { print line; n++ }
        if (close(cmd) != 0 || n == 0) {
            printf "scripts/man-options.sh: %s:%d: %s --man-options printed no options\n",
                FILENAME, FNR, $4 > "/dev/stderr"
            failed = 1
        }
        skip = 1
        next
    }
    /^\.\\" end of options/ { skip = 0 }
    !skip { print }
    END { exit failed }
' "$page"
