#!/usr/bin/env bash
# Create .venv/ and install itbench (editable) with its test tools, every dependency pinned by
# constraints.txt (refreshed on purpose with scripts/lock.sh).
set -euo pipefail
python=${1:-python3}
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || "$python" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# Ray (the `ray` extra, ~80 MB wheel, ~15 s to install) is in: tests/core/test_core_ray.py runs the
# executor on a real local Ray cluster. The `docs` extra (mkdocs) is in: tests/docs builds the site.
# The `container` extra (the docker SDK) is in: tests/sandbox/test_container_backend.py drives Podman.
.venv/bin/python -m pip install -q -c constraints.txt -e '.[test,ray,docs,container]'
# The embedded OPA library's metadata claims Python>=3.14 although its manylinux_2_34 x86-64
# wheel works on 3.11, so it cannot be a declared dependency; it stays optional.
if [ "$(uname -m)" = "x86_64" ]; then
  .venv/bin/python -m pip install -q --no-deps --ignore-requires-python -c constraints.txt \
    opa-golib-python-bindings==0.4.4 \
    || echo "note: opa-golib-python-bindings unavailable here; Rego falls back to regorus" >&2
fi
