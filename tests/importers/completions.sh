#!/usr/bin/env bash
# Shell completions: `make install` puts the bash, zsh and fish scripts where each shell looks;
# the bash one completes verbs, the global options and a verb's options and the numbers an
# option takes (read from kladder's option tables, `kladder [VERB] --options`), case ids after
# show and --case, suite names and suite files (.json) after --suite, run ids (and nothing
# else) after report, host names after pull and --host, and the verbs after help. zsh and fish ones are checked for syntax where those shells are installed.
. tests/tap.sh
export XDG_DATA_HOME=$KL_TMP/data
dest=$KL_TMP/root
# what `make install` does, without building (the binary under test is already built, and a
# make here could rebuild it with other flags): its install lines, run as written
make -n install DESTDIR="$dest" PREFIX=/usr BUILD="$(dirname "$KLADDER")" 2>/dev/null |
    grep -E '^install .*completions' >"$KL_TMP/install.sh"
sed 's/^/# /' "$KL_TMP/install.sh"
tap_check "make install installs three completion scripts" test "$(wc -l <"$KL_TMP/install.sh")" -eq 3
sh "$KL_TMP/install.sh"
for f in share/bash-completion/completions/kladder share/zsh/site-functions/_kladder \
    share/fish/vendor_completions.d/kladder.fish; do
    tap_check "installed: $f" test -s "$dest/usr/$f"
done
db=$KL_TMP/k.db
"$KLADDER" --db "$db" hosts add h200 "file://$PWD/bench/results/h200-2026-11-29/export.json" >/dev/null
# complete WORDS...: what bash offers for the last word of "kladder WORDS..."
complete_words() {
    bash -c '
        . "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _kladder
        printf "%s\n" "${COMPREPLY[@]}"' _ "$dest/usr/share/bash-completion/completions/kladder" \
        "$KLADDER" --db "$db" "$@"
}
tap_check "verbs: comp -> compare, compile" \
    test "$(complete_words comp | sort | tr '\n' ' ')" = "compare compile "
tap_check "help's argument is a verb" test "$(complete_words help hos)" = hosts
tap_check "run's options, from its table (--e2e from the helper that takes it)" \
    sh -c "test \"\$(printf '%s\n' \"\$1\" | grep -cxE -- '--rung|--junit|--suite|--e2e|--wilson')\" -eq 5" _ "$(complete_words run --)"
tap_check "the global options, from main's table" \
    test "$(complete_words --d | sort | tr '\n' ' ')" = "--data-dir --db "
tap_check "--rung's numbers, from run's table (1 to the ladder's top)" \
    test "$(complete_words run --rung "" | tr '\n' ' ')" = "1 2 3 4 5 6 7 8 "
tap_check "--gap's numbers, from cases' table" \
    test "$(complete_words cases --gap "" | tr '\n' ' ')" = "1 2 3 4 5 6 7 "
mkdir -p "$KL_TMP/suites/mine"
: >"$KL_TMP/suites/mine.json"
: >"$KL_TMP/suites/notes.txt"
offered=$(complete_words run --rung 1 --suite "$KL_TMP/suites/")
printf '# %s\n' $offered
tap_check "--suite offers a suite file of one's own (.json) and folders" \
    sh -c "printf '%s\n' \"\$1\" | grep -qx '$KL_TMP/suites/mine.json' &&
           printf '%s\n' \"\$1\" | grep -qx '$KL_TMP/suites/mine/'" _ "$offered"
tap_check "--suite does not offer other files" sh -c "! printf '%s\n' \"\$1\" | grep -q notes.txt" _ "$offered"
tap_check "case ids after show" sh -c "printf '%s\n' \"\$1\" | grep -qx aiter-4494" _ "$(complete_words show aiter-44)"
tap_check "case ids after --case" sh -c "printf '%s\n' \"\$1\" | grep -qx flydsl-1199" _ "$(complete_words run --case flydsl-11)"
tap_check "suite names after --suite" \
    sh -c "printf '%s\n' \"\$1\" | grep -qx flydsl-1213" _ "$(complete_words run --rung 2 --suite flydsl-121)"
tap_check "host names after pull, from the database --db names" test "$(complete_words pull h)" = h200
tap_check "compare offers local and the hosts" \
    test "$(complete_words compare "" | sort | tr '\n' ' ')" = "h200 local "
tap_check "--backend values" test "$(complete_words run --backend c | sort | tr '\n' ' ')" = "cpu cuda "
if command -v zsh >/dev/null; then
    tap_check "zsh: the script parses" zsh -n "$dest/usr/share/zsh/site-functions/_kladder"
else
    tap_skip "zsh is not installed"
fi
if command -v fish >/dev/null; then
    tap_check "fish: the script parses" fish -n "$dest/usr/share/fish/vendor_completions.d/kladder.fish"
else
    tap_skip "fish is not installed"
fi
"$KLADDER" --db "$db" pull h200 >/dev/null 2>&1
first=$("$KLADDER" --db "$db" results | awk 'NR == 2 { print $1 }')
tap_check "run ids after report ($first)" \
    sh -c "printf '%s\n' \"\$1\" | grep -qx '$first'" _ "$(complete_words report "${first:0:3}")"
tap_check "report's --format values" test "$(complete_words report x --format h)" = html
# the line under the results table ("34 runs") starts with a number that is also hex
offered=$(complete_words report "")
printf '# report offers: %s\n' $offered | head -3
tap_check "report offers run ids only, not the count under the table" \
    sh -c "test -n \"\$1\" && ! printf '%s\n' \"\$1\" | grep -qvE '^[0-9a-f]{8,}\$'" _ "$offered"
