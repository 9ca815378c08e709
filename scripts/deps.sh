#!/usr/bin/env bash
# Installs the Debian packages kladder needs to build and test, and only those that are missing.
# Run by `make run` and `make test`; a no-op (no apt-get at all) when everything is present.
set -euo pipefail

build_pkgs=(gcc g++ make pkg-config libncurses-dev libsqlite3-dev libcjson-dev
            libcurl4-openssl-dev libexpat1-dev)
test_pkgs=(libcmocka-dev tmux valgrind libamdhip64-dev python3 python3-pytest python3-numpy python3-venv
           python3-setuptools openssl openssh-server
           clang-22 lld-22 llvm-22 sqlite3
           openssh-client slurm-wlm munge python3-markdown tidy zsh fish)

want=("${build_pkgs[@]}")
[ "${1:-}" = "--test" ] && want+=("${test_pkgs[@]}")

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
SUDO=
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
