#!/usr/bin/env bash
# Help and the option tables agree: `kladder --options` and `kladder VERB --options` print the
# tables the parser walks (main's global options and verbs/verbs.def, each verb's cli_opt
# table), and the shell completions read them. `kladder --help` lists the verbs and writes its
# global options' lines from the same tables; every option of a verb's table is named in that
# verb's --help, so help cannot leave out an option the parser takes.
. tests/tap.sh
set -u

"$KLADDER" --options >"$KL_TMP/global" 2>&1
tap_check "kladder --options prints main's table" grep -qx -- "--db	string" "$KL_TMP/global"
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
    grep -qxF -e "  --data-dir DIR   read cases.json, gaps.json, rungs.json from DIR, not the built-in copy" \
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
tap_check "verbs with an option table answer --options ($verbs)" test "$verbs" -ge 12
tap_check "every option of a verb's table is in its help${missing:+ (missing:$missing)}" test -z "$missing"

# the table is what the parser takes: a range printed is the range enforced
rung_hi=$rung_top
"$KLADDER" run --rung $((rung_hi + 1)) --suite x >"$KL_TMP/out" 2>&1
tap_check "run --rung past the table's top ($rung_hi) is refused as the table says" \
    grep -q -- "--rung expects.*$rung_hi" "$KL_TMP/out"
"$KLADDER" --color 2>"$KL_TMP/err"
tap_check "a global option without its value says what it expects" \
    grep -qx "kladder: --color expects never, auto or always" "$KL_TMP/err"
"$KLADDER" --db=/nonexistent/dir/k.db --color=never cases >/dev/null 2>"$KL_TMP/err"
tap_check "--db=PATH and --color=WHEN in one argument still parse (the database is what fails)" \
    grep -q "/nonexistent/dir/k.db" "$KL_TMP/err"
