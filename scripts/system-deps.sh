#!/usr/bin/env bash
# System tools the test suite uses: bubblewrap (sandbox) and chromium (HTML report screenshot).
# Installed with apt-get where it is available and we are root; otherwise we say what is missing
# and the tests that need them skip with that reason.
set -uo pipefail
missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "installing ${missing[*]} with apt-get" >&2
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
    || echo "warning: apt-get could not install ${missing[*]}" >&2
else
  echo "note: please install ${missing[*]} (e.g. apt-get install ${missing[*]}); tests needing them will skip" >&2
fi
exit 0
