# bash completion for kladder: verbs, each verb's options (read from its own --help, so they
# never fall behind), case ids, suite names and host names (read from kladder itself, on the
# database that --db names or the default one). Installed by `make install` into
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

_kladder_list() { # verbs | options VERB | cases | suites | hosts | runs
    local kl=${COMP_WORDS[0]:-kladder} db
    mapfile -t db < <(_kladder_db_args)
    case $1 in
    verbs) "$kl" --help 2>/dev/null | sed -n '/^verbs:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'; echo help ;;
    options) "$kl" "$2" --help 2>/dev/null | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u ;;
    cases) "$kl" "${db[@]}" cases 2>/dev/null | awk 'NR > 1 && $1 ~ /^[a-z0-9]/ { print $1 }' ;;
    suites) "$kl" run --list 2>/dev/null | awk '$1 ~ /^[a-z0-9]/ { print $1 }'; echo all ;;
    hosts) "$kl" "${db[@]}" hosts list 2>/dev/null | awk 'NR > 1 && NF >= 3 && $1 != "no" { print $1 }' ;;
    runs) "$kl" "${db[@]}" results 2>/dev/null | awk 'NR > 1 && $1 ~ /^[0-9a-f]+$/ { print $1 }' ;;
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
    --suite) words=$(_kladder_list suites) ;;
    --host) words=$(_kladder_list hosts) ;;
    --backend) words="hip cuda cpu" ;;
    --variant) words="fixed buggy both" ;;
    --color) words="never auto always" ;;
    --lang) words="en zh" ;;
    --format) words="md html" ;;
    --db | --data-dir | --out | --junit | --inputs | --code-object | --cacert | --known-hosts | \
        --identity | --schema | --merged | --baseline)
        COMPREPLY=($(compgen -f -- "$cur"))
        return ;;
    esac
    if [ -z "$words" ]; then
        if [ -z "$verb" ]; then
            case $cur in
            -*) words="--db --data-dir --color --version --help" ;;
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
