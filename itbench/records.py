"""Signed runner records: files the runner leaves in a trial folder for a later ``eval``.

Some trials are judged from what the runner recorded when the trial's cluster closed (a
mitigation verdict, a cluster's end state): ``eval`` has no cluster left to ask. The
trial folder is the agent's workspace and the outputs folder anyone hands in, so such a record is
signed: an HMAC-SHA256 over the exact bytes written, keyed by a secret that lives outside every
run folder (``key_path``: the user's state folder, 0600, made on first use). ``eval`` scores a
record only when its signature matches; an edited, unsigned or missing one is an ``InputError``
naming the file, never a score.

The signature also covers the trial's place (``<scenario folder>/<trial folder>/<record>``):
a genuine record copied into another scenario's or trial's folder does not verify. It does not
name the run: a record moved between two runs of the same scenario and trial number, made with
the same key, still verifies (it is a record this runner made for that trial).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import stat
import tempfile
from pathlib import Path
from typing import Any

from itbench.errors import InputError, OutputError
from itbench.fsutil import (
    UnsafeFile,
    agent_file,
    atomic_write_text,
    read_agent_bytes,
    real_directory,
)

__all__ = [
    "STATE_DIR_VARIABLE",
    "key_path",
    "read_signed_bytes",
    "read_signed_record",
    "signature_of",
    "write_signed_record",
    "write_signed_text",
]

#: overrides where the signing key lives (tests; a shared evaluation account)
STATE_DIR_VARIABLE = "ITBENCH_STATE_DIR"
KEY_FILE = "record-key"
SIGNATURE_SUFFIX = ".sig"
_DOMAIN = b"itbench runner record v1\n"


def state_dir() -> Path:
    """``$ITBENCH_STATE_DIR``, else ``$XDG_STATE_HOME/itbench``, else ``~/.local/state/itbench``:
    under the user's home, which the agent sandbox hides."""
    if os.environ.get(STATE_DIR_VARIABLE):
        return Path(os.environ[STATE_DIR_VARIABLE])
    if os.environ.get("XDG_STATE_HOME"):
        return Path(os.environ["XDG_STATE_HOME"]) / "itbench"
    return Path.home() / ".local" / "state" / "itbench"


def key_path() -> Path:
    return state_dir() / KEY_FILE


def _record_key() -> bytes:
    """The signing key, made (32 random bytes, 0600, in a 0700 folder) the first time. A key file
    others may read, or that is not a regular file of this user, is refused: a key anyone can read
    signs anything."""
    path = key_path()
    if not os.path.lexists(path):
        _make_key(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        raise InputError(f"{path}: cannot read the record signing key ({exc.strerror})") from exc
    with os.fdopen(fd, "r", encoding="ascii") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
            raise InputError(f"{path}: the record signing key is not a file of this user")
        if info.st_mode & 0o077:
            raise InputError(
                f"{path}: the record signing key may be read by others "
                f"(mode {stat.S_IMODE(info.st_mode):o}); make it 0600"
            )
        try:
            key = bytes.fromhex(handle.read().strip())
        except ValueError:
            key = b""
    if len(key) < 32:
        raise InputError(f"{path}: not a record signing key (64 hex digits or more)")
    return key


def _make_key(path: Path) -> None:
    """Write a new key whole under a temporary name, then link it in place: runs of several
    workers may start at once, and none may read a half-written key or replace another's."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mode 0600
    except OSError as exc:
        raise OutputError(f"{path}: cannot create the record signing key ({exc.strerror})") from exc
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(32) + "\n")
        with contextlib.suppress(FileExistsError):  # another process made it first: theirs
            os.link(tmp, path)
    except OSError as exc:
        raise OutputError(f"{path}: cannot create the record signing key ({exc.strerror})") from exc
    finally:
        os.unlink(tmp)


def signature_of(relative: Path) -> Path:
    """Where the signature of the record ``relative`` lies: beside it, ``<record>.sig``."""
    return relative.with_name(relative.name + SIGNATURE_SUFFIX)


def _signature(workspace: Path, relative: Path, data: bytes) -> str:
    place = f"{workspace.parent.name}/{workspace.name}/{relative.as_posix()}\n".encode()
    return hmac.new(_record_key(), _DOMAIN + place + data, hashlib.sha256).hexdigest()


def write_signed_record(workspace: Path, relative: Path, doc: Any) -> None:
    """Write ``doc`` as JSON to ``workspace/relative`` with its signature beside it. The folder is
    made real first (the agent may have left a link there)."""
    write_signed_text(workspace, relative, json.dumps(doc, indent=2, default=str) + "\n")


def write_signed_text(workspace: Path, relative: Path, text: str) -> None:
    """Write ``text`` to ``workspace/relative`` with its signature beside it (a record that is
    not one JSON document: the trial's transcript)."""
    folder = real_directory(workspace, relative.parent)
    # the signature first: a crash between the two leaves a record that does not verify, never
    # an unsigned one that reads as an old run's
    atomic_write_text(
        folder / signature_of(relative).name,
        _signature(workspace, relative, text.encode()) + "\n",
    )
    atomic_write_text(folder / relative.name, text)


def read_signed_record(workspace: Path, relative: Path, missing: str) -> Any:
    """The JSON record at ``workspace/relative`` once its signature matches. ``missing`` says
    what its absence means. Read as any agent file: never through a link."""
    path = workspace / relative
    data = read_signed_bytes(workspace, relative, missing)
    try:
        return json.loads(data.decode("utf-8"))
    except ValueError as exc:
        raise InputError(f"{path}: unreadable record: {exc}") from None


def read_signed_bytes(workspace: Path, relative: Path, missing: str) -> bytes:
    """The bytes of the record at ``workspace/relative`` once its signature matches; an
    ``InputError`` naming the file otherwise."""
    path = workspace / relative
    sig_relative = signature_of(relative)
    try:
        found = agent_file(workspace, relative)
        sig_found = agent_file(workspace, sig_relative)
        if found is None:
            raise InputError(f"{path}: {missing}")
        data = read_agent_bytes(found)
        if sig_found is None:
            raise InputError(
                f"{path}: not signed ({sig_relative.name} is missing): it cannot be verified, "
                "so it is not scored (a run from before itbench signed its records, or the "
                "signature was removed); rerun the trial"
            )
        signature = read_agent_bytes(sig_found).decode("ascii", "replace").strip()
    except (UnsafeFile, OSError) as exc:
        raise InputError(f"{path}: not read ({exc})") from None
    if not hmac.compare_digest(signature, _signature(workspace, relative, data)):
        raise InputError(
            f"{path}: its signature does not match: changed since the runner wrote it, moved from "
            f"another trial, or signed with another key than {key_path()}; not scored"
        )
    return data
