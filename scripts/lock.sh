#!/usr/bin/env bash
# Refresh constraints.txt on purpose: resolve every dependency of itbench[test,ray,docs,container] (direct and
# transitive) afresh in a throw-away venv, add the embedded OPA library, and pin what got
# installed. `make setup`, `make run`, `make test` and CI install with `-c constraints.txt`, so a
# new release upstream changes nothing until this script is run and its diff committed.
set -euo pipefail
python=${1:-python3}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$python" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q --upgrade pip
"$tmp/venv/bin/python" -m pip install -q '.[test,ray,docs,container]'
if [ "$(uname -m)" = "x86_64" ]; then
  "$tmp/venv/bin/python" -m pip install -q --no-deps --ignore-requires-python \
    opa-golib-python-bindings==0.4.4
fi
{
  echo "# Every distribution make setup/run/test and CI install, pinned: refreshed on purpose by"
  echo "# scripts/lock.sh (a fresh resolve of itbench[test,ray,docs,container]), never by a new upstream release."
  echo "# Python $("$tmp/venv/bin/python" -c 'import platform; print(platform.python_version())'), $(uname -m)."
  "$tmp/venv/bin/python" -m pip freeze --exclude itbench | LC_ALL=C sort -f
} > constraints.txt
echo "constraints.txt: $(grep -c '==' constraints.txt) pins" >&2
