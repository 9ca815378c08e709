# bash completion for kladder: verbs, the global options and each verb's options, the numbers
# and the words an option takes (backends, variants, colours, ...) and whether its value is a
# file or a folder (all read from kladder's own option tables, `kladder [VERB] --options`, so
# they never fall behind), case ids, suite names and suite files, run ids and host names (read
# from kladder itself, on the database that --db names or the default one). Installed by `make install` into
# share/bash-completion/completions/kladder.

_kladder_db_args() { # the --db of the command line being completed, for the lists below
    local i
    for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
        case ${COMP_WORDS[i]} in
        --db) printf -- '--db\n%s\n' "${COMP_WORDS[i + 1]}" ;;
        --db=*) printf -- '%s\n' "${COMP_WORDS[i]}" ;;
        esac
    done
}

_kladder_list() { # verbs | globals | options VERB | values VERB OPTION | arg VERB OPTION | cases | suites | hosts | runs
    local kl=${COMP_WORDS[0]:-kladder} db
    mapfile -t db < <(_kladder_db_args)
    case $1 in
    verbs) "$kl" --options 2>/dev/null | awk -F'\t' '$1 == "VERB" { print $2 }' ;;
    globals) "$kl" --options 2>/dev/null | awk -F'\t' '$1 ~ /^-/ { print $1 }' ;;
    options) # the verb's table; a verb without one says its options in its --help
        "$kl" "$2" --options 2>/dev/null | awk -F'\t' '$1 ~ /^-/ { print $1 }' | grep . ||
            "$kl" "$2" --help 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u ;;
    values) # every number of an option taking a whole number in a short range, or its choices
        "$kl" ${2:+"$2"} --options 2>/dev/null | awk -F'\t' -v o="$3" '$1 == o {
            if (($2 == "int" || $2 == "long") && $4 - $3 <= 64) for (n = $3; n <= $4; n++) print n
            k = split($5, w, " "); for (i = 1; i <= k; i++) print w[i] }' ;;
    arg) # the name of an option's value (FILE, DIR, PATH, ...)
        "$kl" ${2:+"$2"} --options 2>/dev/null | awk -F'\t' -v o="$3" '$1 == o { print $6 }' ;;
    cases) "$kl" "${db[@]}" cases 2>/dev/null | awk 'NR > 1 && $1 ~ /^[a-z0-9]/ { print $1 }' ;;
    suites) "$kl" run --list 2>/dev/null | awk '$1 ~ /^[a-z0-9]/ { print $1 }'; echo all ;;
    hosts) "$kl" "${db[@]}" hosts list 2>/dev/null | awk 'NR > 1 && NF >= 3 && $1 != "no" { print $1 }' ;;
    runs) # a run id is 8 hex digits or more; the count line under the table ("13 runs") is not one
        "$kl" "${db[@]}" results 2>/dev/null | awk 'NR > 1 && length($1) >= 8 && $1 ~ /^[0-9a-f]+$/ { print $1 }' ;;
    esac
}

_kladder() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} verb="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        --db | --data-dir | --color) ((i++)) ;;
        -*) ;;
        *) verb=${COMP_WORDS[i]}; break ;;
        esac
    done
    local words=""
    case $prev in
    --case) words=$(_kladder_list cases) ;;
    --suite) # a built-in suite's name, or a suite file of one's own (a manifest, .json)
        words=$(_kladder_list suites)
        COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -X '!*.json' -- "$cur") $(compgen -d -S / -- "$cur"))
        return ;;
    --host) words=$(_kladder_list hosts) ;;
    -*) # the option's numbers or words; else a file or a folder where its value is one
        words=$(_kladder_list values "$verb" "$prev")
        if [ -z "$words" ]; then
            case $(_kladder_list arg "$verb" "$prev") in
            DIR) COMPREPLY=($(compgen -d -- "$cur")); return ;;
            *FILE* | *PATH* | *DIR* | *.json | *.csv) COMPREPLY=($(compgen -f -- "$cur")); return ;;
            esac
        fi ;;
    esac
    if [ -z "$words" ]; then
        if [ -z "$verb" ]; then
            case $cur in
            -*) words=$(_kladder_list globals) ;;
            *) words=$(_kladder_list verbs) ;;
            esac
        elif [[ $cur == -* ]]; then
            words=$(_kladder_list options "$verb")
        else
            case $verb in
            help) words=$(_kladder_list verbs) ;;
            show) words=$(_kladder_list cases) ;;
            pull) words=$(_kladder_list hosts) ;;
            report | results) words=$(_kladder_list runs) ;;
            compare) words="local $(_kladder_list hosts)" ;;
            hosts) if [ "$prev" = hosts ]; then words="add list rm rename"; else words=$(_kladder_list hosts); fi ;;
            *) COMPREPLY=($(compgen -f -- "$cur")); return ;;
            esac
        fi
    fi
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _kladder kladder
