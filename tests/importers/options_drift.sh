#!/usr/bin/env bash
# One option table feeds everything (git's t0450, for kladder): the option tables the parser
# walks (`kladder [VERB] --options`: every option, the words it takes) are the source, and
# every verb, every option and every word of an option's choices must be found in
#   - the man page: docs/kladder.1 is what scripts/man-options.sh writes from the tables (its
#     option lists are the tables' own), and each verb's list names each option and choice;
#   - the help: `kladder help VERB` (and `kladder --help`) has a line for each option, its
#     choices as its value;
#   - each completion script (bash, zsh, fish): a verb's options after `kladder VERB -`, an
#     option's words after `kladder VERB --option`; zsh and fish run with their completion
#     builtins stood in for where those shells are installed.
# An option added to a table and not to the page, one taken out of the page, a verb without
# its section, a completion script that types a list of its own: each fails here.
. tests/tap.sh
set -u
export XDG_DATA_HOME=$KL_TMP/data XDG_CONFIG_HOME=$KL_TMP/config XDG_CACHE_HOME=$KL_TMP/cache
# KL_MAN: the page to hold the tables against (default docs/kladder.1; a kladder built with a
# rung of its own checks the page made from its own tables, tests/engine/rung9_builtin.sh)
man=${KL_MAN:-docs/kladder.1}

# the man page, written again from the tables of the binary under test
if scripts/man-options.sh "$KLADDER" "$man" >"$KL_TMP/man" 2>"$KL_TMP/man.err"; then
    diff -u "$man" "$KL_TMP/man" | sed 's/^/# /' | head -40
    tap_check "docs/kladder.1's option lists are the option tables' (make man writes them)" \
        cmp -s "$man" "$KL_TMP/man"
else
    sed 's/^/# /' "$KL_TMP/man.err"
    tap_fail "scripts/man-options.sh writes the man page's option lists"
fi

# the verbs and, for each ("" is kladder's own global options), its options and their words
"$KLADDER" --options >"$KL_TMP/global"
verbs=$(awk -F'\t' '$1 == "VERB" { print $2 }' "$KL_TMP/global")
nosection=""
for v in $verbs; do
    grep -qE "^\.B $(sed 's/-/\\\\-/g' <<<"$v")(\\\\fR| |\$)" "$man" || nosection="$nosection $v"
done
tap_check "every verb of the table has its section in the man page${nosection:+ (missing:$nosection)}" \
    test -z "$nosection"

# table VERB: "OPTION<tab>WORDS" for each option a user gives (help and the runner's own
# --worker are no user's options), WORDS its choices, space-separated
table() {
    if [ -z "$1" ]; then cat "$KL_TMP/global"; else "$KLADDER" "$1" --options 2>/dev/null; fi |
        awk -F'\t' '$1 ~ /^-/ && $2 != "help" && $1 != "--worker" { print $1 "\t" $5 }'
}

# man_block VERB: the option names and words of VERB's list in the page, one a line
man_block() {
    awk -v v="${1:-kladder}" '$0 ~ "^\\.\\\\\" options of " v " " { on = 1; next }
        /^\.\\" end of options/ { on = 0 } on' "$man" |
        sed -e 's/\\-/-/g' -e 's/\\f[BIR]/ /g' | tr ' |' '\n\n' | grep .
}

# The completions ask the binary under test, as `kladder` first on PATH (zsh and fish call it
# by name; bash calls the command line's first word); a table it printed once is kept, as the
# hundreds of completions below read the same few tables.
mkdir -p "$KL_TMP/bin" "$KL_TMP/tables"
cat >"$KL_TMP/bin/kladder" <<EOF
#!/bin/sh
case "\$*" in
*--options)
    f="$KL_TMP/tables/\$1" # the verb, or --options for the global table
    [ -f "\$f" ] || "$KLADDER" "\$@" >"\$f" 2>/dev/null
    exec cat "\$f" ;;
