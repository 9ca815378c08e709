# kladder pull over sftp:// and scp:// from an sshd the test starts on a loopback port, with a
# throw-away host key and user keys: the pull succeeds only with the host key in known_hosts and
# an authorised identity, and every refusal names its cause and leaves the database unchanged.
. tests/tap.sh
. tests/importers/pull_lib.bash
sshd_bin=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$sshd_bin" ] || ! command -v ssh-keygen >/dev/null; then
    tap_skip "sftp/scp: no sshd or ssh-keygen on this machine (openssh-server, openssh-client)"
    exit 0
fi
d=$KL_TMP/ssh
mkdir -p "$d/home/.ssh" "$d/www"
chmod 700 "$d/home/.ssh"
ssh-keygen -q -t ed25519 -N '' -C host -f "$d/host_key"
ssh-keygen -q -t ed25519 -N '' -C other-host -f "$d/other_host_key"
# ~/.ssh/id_ed25519 is found by default (curl on its own would look for id_rsa only)
ssh-keygen -q -t ed25519 -N '' -C user -f "$d/home/.ssh/id_ed25519"
ssh-keygen -q -t ed25519 -N '' -C user2 -f "$d/user2"                 # offered with --identity
ssh-keygen -q -t ed25519 -N '' -C stranger -f "$d/stranger"           # not authorised
cat "$d/home/.ssh/id_ed25519.pub" "$d/user2.pub" >"$d/authorized_keys"
chmod 600 "$d/authorized_keys"
python3 $gen --host gpu-s --runs 3 --checks 4 --out "$d/www/s.json"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$d/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $d/host_key
PidFile $d/sshd.pid
AuthorizedKeysFile $d/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
Subsystem sftp internal-sftp
LogLevel VERBOSE
CONF
# sshd insists on its privilege-separation directory when it starts as root
[ "$(id -u)" = 0 ] && mkdir -p /run/sshd
"$sshd_bin" -D -e -f "$d/sshd_config" 2>"$d/sshd.log" &
_servers+=($!)
up=0
for _ in $(seq 1 100); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && { up=1; break; }
    sleep 0.05
done
if [ $up = 0 ]; then
    sed 's/^/# sshd: /' "$d/sshd.log"
    tap_fail "the loopback sshd starts"
    exit 0
fi
tap_ok "the loopback sshd starts"
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$d/host_key.pub")" >"$d/known_hosts"
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$d/other_host_key.pub")" >"$d/wrong_known_hosts"
user=$(id -un)
url="sftp://$user@127.0.0.1:$port$d/www/s.json"
db=$KL_TMP/ssh.db
pull() { HOME=$d/home "$KLADDER" --db "$db" pull --connect-timeout 5 --timeout 20 "$@"; }
"$KLADDER" --db "$db" hosts add s "$url" >/dev/null

# refusals first: each leaves the database as it was
sum=$(db_sum "$db")
pull s --known-hosts "$d/wrong_known_hosts" >"$KL_TMP/out" 2>&1; rc=$?
tap_check "a host key that differs from known_hosts: exit 1" test $rc = 1
tap_check "… the error says the host key is refused" grep -q "^s: error: .*host key is not in known_hosts" "$KL_TMP/out"
tap_check "… the database is unchanged" test "$(db_sum "$db")" = "$sum"
pull s --known-hosts "$d/known_hosts" --identity "$d/stranger" >"$KL_TMP/out" 2>&1; rc=$?
tap_check "an identity the server does not accept: exit 1" test $rc = 1
tap_check "… the error is about logging in" grep -qi "^s: error: .*\(auth\|login\|log in\)" "$KL_TMP/out"
tap_check "… the database is unchanged" test "$(db_sum "$db")" = "$sum"

# the default identity (~/.ssh/id_ed25519) over sftp
pull s --known-hosts "$d/known_hosts" >"$KL_TMP/out" 2>&1; rc=$?
tap_check "sftp pull with the default identity exits 0" test $rc = 0
tap_check "… brings 3 runs and 12 checks" grep -qx "s: 3 new runs, 12 checks (0 already present)" "$KL_TMP/out"
grep -q "^s:" "$KL_TMP/out" || sed 's/^/# /' "$KL_TMP/out" "$d/sshd.log" | tail -20
pull s --known-hosts "$d/known_hosts" >"$KL_TMP/out" 2>&1
tap_check "a second sftp pull adds nothing" grep -q "^s: 0 new runs, 0 checks" "$KL_TMP/out"

# scp:// with an identity given on the command line, into another database
db2=$KL_TMP/scp.db
"$KLADDER" --db "$db2" hosts add s "scp://$user@127.0.0.1:$port$d/www/s.json" >/dev/null
HOME=$d/home "$KLADDER" --db "$db2" pull --known-hosts "$d/known_hosts" --identity "$d/user2" \
    >"$KL_TMP/out" 2>&1; rc=$?
tap_check "scp pull with --identity exits 0" test $rc = 0
tap_check "… brings the same 3 runs" grep -qx "s: 3 new runs, 12 checks (0 already present)" "$KL_TMP/out"
a=$("$KLADDER" --db "$db" export --all | python3 -c 'import json,sys; print(sorted(r["run_id"] for r in json.load(sys.stdin)["runs"]))')
b=$("$KLADDER" --db "$db2" export --all | python3 -c 'import json,sys; print(sorted(r["run_id"] for r in json.load(sys.stdin)["runs"]))')
tap_check "sftp and scp stored the same runs" test "$a" = "$b"

# a missing file on the server is a clear error
"$KLADDER" --db "$db2" hosts add gone "sftp://$user@127.0.0.1:$port$d/www/none.json" >/dev/null
sum=$(db_sum "$db2")
HOME=$d/home "$KLADDER" --db "$db2" pull gone --known-hosts "$d/known_hosts" >"$KL_TMP/out" 2>&1; rc=$?
tap_check "a missing remote file: exit 1" test $rc = 1
tap_check "… the error names it" grep -qi "^gone: error: .*\(no such file\|not found\|does not exist\)" "$KL_TMP/out"
tap_check "… the database is unchanged" test "$(db_sum "$db2")" = "$sum"
stop_servers
