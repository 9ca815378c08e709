# Colour choice in a real terminal (tmux): NO_COLOR gives monochrome, --color=always wins over
# it, --color=never gives monochrome, and a 256-colour terminal gets the 256-colour forms.
# capture-pane -e shows the colours tmux received as SGR sequences.
. tests/lib.sh

: "${KLADDER:=build/kladder}"
: "${KL_TMP:=$(mktemp -d)}"
kl_need "tmux is not installed (scripts/deps.sh --test installs it)" tmux
sock=kladder-color-$$
tm() { tmux -L "$sock" "$@"; }
trap 'tm kill-server 2>/dev/null' EXIT

# run_case NAME ENV OPTIONS: starts kladder, waits for the dashboard, saves the escaped capture.
run_case() {
    local name=$1 envs=$2 opts=$3 i
    tm -f /dev/null new-session -d -s "$name" -x 100 -y 30 \
        "env -u NO_COLOR LC_ALL=C.UTF-8 TERM=screen-256color $envs '$KLADDER' --db '$KL_TMP/c.db' $opts; sleep 30"
    for i in $(seq 1 100); do
        tm capture-pane -p -t "$name" 2>/dev/null | grep -q '1 Dashboard' && break
        sleep 0.1
    done
    sleep 0.2 # let the first frame finish
    tm capture-pane -e -p -t "$name" >"$KL_TMP/$name.txt"
    tm send-keys -t "$name" q
}
has_color() { grep -qE $'\e\\[([0-9;]*;)?(3[0-7]|4[0-7]|38;5;[0-9]+|48;5;[0-9]+)(;[0-9;]*)?m' "$1"; }
has_256() { grep -qE $'\e\\[([0-9;]*;)?38;5;[0-9]+' "$1"; }

run_case plain "" ""
run_case nocolor "NO_COLOR=1" ""
run_case empty "NO_COLOR=" ""
run_case always "NO_COLOR=1" "--color=always"
run_case never "" "--color=never"

tap_check "the dashboard was captured" grep -q 'Dashboard' "$KL_TMP/plain.txt"
tap_check "default: colour" has_color "$KL_TMP/plain.txt"
tap_check "default on a 256-colour terminal: 256-colour forms" has_256 "$KL_TMP/plain.txt"
tap_check "NO_COLOR=1: no colour" sh -c "! grep -qE \$'\\e\\\\[([0-9;]*;)?(3[0-7]|38;5)' '$KL_TMP/nocolor.txt'"
tap_check "NO_COLOR=1: still bold/reverse (the monochrome forms)" grep -qE $'\e\\[([0-9;]*;)?(1|7)(;[0-9;]*)?m' "$KL_TMP/nocolor.txt"
tap_check "NO_COLOR empty: colour (only a non-empty value counts)" has_color "$KL_TMP/empty.txt"
tap_check "--color=always wins over NO_COLOR" has_color "$KL_TMP/always.txt"
tap_check "--color=never: no colour" sh -c "! grep -qE \$'\\e\\\\[([0-9;]*;)?(3[0-7]|38;5)' '$KL_TMP/never.txt'"
