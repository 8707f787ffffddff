"""Small filesystem helpers used across the core: atomic writes, safe copies."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any, BinaryIO

from itbench.errors import InputError, OutputError


def atomic_write_text(path: Path, text: str, durable: bool = False) -> None:
    """Write ``text`` so that readers see the old file or the whole new one, never a part.

    The temporary file lives in the same directory so ``os.replace`` is a rename on one filesystem.
    The rename alone protects against our process dying (kill -9, Ctrl-C); ``durable`` also syncs
    to disk against a machine crash, at a cost of milliseconds per file. The file gets the mode an
    ordinary ``open(path, "w")`` would give it (an existing file's mode, else 0666 less the umask)
    rather than the 0600 of a temporary file. A path that cannot be written is an ``OutputError``
    naming it.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write ({_reason(exc)})") from exc
    try:
        os.fchmod(fd, _mode_for(path))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OutputError(f"{path}: cannot write ({_reason(exc)})") from exc
        raise


def ensure_directory(path: Path) -> Path:
    """Create the output folder ``path`` (and its parents); an ``OutputError`` naming it when a
    file is in the way or it cannot be created."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{path}: cannot create the folder ({_reason(exc)})") from exc
    return path


def _reason(exc: OSError) -> str:
    """The OS's words for a failure, without the repetition of the path Python adds."""
    if isinstance(exc, (FileExistsError, NotADirectoryError)) and exc.filename:
        # mkdir over a file says "File exists", which reads as if the output itself clashed
        blocker = next((p for p in Path(exc.filename).parents if p.is_file()), None)
        if blocker is not None or Path(exc.filename).is_file():
            return f"{blocker or exc.filename} is a file, not a directory"
    return exc.strerror or str(exc)


def _mode_for(path: Path) -> int:
    """The permission bits a plain ``open(path, "w")`` would leave ``path`` with."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    # /proc tells the umask without changing it; the set-and-restore fallback briefly changes a
    # process-wide setting, so it is only used where /proc is missing.
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    current = os.umask(0o022)
    os.umask(current)
    return current


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, default=str) + "\n")


def copy_input(source: Path, target: Path) -> None:
    """Copy a scenario input (file or directory) into a workspace; never a link, so an agent cannot
    follow it back to the scenario folder where ground truth lives."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_dir():
        shutil.copytree(source, target, symlinks=False, dirs_exist_ok=True)
    else:
        shutil.copyfile(source, target)


# --- An agent's tree: never trusted -------------------------------------------------------------
# The evaluator and the runner run as the user (often root) on files an agent could arrange: a
# symbolic link to a reference answer or to /etc/shadow, a FIFO that blocks a reader forever, a
# directory where the runner writes a file. Nothing below follows a link the agent may have planted.

_NOFOLLOW_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class UnsafeFile(InputError):
    """An agent's file that is not read: a symbolic link on its path, or not a regular file."""


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _reach_agent_path(root: Path, relative: str | Path) -> tuple[Path, int] | None:
    """(``root/relative``, its mode) when it is a regular file or a folder reached from ``root``
    through real folders only; None when nothing is there (or a file stands where a folder would
    have to be); ``UnsafeFile`` (saying what is there) when a symbolic link or a special file is
    on the way. The one walk both readers below take."""
    parts = Path(relative).parts
    current, mode = root, stat.S_IFDIR  # root itself: the runner's folder
    for index, part in enumerate(parts):
        if not stat.S_ISDIR(mode):
            return None
        current = current / part
        shown = "/".join(parts[: index + 1])
        try:
            mode = os.lstat(current).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as exc:
            raise UnsafeFile(f"{shown}: cannot be read ({_reason(exc)})") from exc
        if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
            raise UnsafeFile(f"{shown} is {_kind(mode)}: not read")
    return current, mode


def agent_file(root: Path, relative: str | Path) -> Path | None:
    """``root/relative`` when it is a regular file reached from ``root`` through real directories
    only; None when nothing is there (a folder of that name is no file); ``UnsafeFile`` (saying
    what is there) when a symbolic link or a special file is in the way."""
    reached = _reach_agent_path(root, relative)
    if reached is None or stat.S_ISDIR(reached[1]):
        return None
    return reached[0]


def agent_files(root: Path, skip: frozenset[str] = frozenset()) -> tuple[list[Path], list[str]]:
    """(regular files under ``root``, sorted; why each other entry was refused). Directories are
    entered only when they are real ones (never through a link); top-level names in ``skip`` are
    left out."""
    files: list[Path] = []
    refused: list[str] = []
    pending = [root]
    while pending:
        directory = pending.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError as exc:
            refused.append(f"{directory.relative_to(root)}: cannot be listed ({_reason(exc)})")
            continue
        for entry in entries:
            path = Path(entry.path)
            rel = path.relative_to(root)
            if rel.parts[0] in skip:
                continue
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISDIR(mode):
                pending.append(path)
            elif stat.S_ISREG(mode):
                files.append(path)
            else:
                refused.append(f"{rel} is {_kind(mode)}: not read")
    return sorted(files), sorted(refused)


def check_agent_path(root: Path, relative: str | Path) -> None:
    """``UnsafeFile`` unless ``root/relative`` (absent, or a regular file or folder) is reached
    through real folders and, when a folder, holds only real folders and regular files: what a
    tool running outside the sandbox may then open by path, since nothing on the way or below
    leads elsewhere (a link to a hidden answer) or blocks (a FIFO)."""
    reached = _reach_agent_path(root, relative)
    if reached is None:
        return  # nothing there: the tool says what it misses
    path, mode = reached
    if stat.S_ISDIR(mode):
        _, refused = agent_files(path)
        if refused:
            raise UnsafeFile(f"{Path(relative) / refused[0]}")


def read_agent_bytes(path: Path) -> bytes:
    """The content of an agent's file, opened without following a link at its last component and
    refused unless it is a regular file (a FIFO would block, a device never end)."""
    with _open_agent_file(path) as handle:
        return handle.read()


def agent_file_digest(path: Path, chunk_bytes: int = 1 << 20) -> tuple[int, str]:
    """(size, SHA-256) of an agent's file, read in chunks: a file of any size costs one chunk of
    memory. Refused as :func:`read_agent_bytes` refuses."""
    digest = hashlib.sha256()
    size = 0
    with _open_agent_file(path) as handle:
        while chunk := handle.read(chunk_bytes):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def _open_agent_file(path: Path) -> BinaryIO:
    try:
        fd = os.open(path, _NOFOLLOW_READ)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeFile(f"{path.name} is a symbolic link: not read") from None
        raise
    handle = os.fdopen(fd, "rb")
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        handle.close()
        raise UnsafeFile(f"{path.name} is {_kind(mode)}: not read")
    return handle


_NOFOLLOW_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _open_real_folder(root: Path, relative: str | Path) -> int | None:
    """A descriptor of ``root/relative`` reached through real folders only, each opened relative
    to the one before (a link swapped in between two steps is refused as well); None when a part
    is missing, a link or not a folder."""
    fd = os.open(root, _NOFOLLOW_DIR)
    for part in Path(relative).parts:
        try:
            inner = os.open(part, _NOFOLLOW_DIR, dir_fd=fd)
        except OSError:  # ELOOP (a link), ENOTDIR, ENOENT
            os.close(fd)
            return None
        os.close(fd)
        fd = inner
    return fd


def write_in_agent_tree(root: Path, relative: str | Path, data: bytes, *, append: bool) -> bool:
    """Append ``data`` to the regular file ``root/relative`` (``append``) or create it anew with
    ``data``, while the agent may be changing the tree: its folder is reached through real
    folders only, each opened relative to the one before, and the file is opened from there
    without following a link or blocking. False, nothing written, when a link, FIFO or folder
    stands in the way, the folder is missing, or (appending) there is no file to append to."""
    relative = Path(relative)
    folder = _open_real_folder(root, relative.parent)
    if folder is None:
        return False
    mode = os.O_APPEND if append else os.O_CREAT | os.O_EXCL
    flags = os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | mode
    try:
        fd = os.open(relative.name, flags, 0o644, dir_fd=folder)
    except OSError:  # ELOOP (a link), ENOENT, EEXIST, ENXIO (a FIFO), EISDIR
        return False
    finally:
        os.close(folder)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        os.write(fd, data)
        return True
    finally:
        os.close(fd)


def copy_agent_tree(root: Path, relative: str | Path, target: Path) -> list[str] | None:
    """Copy the agent's folder ``root/relative`` into the new folder ``target``: its real folders
    and regular files (with their permission bits and times), every entry opened relative to its
    parent's descriptor without following a link, so what a link the agent planted points to (a
    compliant environment, an answer, any file of the machine) is never read by the runner's
    user. What was left out (links, FIFOs, sockets, devices, unreadable entries) comes back, one
    line each; None, and nothing copied, when ``root/relative`` is not a real folder."""
    top = _open_real_folder(root, relative)
    if top is None:
        return None
    refused: list[str] = []
    shown_root = Path(relative).as_posix()
    pending = [(top, target, shown_root)]
    while pending:
        fd, destination, shown = pending.pop()
        try:
            destination.mkdir(mode=0o755)
            with os.scandir(fd) as listing:
                names = sorted(entry.name for entry in listing)
            for name in names:
                _copy_entry(fd, name, destination, f"{shown}/{name}", refused, pending)
            os.chmod(destination, os.stat(fd).st_mode & 0o7777 | stat.S_IRWXU)
        finally:
            os.close(fd)
    return refused


def _copy_entry(
    parent: int,
    name: str,
    destination: Path,
    shown: str,
    refused: list[str],
    pending: list[tuple[int, Path, str]],
) -> None:
    """One entry of a folder being copied by :func:`copy_agent_tree`: a folder is queued, a
    regular file copied, anything else named in ``refused``."""
    try:
        mode = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
        if stat.S_ISDIR(mode):
            pending.append((os.open(name, _NOFOLLOW_DIR, dir_fd=parent), destination / name, shown))
            return
        if not stat.S_ISREG(mode):
            refused.append(f"{shown} is {_kind(mode)}: not copied")
            return
        fd = os.open(name, _NOFOLLOW_READ, dir_fd=parent)
    except OSError as exc:  # swapped for a link or removed since it was listed
        refused.append(f"{shown}: not copied ({_reason(exc)})")
        return
    with os.fdopen(fd, "rb") as source:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            refused.append(f"{shown} is {_kind(status.st_mode)}: not copied")
            return
        with open(destination / name, "xb") as copy:
            shutil.copyfileobj(source, copy)
    os.chmod(destination / name, status.st_mode & 0o7777)
    os.utime(destination / name, ns=(status.st_atime_ns, status.st_mtime_ns))


def read_agent_text(path: Path) -> str:
    """``read_agent_bytes`` decoded as UTF-8 (``UnicodeDecodeError`` as for ``read_text``)."""
    return read_agent_bytes(path).decode("utf-8")


def clear_planted(path: Path) -> str | None:
    """Remove what stands at ``path`` unless it is a regular file (a link, a folder, a FIFO the
    agent left where the runner writes its own file); what was removed, or None. A link is removed
    itself, never what it points to; a folder's content likewise (``rmtree`` follows no links)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISREG(mode):
        return None
    kind = _kind(mode)
    try:
        if stat.S_ISDIR(mode):
            shutil.rmtree(path)
        else:
            path.unlink()
    except OSError as exc:
        raise OutputError(
            f"{path}: {kind} is in the way and cannot be removed ({_reason(exc)})"
        ) from exc
    return f"{path.name} was {kind}: replaced"


def real_directory(root: Path, relative: str | Path) -> Path:
    """``root/relative`` as real directories all the way down (anything else in the way is removed
    first): where the runner may write its own files inside an agent's workspace."""
    current = root
    for part in Path(relative).parts:
        current = current / part
        in_the_way = os.path.lexists(current) and (current.is_symlink() or not current.is_dir())
        if in_the_way and clear_planted(current) is None:
            current.unlink()  # a regular file where the folder goes
        try:
            os.mkdir(current)
        except FileExistsError:
            pass
        except OSError as exc:
            raise OutputError(f"{current}: cannot create the folder ({_reason(exc)})") from exc
    return current


def append_line(path: Path, line: str) -> None:
    """Append ``line`` to the runner's own file ``path`` in a workspace: never through a link (a
    planted link or special file is replaced by a new regular file first)."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    for _attempt in range(3):
        try:
            fd = os.open(path, flags, 0o644)
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.EISDIR, errno.ENXIO, errno.EWOULDBLOCK):
                raise OutputError(f"{path}: cannot write ({_reason(exc)})") from exc
            clear_planted(path)
            continue
        try:
            regular = stat.S_ISREG(os.fstat(fd).st_mode)
            if regular:
                os.write(fd, line.encode("utf-8"))
        finally:
            os.close(fd)
        if regular:
            return
        clear_planted(path)
    raise OutputError(f"{path}: cannot write (something keeps replacing it)")
