"""Lay a scenario's host files over the real (read-only) system, file by file.

A file whose path exists on this machine is bound over it. A file whose directory does not exist
(no ``/etc/ssh`` here) cannot get a mount point on a read-only tree, so its nearest existing
ancestor is *staged*: a tmpfs at that directory, every real entry bound back into it, the missing
directories created, the file bound in, and the whole made read-only again. Binding a whole fake
``/etc`` instead would hide the real one and break Python.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from itbench.errors import InputError
from itbench.sandbox.availability import tmpfs_args

#: Top-level entries of / that the sandbox provides itself rather than binding from the host.
PRIVATE_TOP = {"proc", "dev", "tmp", "sys", "run"}
#: Top-level directories that hold people's and projects' files: hidden (an empty tmpfs), except
#: for the paths the sandboxed tools need (the Python installation, itbench and the domains').
HIDDEN_TOP = {"root", "home", "mnt", "media", "srv", "work"}


@functools.cache
def domain_packages() -> tuple[str, ...]:
    """The top-level packages the loaded domains need inside the sandbox: the package holding each
    domain's plugin (tools there load every domain, e.g. for its cluster types) and the packages
    the domain declares in ``sandbox_packages``."""
    from itbench.plugins.domains import load_domains

    packages: set[str] = set()
    for loaded in load_domains():
        packages.add(loaded.record.value.partition(":")[0].partition(".")[0])
        packages.update(loaded.domain.sandbox_packages)
    return tuple(sorted(packages))


def needed_paths() -> list[Path]:
    """The interpreter, the virtual environment, itbench's package folder and the loaded domains'
    (editable installs live in the checkout), each exposed read-only inside otherwise hidden
    directories."""
    import importlib.util
    import sys

    paths = {Path(sys.base_prefix).resolve(), Path(sys.prefix)}
    for package in ("itbench", *domain_packages()):
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):  # a domain naming a package that is not installed
            spec = None
        if spec is not None and spec.submodule_search_locations:
            paths.update(Path(p) for p in spec.submodule_search_locations)
        elif spec is not None and spec.origin and Path(spec.origin).is_file():  # one module
            paths.add(Path(spec.origin))
    return sorted(paths)


@dataclass
class Layout:
    """bwrap arguments for the root file system, in the order bwrap must apply them."""

    args: list[str] = field(default_factory=list)


def _exists(path: PurePosixPath, real_root: Path) -> bool:
    return (real_root / str(path).lstrip("/")).exists()


def host_files(host_tree: Path) -> list[tuple[Path, PurePosixPath]]:
    """(file in the host tree, absolute path it replaces), symlinks refused so nothing escapes."""
    out = []
    for source in sorted(host_tree.rglob("*")):
        if source.is_symlink():
            raise InputError(f"{source}: symbolic links are not accepted in a host tree")
        if source.is_file():
            out.append((source, PurePosixPath("/") / source.relative_to(host_tree).as_posix()))
    return out


def root_layout(
    host_tree: Path | None, real_root: Path = Path("/"), *, scratch_bytes: int | None = None
) -> Layout:
    """``scratch_bytes`` bounds each private tmpfs the command may write (/tmp, /run, /dev/shm)."""
    layout = Layout()
    scratch = tmpfs_args(scratch_bytes)
    args = layout.args
    args += ["--tmpfs", "/"]
    needed = needed_paths() if real_root == Path("/") else []
    hidden = HIDDEN_TOP | {p.parts[1] for p in needed if len(p.parts) > 1}
    for entry in sorted(real_root.iterdir()):
        if entry.name in PRIVATE_TOP:
            continue
        target = f"/{entry.name}"
        if entry.is_symlink():
            args += ["--symlink", str(entry.readlink()), target]
        elif entry.name in hidden and entry.is_dir():
            args += ["--tmpfs", target]
        else:
            args += ["--ro-bind", str(entry), target]
    args += ["--proc", "/proc", "--dev", "/dev", *scratch, "/dev/shm"]
    args += [*scratch, "/tmp", *scratch, "/run", "--ro-bind-try", "/sys", "/sys"]
    # after the private mounts: a checkout (and its .venv) may itself live under /tmp
    for path in needed:
        if path.parts[1] in hidden or path.parts[1] in PRIVATE_TOP:
            args += ["--ro-bind", str(path), str(path)]
    if host_tree is None:
        args += ["--remount-ro", "/"]
        return layout
    files = host_files(host_tree)
    staged: list[PurePosixPath] = []
    for _, target in files:
        if _exists(target, real_root):
            continue
        ancestor = target.parent
        while not _exists(ancestor, real_root):
            ancestor = ancestor.parent
        if ancestor != PurePosixPath("/") and ancestor not in staged:
            staged.append(ancestor)
    for directory in sorted(staged, key=lambda p: len(p.parts)):
        real = real_root / str(directory).lstrip("/")
        args += ["--tmpfs", str(directory)]
        for entry in sorted(real.iterdir()):
            target = f"{directory}/{entry.name}"
            if entry.is_symlink():
                args += ["--symlink", str(entry.readlink()), target]
            else:
                args += ["--ro-bind", str(entry), target]
    for source, target in files:
        missing = []
        parent = target.parent
        while not _exists(parent, real_root) and parent != PurePosixPath("/"):
            missing.append(parent)
            parent = parent.parent
        for directory in reversed(missing):
            args += ["--dir", str(directory)]
        args += ["--ro-bind", str(source), str(target)]
    for directory in staged:
        args += ["--remount-ro", str(directory)]
    args += ["--remount-ro", "/"]
    return layout
