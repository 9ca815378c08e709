# Helpers for the pull tests (sourced after tests/tap.sh): loopback servers that are always
# stopped, synthetic documents, and a fingerprint of the database file that sees any change.
gen=tests/fixtures/remote/gen_results.py
_servers=()
stop_servers() {
    local p
    for p in "${_servers[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${_servers[@]}"; do wait "$p" 2>/dev/null; done
    _servers=()
}
trap stop_servers EXIT

# start_server ROOT [--tls CERT KEY]: sets PORT; the server is killed when the script exits.
start_server() {
    local root=$1; shift
    local pf
    pf=$(mktemp "$KL_TMP/port.XXXXXX"); rm -f "$pf"
    python3 tests/importers/serve.py --root "$root" --port-file "$pf" "$@" &
    _servers+=($!)
    local i
    for i in $(seq 1 100); do [ -s "$pf" ] && break; sleep 0.05; done
    PORT=$(cat "$pf")
}

# db_sum DB: a checksum of the database file. kladder checkpoints and removes the WAL when it
# closes, so after each command the file alone holds every byte of the database.
db_sum() {
    if [ -e "$1-wal" ] && [ -s "$1-wal" ]; then echo "wal-left-behind"; return; fi
    sha256sum "$1" | cut -d' ' -f1
}
