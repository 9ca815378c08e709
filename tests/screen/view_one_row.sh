#!/usr/bin/env bash
# A view is one file and one row: kladder built with tests/fixtures/view_hello/view_hello.c and
# one row appended to a copy of tui/views.def (what docs/architecture.md says a new view takes,
# nothing else touched) has the view on a tab of its own: the header lists it sixth, Tab from
# Help and a click on its tab show it, its action hook gets the keys (j, k, Enter), its status
# line and tab speak Chinese after L, and every other view is as before (the dashboard's body
# is the tree's). The files recompiled are those the build's dependency files list as reading
# tui/views.def; the rest come from the tree's objects. The tree's own kladder has five tabs.
. tests/screen/screen_lib
set -u
kl_need "a C compiler is needed to build kladder with a new view" cc pkg-config

gen=$KL_TMP/gen
mkdir -p "$gen/tui" "$KL_TMP/obj"
cp tui/views.def "$gen/tui/views.def"
echo 'VIEW(HELLO, tui_view_hello, "Hello", "你好", NONE)' >>"$gen/tui/views.def"

# What reads the table, as the build tree's own dependency files say (the sanitizer pass reads
# its own tree's); every object is built again from the same source with the longer table.
mapfile -t readers < <(find "$KL_BUILD/obj/tui" -name '*.d' -exec grep -l 'tui/views\.def' {} + |
    sed "s|^$KL_BUILD/obj/||; s|\.d\$|.c|" | sort)
echo "# recompiled with the new row: ${readers[*]}"
tap_check "the build's dependency files name the readers of the table (${#readers[@]})" \
    test "${#readers[@]}" -ge 2
san=""
[ "${KL_SAN:-0}" = 1 ] && san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -O0 -g -fPIC -I$gen -I. -I$KL_BUILD/gen \
$(pkg-config --cflags libcjson ncursesw 2>/dev/null) -Wall -Wextra -Wformat=2 -Werror $san"
libs="$(pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw -ltinfo) -lsqlite3 -lcjson -lcurl -lexpat -ldl -lpthread -lm"
objs=() rc=0
: >"$KL_TMP/build.log"
for src in "${readers[@]}" tests/fixtures/view_hello/view_hello.c; do
    objs+=("$KL_TMP/obj/$(echo "$src" | tr / _).o")
    # shellcheck disable=SC2086
    cc $cflags -c -o "${objs[-1]}" "$src" >>"$KL_TMP/build.log" 2>&1 || rc=1
done
# shellcheck disable=SC2086
[ $rc -eq 0 ] && cc $san -o "$KL_TMP/kladder-hello" "$KL_BUILD/obj/tui/main.o" "${objs[@]}" \
    "$KL_BUILD/libkladder-tests.a" $libs >>"$KL_TMP/build.log" 2>&1
rc=$?
sed 's/^/# /' "$KL_TMP/build.log"
tap_check "kladder builds with view_hello.c as its one new file and one row" test $rc -eq 0
kh=$KL_TMP/kladder-hello

KLADDER=$kh screen_run 120x30 ':save-screen hello-dash
5
Tab
:save-screen hello-tab
j
j
j
k
:save-screen hello-moves
L
:save-screen hello-zh
L
Tab
:save-screen hello-wraps
Enter
:save-screen hello-enter-dash'
S=$SCREENS
for s in hello-dash hello-tab hello-moves hello-zh hello-wraps; do
    sed 's/^/# /' "$S/$s.screen" 2>/dev/null | sed -n '1p;3p;$p'
done
tap_check "the header lists the new view's tab sixth, after Help" \
    grep -qE '^ kladder .* 5 Help +6 Hello ' "$S/hello-dash.screen"
tap_check "Tab from Help shows it, reading the application's data (the index's gaps, the ladder)" \
    grep -qE '^ +hello from one file: [1-9][0-9]* gaps, 8 rungs, 0 moves' "$S/hello-tab.screen"
tap_check "its status line is its own" \
    grep -q 'The hello view: j and k count, Enter opens Cases' "$S/hello-tab.screen"
tap_check "its action hook gets j and k (three down, one up)" \
    grep -qE 'hello from one file: .* 2 moves' "$S/hello-moves.screen"
tap_check "L: its tab and text in Chinese" \
    sh -c "grep -qE ' 6 你好 ' '$S/hello-zh.screen' && grep -q '来自一个文件的问候' '$S/hello-zh.screen'"
tap_check "Tab from it wraps to the dashboard" grep -q 'gap \\ rung' "$S/hello-wraps.screen"

# A click on its tab, then Enter: the view leads to another view as any view does.
col=$(python3 - "$S/hello-dash.screen" <<'PY'
import sys, unicodedata
line = open(sys.argv[1], encoding='utf-8').readline()
at = line.index(' 6 Hello')
print(sum(2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in line[:at]) + 2)
PY
)
KLADDER=$kh screen_run 120x30 ":click $col 0
:save-screen hello-click
Enter
:save-screen hello-cases"
tap_check "a click on its tab (column $col) shows it" grep -q 'hello from one file' "$S/hello-click.screen"
tap_check "Enter in it opens the Cases view" grep -qE '^Case 1 of [0-9]+' "$S/hello-cases.screen"

# Every other view is the tree's: the dashboard's body is the same screen but for the header.
screen_run 120x30 ':save-screen tree-dash'
tap_check "the tree's own kladder has five tabs" \
    bash -c "grep -qE ' 5 Help ' '$S/tree-dash.screen' && ! head -1 '$S/tree-dash.screen' | grep -q ' 6 '"
tap_check "the dashboard's body is the tree's" \
    cmp -s <(sed 1d "$S/tree-dash.screen") <(sed 1d "$S/hello-dash.screen")
