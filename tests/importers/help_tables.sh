#!/usr/bin/env bash
# Help and the option tables agree: `kladder --options` and `kladder VERB --options` print the
# tables the parser walks (main's global options and verbs/verbs.def, each verb's cli_opt
# table), and the shell completions read them. `kladder --help` lists the verbs and writes its
# global options' lines from the same tables, as every verb's help writes its option lines
# from its own table (cli_print_help): each option a user gives has its line there, and help
# names no option the parser would refuse.
. tests/tap.sh
set -u

"$KLADDER" --options >"$KL_TMP/global" 2>&1
tap_check "kladder --options prints main's table" grep -qx -- "--db	string				PATH" "$KL_TMP/global"
"$KLADDER" --help >"$KL_TMP/help" 2>&1
sed -n '/^verbs:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' "$KL_TMP/help" | sort >"$KL_TMP/help-verbs"
awk -F'\t' '$1 == "VERB" && $2 != "help" { print $2 }' "$KL_TMP/global" | sort >"$KL_TMP/table-verbs"
tap_check "the verbs of the table ($(wc -l <"$KL_TMP/table-verbs")) are those of kladder --help" \
    cmp -s "$KL_TMP/help-verbs" "$KL_TMP/table-verbs"
missing=""
for o in $(awk -F'\t' '$1 ~ /^--/ { print $1 }' "$KL_TMP/global"); do
    grep -q -- "$o\b" "$KL_TMP/help" || missing="$missing $o"
done
tap_check "every global option of the table is in kladder --help${missing:+ (missing:$missing)}" \
    test -z "$missing"

tap_check "the global options' lines of --help are the table's (name, value, what it does)" \
    grep -qxF -e "  --data-dir DIR             read cases.json, gaps.json, rungs.json from DIR, not the built-in copy" \
    "$KL_TMP/help"
rung_top=$(awk -F'\t' '$1 == "--rung" { print $4 }' <("$KLADDER" run --options))
tap_check "--help's ladder length is the rung table's ($rung_top)" grep -q "the $rung_top-rung verification ladder" "$KL_TMP/help"

# --worker is the runner's own (kladder run starts itself as its worker), not a user's option
missing="" verbs=0
while read -r verb; do
    "$KLADDER" "$verb" --options >"$KL_TMP/opts" 2>/dev/null || continue
    grep -q '^ARGS' "$KL_TMP/opts" || continue
    verbs=$((verbs + 1))
    "$KLADDER" help "$verb" >"$KL_TMP/vhelp" 2>&1
    for o in $(awk -F'\t' '$1 ~ /^--/ && $1 != "--help" && $1 != "--worker" { print $1 }' "$KL_TMP/opts"); do
        grep -q -- "$o\b" "$KL_TMP/vhelp" || missing="$missing $verb:$o"
    done
done <"$KL_TMP/table-verbs"
tap_check "verbs with an option table answer --options ($verbs)" test "$verbs" -ge 16
tap_check "every option of a verb's table is in its help${missing:+ (missing:$missing)}" test -z "$missing"

# each verb's option lines are written from its table: a line "  NAME ..." for every option
# a user gives (a second spelling like -h and the internal --worker are left out), and no
# option line or usage synopsis names an option the parser would refuse
noline="" stray=""
while read -r verb; do
    "$KLADDER" "$verb" --options >"$KL_TMP/opts" 2>/dev/null || continue
    grep -q '^ARGS' "$KL_TMP/opts" || continue
    "$KLADDER" help "$verb" >"$KL_TMP/vhelp" 2>&1
    awk -F'\t' '$1 ~ /^--/ { print $1 }' "$KL_TMP/opts" | sort -u >"$KL_TMP/known"
    for o in $(awk -F'\t' '$1 ~ /^--/ && $2 != "help" && $1 != "--worker" { print $1 }' "$KL_TMP/opts"); do
        grep -qE -- "^  $o( |\$)" "$KL_TMP/vhelp" || noline="$noline $verb:$o"
    done
    { sed -nE 's/^  (--[a-z][a-z0-9-]*).*/\1/p' "$KL_TMP/vhelp"
      sed -n '1,/^$/p' "$KL_TMP/vhelp" | grep -oE -- '\[--[a-z][a-z0-9-]*' | tr -d '['
    } | sort -u | comm -23 - "$KL_TMP/known" >"$KL_TMP/unknown"
    for o in $(cat "$KL_TMP/unknown"); do stray="$stray $verb:$o"; done
done <"$KL_TMP/table-verbs"
tap_check "every option of a verb's table has its own line in the verb's help${noline:+ (no line:$noline)}" \
    test -z "$noline"
tap_check "a verb's help names no option its table lacks${stray:+ (not in the table:$stray)}" \
    test -z "$stray"
"$KLADDER" help run >"$KL_TMP/vhelp" 2>&1
widest=$(sed -n '/^options:/,/^$/p' "$KL_TMP/vhelp" | awk '{ print length($0) }' | sort -n | tail -1)
tap_check "run's option lines are wrapped at 100 columns ($widest)" test "$widest" -le 100
next=$(grep -A1 -x -- '  --schedule default|adversarial|random|pct' "$KL_TMP/vhelp" | sed -n 2p)
tap_check "a name too long for the column has its own line, its text on the next" \
    grep -q '^   *cpu backend schedule' <<<"$next"
