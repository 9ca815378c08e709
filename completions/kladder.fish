# fish completion for kladder: verbs, the global options and each verb's options, the numbers
# and words an option takes and whether its value is a file or a folder (from kladder's own
# option tables, `kladder [VERB] --options`), case ids, suite names and suite files, run ids and host names (from kladder itself). Installed by `make install` into
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
            kladder --options 2>/dev/null | awk -F'\t' '$1 == "VERB" { print $2 }'
        case globals
            kladder --options 2>/dev/null | awk -F'\t' '$1 ~ /^-/ { print $1 }'
        case options
            kladder $argv[2] --options 2>/dev/null | awk -F'\t' '$1 ~ /^-/ { print $1 }' | grep .
            or kladder $argv[2] --help 2>/dev/null | string match -ar -- '--[a-z][a-z0-9-]*' | sort -u
        case values arg
            set -l table (kladder --options 2>/dev/null)
            if test -n "$argv[2]"
                set table (kladder $argv[2] --options 2>/dev/null)
            end
            if test $argv[1] = arg
                printf '%s\n' $table | awk -F'\t' -v o="$argv[3]" '$1 == o { print $6 }'
            else
                printf '%s\n' $table | awk -F'\t' -v o="$argv[3]" '$1 == o {
                    if (($2 == "int" || $2 == "long") && $4 - $3 <= 64) for (n = $3; n <= $4; n++) print n
                    k = split($5, w, " "); for (i = 1; i <= k; i++) print w[i] }'
            end
        case cases
            kladder cases 2>/dev/null | awk 'NR > 1 && $1 ~ /^[a-z0-9]/ { print $1 }'
        case suites
            kladder run --list 2>/dev/null | awk '$1 ~ /^[a-z0-9]/ { print $1 }'
            echo all
        case hosts
            kladder hosts list 2>/dev/null | awk 'NR > 1 && NF >= 3 && $1 != "no" { print $1 }'
        case runs
            kladder results 2>/dev/null | awk 'NR > 1 && length($1) >= 8 && $1 ~ /^[0-9a-f]+$/ { print $1 }'
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
            __kladder_list suites
            __fish_complete_path $tok | string match -r -- '(\.json|/)$'
            return
        case --host
            __kladder_list hosts; return
        case '-*'
            # the option's numbers or words; else a file or a folder where its value is one
            set -l values (__kladder_list values "$verb" $prev)
            if test (count $values) -gt 0
                printf '%s\n' $values; return
            end
            switch (__kladder_list arg "$verb" $prev)
                case DIR
                    __fish_complete_directories $tok; return
                case '*FILE*' '*PATH*' '*DIR*' '*.json' '*.csv'
                    __fish_complete_path $tok; return
            end
    end
    if test -z "$verb"
        if string match -q -- '-*' $tok
            __kladder_list globals
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
