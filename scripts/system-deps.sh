#!/usr/bin/env bash
# System tools itbench uses: bubblewrap (the sandbox every CISO evaluation runs in) and, for the test
# suite, chromium (HTML report screenshot) and podman with runc (the container backend's tests
# start Podman's Docker-compatible socket). Arguments name the tools wanted (default: all).
# Installed with apt-get where it is available and we are root; otherwise we say what is missing
# and the tests that need them skip with that reason.
set -uo pipefail
wanted=("${@:-bubblewrap chromium podman runc}")
missing=()
for package in ${wanted[*]}; do
  case "$package" in
    bubblewrap) command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap) ;;
    *) command -v "$package" >/dev/null 2>&1 || missing+=("$package") ;;
  esac
done
[ ${#missing[@]} -eq 0 ] && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "installing ${missing[*]} with apt-get" >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
    || echo "warning: apt-get could not install ${missing[*]}" >&2
else
  echo "note: please install ${missing[*]} (e.g. apt-get install ${missing[*]}); tests needing them will skip" >&2
fi
exit 0
