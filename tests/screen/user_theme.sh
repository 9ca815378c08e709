# The user's own themes: a file in $XDG_CONFIG_HOME/kladder/themes joins the cycle of `t` after
# the built-in ones and its name shows in the header; KLADDER_THEME starts with it; a broken one
# is named in the status line with its line and reason while the default colours stay.
. tests/screen/screen_lib
export XDG_CONFIG_HOME=$KL_TMP/config
mkdir -p "$XDG_CONFIG_HOME/kladder/themes"
cp themes/light.theme "$XDG_CONFIG_HOME/kladder/themes/zz-mine.theme"
sed 's|^title .*|title  bold  cyan/default  300/default|' themes/default.theme \
    >"$XDG_CONFIG_HOME/kladder/themes/broken.theme"

screen_run 100x24 't
t
t
t
:save-screen theme-5th
t
:save-screen theme-6th
t
:save-screen theme-back'
tap_check "after the four built-in themes comes the first user theme (broken, by name)" \
    grep -q "English · broken" "$SCREENS/theme-5th.screen"
tap_check "… whose fault is named with the file and line" \
    grep -q "broken.theme:[0-9]*:.*300" "$SCREENS/theme-5th.screen"
tap_check "then the user's zz-mine" grep -q "English · zz-mine" "$SCREENS/theme-6th.screen"
tap_check "and back to default" grep -q "English · default" "$SCREENS/theme-back.screen"

KLADDER_THEME=zz-mine screen_run 100x24 ':save-screen theme-env'
tap_check "KLADDER_THEME starts with a user theme" grep -q "English · zz-mine" "$SCREENS/theme-env.screen"
