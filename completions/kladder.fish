# fish completion for kladder: verbs, each verb's options (from its own --help), case ids,
# suite names and host names (from kladder itself). Installed by `make install` into
# share/fish/vendor_completions.d/kladder.fish.

function __kladder_verb
    set -l words (commandline -opc)
    set -l skip 0
    for w in $words[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $w
            case --db --data-dir --color
                set skip 1
            case '-*'
            case '*'
                echo $w
                return 0
        end
    end
    return 1
end

function __kladder_list
    switch $argv[1]
        case verbs
            kladder --help 2>/dev/null | sed -n '/^verbs:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'
            echo help
        case options
            kladder $argv[2] --help 2>/dev/null | string match -ar -- '--[a-z][a-z0-9-]*' | sort -u
        case cases
            kladder cases 2>/dev/null | awk 'NR > 1 && $1 ~ /^[a-z0-9]/ { print $1 }'
        case suites
            kladder run --list 2>/dev/null | awk '$1 ~ /^[a-z0-9]/ { print $1 }'
            echo all
        case hosts
            kladder hosts list 2>/dev/null | awk 'NR > 1 && NF >= 3 && $1 != "no" { print $1 }'
        case runs
            kladder results 2>/dev/null | awk 'NR > 1 && $1 ~ /^[0-9a-f]+$/ { print $1 }'
    end
end

function __kladder_complete
    set -l tok (commandline -ct)
    set -l prev (commandline -opc)[-1]
    set -l verb (__kladder_verb)
    switch $prev
        case --case
            __kladder_list cases; return
        case --suite
            __kladder_list suites; return
        case --host
            __kladder_list hosts; return
        case --backend
            printf '%s\n' hip cuda cpu; return
        case --variant
            printf '%s\n' fixed buggy both; return
        case --color
            printf '%s\n' never auto always; return
        case --lang
            printf '%s\n' en zh; return
        case --format
            printf '%s\n' md html; return
    end
    if test -z "$verb"
        if string match -q -- '-*' $tok
            printf '%s\n' --db --data-dir --color --version --help
        else
            __kladder_list verbs
        end
        return
    end
    if string match -q -- '-*' $tok
        __kladder_list options $verb
        return
    end
    switch $verb
        case help
            __kladder_list verbs
        case show
            __kladder_list cases
        case pull
            __kladder_list hosts
        case report results
            __kladder_list runs
        case compare
            echo local
            __kladder_list hosts
        case hosts
            if test "$prev" = hosts
                printf '%s\n' add list rm rename
            else
                __kladder_list hosts
            end
        case '*'
            __fish_complete_path $tok
    end
end

complete -c kladder -f -a '(__kladder_complete)'
