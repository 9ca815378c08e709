#!/bin/sh
# Writes the built-in ladder's list (included by engine/tables/ladder.c): one LADDER_RUNG(N) line
# for each rung file given, engine/rungs/rungN.c defining eng_rungN, in number order. The
# Makefile gives it every engine/rungs/rungN.c, so a new rung is its file alone. OUT is rewritten
# only when its text changes, so an unchanged ladder rebuilds nothing.
#   scripts/ladder-gen.sh OUT FILE...
set -eu
[ $# -ge 1 ] || { echo "usage: scripts/ladder-gen.sh OUT FILE..." >&2; exit 2; }
out=$1
shift
nums=""
for f in "$@"; do
    n=$(basename "$f" .c)
    n=${n#rung}
    case $n in
    '' | *[!0-9]* | 0*)
        echo "scripts/ladder-gen.sh: $f: expected a file named rungN.c (N from 1)" >&2
        exit 2 ;;
    esac
    grep -q "^const struct eng_rung eng_rung$n = {" "$f" || {
        echo "scripts/ladder-gen.sh: $f: expected it to define 'const struct eng_rung eng_rung$n = {'" >&2
        exit 2
    }
    nums="$nums $n"
done
tmp=$out.tmp.$$
{
    echo "/* The built-in rungs, one per engine/rungs/rungN.c: written by scripts/ladder-gen.sh. */"
    for n in $nums; do echo "$n"; done | sort -n | sed 's/.*/LADDER_RUNG(&)/'
} >"$tmp"
if cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv "$tmp" "$out"; fi
