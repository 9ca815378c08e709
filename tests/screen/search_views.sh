# Search as a person types it: two words with a space between them, a new `/` that starts
# empty, a number key that leaves a case's detail for the list, a search in Runs, and a view
# without search that neither offers `/` nor lets the text typed after it act as keys.
. tests/screen/screen_lib
. tests/screen/runs_lib

# Two words: every word must occur (the CLI's --search does the same). "the" alone is in every
# case; "the wait" only in sglang-600 ("Barrier after the wait: ...").
screen_run 80x24 'Tab
/
:type barrier after
:save-screen search-two-words
Enter
:save-screen search-two-words-kept
Enter
/
:type wait
Enter
/
:save-screen search-new-starts-empty
:type CI
:save-screen search-new-typed
Esc
2
:save-screen search-digit-to-list'
screen_check search-two-words
tap_check "'barrier after' finds sglang-600 alone" \
    grep -q '^Case 1 of 1 (9 in the index) · search "barrier after"$' "$SCREENS/search-two-words-kept.screen"
tap_check "the space is typed as a space" grep -q '^/barrier after *$' "$SCREENS/search-two-words.screen"
tap_check "a new / starts empty in the detail" grep -qx '/ *' "$SCREENS/search-new-starts-empty.screen"
tap_check "what is typed is the new search alone" grep -q '^/CI *$' "$SCREENS/search-new-typed.screen"
tap_check "2 from the detail shows the list" grep -q '^Case 1 of 1 (9 in the index) · search "barrier after"$' \
    "$SCREENS/search-digit-to-list.screen"

# Runs: search by host, suite, verdict; x clears it.
kl_need "python3 is needed to write the fixture documents" python3
docs=$KL_TMP/docs
results_docs "$docs" || { tap_fail "fixture documents written"; exit 0; }
results_db "$KL_TMP/runs.db" "$docs" pull || { tap_fail "hosts pulled"; exit 0; }
SCREEN_DB=$KL_TMP/runs.db SCREEN_KEEP_DB=1 screen_run 100x30 '3
/
:type cpubox suite1
Enter
:save-screen runs-search
/
:type HANG
:save-screen runs-search-verdict
Esc
x
:save-screen runs-search-cleared'
SCREEN_DB=$KL_TMP/runs.db SCREEN_KEEP_DB=1 screen_run 100x30 '3
Enter
/
:type 25
:save-screen search-refused
Enter
:save-screen search-refused-ended'
screen_check runs-search
tap_check "host and suite: one run" grep -q '^Run 1 of 1 · search "cpubox suite1"' "$SCREENS/runs-search.screen"
tap_check "it is cpubox's suite1 run" grep -qE '^ 2026-11-01 00:01 +cpubox .* suite1 ' "$SCREENS/runs-search.screen"
# No run's verdict is hang (only a check's): a search matches the run's own fields.
tap_check "a verdict no run has: none" grep -q 'No run matches the filters or the search' "$SCREENS/runs-search-verdict.screen"
tap_check "x clears the search" grep -q '^Run 1 of 6 · P pulls every host' "$SCREENS/runs-search-cleared.screen"
# A run's checks have no search: the key bar does not offer it, and the digits typed after a
# refused / (the search the person meant) neither switch views nor act.
screen_check search-refused
tap_check "a run's checks do not offer / Search" sh -c "! tail -n1 '$SCREENS/search-refused.screen' | grep -q '/ Search'"
tap_check "the refusal says why the typing is ignored" \
    grep -q 'No search in this view: typing is ignored until Enter or Esc' "$SCREENS/search-refused.screen"
tap_check "digits typed after a refused / do not switch views" \
    grep -q '^ kladder run --rung 3 --suite suite2$' "$SCREENS/search-refused-ended.screen"
tap_check "Enter ends the refused search and does nothing else" \
    cmp -s <(sed '$d' "$SCREENS/search-refused.screen" | sed '$d') \
        <(sed '$d' "$SCREENS/search-refused-ended.screen" | sed '$d')
