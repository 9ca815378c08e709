#!/usr/bin/env bash
# Help where people look for it: `kladder help` is `kladder --help`, `kladder help VERB` is
# `kladder VERB --help` for every verb, an unknown one is a usage error (exit 2); the man page
# documents every verb and the options and variables a user meets (devices, compile, hosts
# rename, run --junit, KLADDER_SUITE_PATH, help); run --help says what --list lists; and
# docs/engine.md says its run options once.
. tests/tap.sh
"$KLADDER" help >"$KL_TMP/h1"
rc=$?
"$KLADDER" --help >"$KL_TMP/h2"
tap_check "kladder help: exit 0 ($rc), the same text as --help" cmp -s "$KL_TMP/h1" "$KL_TMP/h2"
bad=""
for v in $(sed -nE 's/^VERB\("([a-z-]+)".*/\1/p' tui/cli/verbs.def); do
    "$KLADDER" help "$v" >"$KL_TMP/a" 2>&1 || bad="$bad $v(rc)"
    "$KLADDER" "$v" --help >"$KL_TMP/b" 2>&1
    cmp -s "$KL_TMP/a" "$KL_TMP/b" || bad="$bad $v"
    grep -q "usage: kladder $v" "$KL_TMP/a" || bad="$bad $v(usage)"
done
tap_check "kladder help VERB is VERB --help, for every verb${bad:+ (not:$bad)}" test -z "$bad"
"$KLADDER" help frobnicate >"$KL_TMP/out" 2>"$KL_TMP/err"
rc=$?
tap_check "help for an unknown verb: exit 2 ($rc), naming it" \
    sh -c "test $rc -eq 2 && grep -q \"unknown verb 'frobnicate'\" '$KL_TMP/err'"
man=docs/kladder.1
missing=""
for v in $(sed -nE 's/^VERB\("([a-z-]+)".*/\1/p' tui/cli/verbs.def) help; do
    grep -qE "^\.B $(echo "$v" | sed 's/-/\\\\-/g')(\\\\fR| |$)" "$man" || missing="$missing $v"
done
tap_check "the man page has every verb and help${missing:+ (missing:$missing)}" test -z "$missing"
for w in 'rename OLD NEW' 'junit' 'KLADDER_SUITE_PATH' 'events'; do
    tap_check "the man page mentions $w" grep -q -- "$w" "$man"
done
"$KLADDER" run --help >"$KL_TMP/run"
tap_check "run --help: --list lists suites, not rungs" \
    sh -c "grep -q 'run --list. lists the suites' '$KL_TMP/run' && ! grep -q 'names the rungs' '$KL_TMP/run'"
tap_check "docs/engine.md: one Options paragraph for run" test "$(grep -c '^Options: ' docs/engine.md)" -eq 1
