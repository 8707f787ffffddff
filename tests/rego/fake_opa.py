"""A stand-in for the ``opa`` executable that replays recorded answers (no opa binary can be
installed where these tests run). Run as ``python fake_opa.py <opa arguments>``.

Each answer is recorded for one key: the subcommand, the query, a digest of every policy, data and
input file it reads, and the flags. Anything not recorded fails loudly (exit 99, the key on
stderr) — never a default answer. The recordings (``opa_recordings.json``) are made by
``record_opa.py``, which says where their content comes from; file paths in them are written as
``{dir}`` and replayed with the directory the files are in now.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

RECORDINGS = Path(__file__).with_name("opa_recordings.json")
#: Flags that take a value (the value is part of the key); other "--x" flags are boolean.
VALUED = {"--format", "-f", "-r", "--run", "-d", "--data", "-i", "--input"}


def _digest(path: Path) -> str:
    text = path.read_text()
    if path.suffix == ".json":  # the same document, however it is spaced
        text = json.dumps(json.loads(text), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def key_for(argv: list[str]) -> tuple[dict[str, Any], str]:
    """(the key of an invocation, the directory its files are in)."""
    command, rest = (argv[0], argv[1:]) if argv else ("", [])
    files: list[Path] = []
    input_file: Path | None = None
    flags: list[str] = []
    positional: list[str] = []
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg in VALUED and i + 1 < len(rest):
            value = rest[i + 1]
            if arg in ("-d", "--data"):
                files.append(Path(value))
            elif arg in ("-i", "--input"):
                input_file = Path(value)
            else:
                flags.append(f"{arg}={value}")
            i += 2
            continue
        if arg.startswith("-"):
            flags.append(arg)
        else:
            positional.append(arg)
        i += 1
    query = ""
    if command == "eval" and positional:
        query = positional.pop()
    files += [Path(p) for p in positional]  # check and test take files as arguments
    key = {
        "command": command,
        "query": query,
        "files": sorted((f.name, _digest(f)) for f in files),
        "input": _digest(input_file) if input_file else None,
        "flags": sorted(flags),
    }
    where = str(files[0].parent) if files else ""
    return key, where


def key_id(key: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:20]


def main(argv: list[str]) -> int:
    recordings = json.loads(Path(os.environ.get("FAKE_OPA_RECORDINGS", RECORDINGS)).read_text())
    key, where = key_for(argv)
    entry = recordings["recordings"].get(key_id(key))
    if entry is None:
        sys.stderr.write(
            f"fake opa: no recording for {json.dumps(key, sort_keys=True)}; "
            "add the case to tests/rego/record_opa.py and run it\n"
        )
        return 99
    sys.stdout.write(entry["stdout"].replace("{dir}", where))
    sys.stderr.write(entry["stderr"].replace("{dir}", where))
    return int(entry["returncode"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