esac
exec "$KLADDER" "\$@"
EOF
chmod +x "$KL_TMP/bin/kladder"
# complete_SHELL <REQUESTS: for each request line "WORDS|CUR" (WORDS the words after
# `kladder`, space-separated; CUR the word being completed, maybe empty) the lines "N<tab>WORD",
# N the request's line number from 1, for each WORD the shell offers. One shell process answers
# every request: these are hundreds.
complete_bash() {
    bash -c '
        . "$1"; n=0
        while IFS='"'|'"' read -r pre cur; do
            n=$((n + 1)); read -r -a w <<<"$pre"
            COMP_WORDS=("$2" "${w[@]}" "$cur"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
            _kladder
            for x in "${COMPREPLY[@]}"; do printf "%s\t%s\n" "$n" "$x"; done
        done' _ completions/kladder.bash "$KL_TMP/bin/kladder" 2>/dev/null
}
complete_zsh() {
    PATH=$KL_TMP/bin:$PATH zsh -fc '
        compadd() { [[ $1 == -a ]] && for x in "${(@P)2}"; do print -r -- "$n	$x"; done }
        _files() { }
        words=(kladder) CURRENT=2
        . "$1" >/dev/null
        n=0
        while IFS='"'|'"' read -r pre cur; do
            n=$((n + 1)); w=(${=pre}); words=(kladder $w "$cur") CURRENT=$(( ${#w} + 2 ))
            _kladder
        done' _ completions/_kladder 2>/dev/null
}
complete_fish() {
    PATH=$KL_TMP/bin:$PATH fish -c '
        source $argv[1]
        set n 0
        while read -l line
            set n (math $n + 1)
            set parts (string split "|" -- $line)
            for x in (complete -C"kladder $parts[1] $parts[2]")
                printf "%s\t%s\n" $n (string split \t -- $x)[1]
            end
        end' completions/kladder.fish 2>/dev/null
}
shells="bash"
for sh in zsh fish; do
    if command -v $sh >/dev/null; then shells="$shells $sh"; else tap_skip "$sh is not installed"; fi
done

# first the tables: what each verb and option should show, and the completions to ask for
: >"$KL_TMP/expect" # "WHERE<tab>VERB<tab>OPTION<tab>WORD", WHERE the request whose answer holds it
: >"$KL_TMP/requests"
checked=0 words=0 nreq=0
man_miss="" help_miss=""
for v in "" $verbs; do
    [ "$v" = help ] && continue
    table "$v" >"$KL_TMP/opts"
    [ -s "$KL_TMP/opts" ] || continue # a verb without options of its own (import)
    # the page's words and the help, each one string with a newline at both ends, matched in
    # the shell itself below (hundreds of greps would cost more than everything else here)
    manw=$'\n'$(man_block "$v")$'\n'
    if [ -z "$v" ]; then help=$("$KLADDER" --help 2>&1); else help=$("$KLADDER" help "$v" 2>&1); fi
    help=$'\n'$help$'\n'
    printf '%s|-\n' "$v" >>"$KL_TMP/requests"
    nreq=$((nreq + 1)) optreq=$((nreq))
    while IFS=$'\t' read -r o choices; do
        checked=$((checked + 1))
        [[ $manw == *$'\n'"$o"$'\n'* ]] || man_miss="$man_miss ${v:-kladder}:$o"
        head=$o${choices:+ ${choices// /|}} # its line: "  NAME VALUE" then a space or its end
        [[ $help == *$'\n  '"$head"[$' \n']* ]] || help_miss="$help_miss ${v:-kladder}:$o"
        printf '%s\t%s\t%s\t%s\n' "$optreq" "${v:-kladder}" "$o" "$o" >>"$KL_TMP/expect"
        [ -n "$choices" ] || continue
        printf '%s|\n' "${v:+$v }$o" >>"$KL_TMP/requests"
        nreq=$((nreq + 1))
        for w in $choices; do
            words=$((words + 1))
            [[ $manw == *$'\n'"$w"$'\n'* ]] || man_miss="$man_miss ${v:-kladder}:$o=$w"
            printf '%s\t%s\t%s\t%s\n' "$nreq" "${v:-kladder}" "$o" "$w" >>"$KL_TMP/expect"
        done
    done <"$KL_TMP/opts"
done
echo "# $checked options, $words choices, $nreq completions asked of each shell: $shells"
tap_check "the tables hold the options and choices this test reads ($checked, $words)" \
    test "$checked" -ge 100 -a "$words" -ge 20
tap_check "the man page lists every option and choice${man_miss:+ (missing:$man_miss)}" \
    test -z "$man_miss"
tap_check "help has a line for every option, its choices as its value${help_miss:+ (missing:$help_miss)}" \
    test -z "$help_miss"
for sh in $shells; do
    complete_$sh <"$KL_TMP/requests" >"$KL_TMP/$sh-offers"
    # each expected word not among its request's offers: "VERB:OPTION" or "VERB:OPTION=WORD"
    missing=$(awk -F'\t' 'FNR == NR { offered[$1 "\t" $2] = 1; next }
        !(($1 "\t" $4) in offered) { printf " %s:%s%s", $2, $3, $3 == $4 ? "" : "=" $4 }' \
        "$KL_TMP/$sh-offers" "$KL_TMP/expect")
    tap_check "$sh completes every option and choice${missing:+ (missing:$missing)}" \
        test -z "$missing" -a -s "$KL_TMP/$sh-offers"
done

# the other way: every option the man page names is one a table has (one taken out of its
# table, or renamed, leaves no stale word in the page's prose; --x=V is another program's, as
# in sbatch's --account=lab)
for v in "" $verbs; do table "$v"; done | cut -f1 | sort -u >"$KL_TMP/all-options"
sed -e 's/\\-/-/g' -e 's/\\f[BIR]//g' "$man" | grep -oE -- '(^|[^a-zA-Z0-9-])--[a-z][a-z0-9-]*=?' |
    grep -oE -- '--[a-z][a-z0-9-]*=?' | grep -v '=$' | sort -u | comm -23 - "$KL_TMP/all-options" |
    grep -vxE -- '--(options|man-options|help|worker)' >"$KL_TMP/stale" || true
tap_check "the man page names no option that no table has$(test -s "$KL_TMP/stale" && printf ' (stale: %s)' "$(tr '\n' ' ' <"$KL_TMP/stale")")" \
    test ! -s "$KL_TMP/stale"

# the completion scripts type no list of words an option's choices own: a backend's name is
# written in the engine's backend table, not here
typed=""
for f in completions/kladder.bash completions/_kladder completions/kladder.fish; do
    for w in cuda buggy always html zh racecheck adversarial; do
        grep -qw -- "$w" "$f" && typed="$typed $f:$w"
    done
done
tap_check "no completion script types an option's words itself${typed:+ (typed:$typed)}" \
    test -z "$typed"
