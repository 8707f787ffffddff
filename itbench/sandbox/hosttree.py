"""Lay a scenario's host files over the real (read-only) system, file by file.

A file whose path exists on this machine is bound over it. A file whose directory does not exist
(no ``/etc/ssh`` here) cannot get a mount point on a read-only tree, so its nearest existing
ancestor is *staged*: a tmpfs at that directory, every real entry bound back into it, the missing
directories created, the file bound in, and the whole made read-only again. Binding a whole fake
``/etc`` instead would hide the real one and break Python.
"""

from __future__ import annotations

import errno
import functools
import os
import shutil
import stat
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from itbench.errors import InputError
from itbench.sandbox.availability import reachable, tmpfs_args

if TYPE_CHECKING:  # imported where used: plugin discovery loads the domains, which use the sandbox
    from itbench.plugins.domains import LoadedDomain

#: Top-level entries of / that the sandbox provides itself rather than binding from the host.
PRIVATE_TOP = {"proc", "dev", "tmp", "sys", "run"}
#: Top-level directories that hold people's and projects' files: hidden (an empty tmpfs), except
#: for the paths the sandboxed tools need (the Python installation, itbench and the domains').
HIDDEN_TOP = {"root", "home", "mnt", "media", "srv", "work"}
#: The top-level directories of an operating system (FHS and the usual package managers'): the
#: only ones an agent sees. Anything else at / (a data volume, a checkout, a CI farm's shared
#: folder holding ground truths) is a place someone put files, hidden like HIDDEN_TOP.
SYSTEM_TOP = {
    "bin", "boot", "etc", "lib", "lib32", "lib64", "libx32", "opt", "sbin", "usr", "var",
    "nix", "snap", "gnu",
}  # fmt: skip
#: Shared scratch below a system directory: other runs leave suites and results there.
SHARED_SCRATCH = ("/var/tmp",)


# --- the kernel's /sys -------------------------------------------------------------------------
# A sandboxed process may run as uid 0 without capabilities, which still reads every file root
# owns: the host's /sys holds thousands of them (ACPI tables, slab statistics, DMI serials, the
# CPU's microcode and frequency readings), the red team read them out through a rhel9 play.
# Covering each one is not affordable: a test host lists 7,385 root-only files in /sys (of
# 15,148), a server far more, and bwrap re-reads the mount table for every bind it makes (1,000
# ``/dev/null`` binds took 4.8 s, 250 took 0.3 s), in every sandboxed process. Nothing sandboxed
# needs the host's /sys either: traced through the rhel9 oracle, Ansible (facts off, as in the
# scenarios' plays), OPA and kubectl read only what they do without (the cgroup CPU quota for a
# thread pool, Go's huge page size), falling back to the CPU count when it is missing; Ansible's
# fact gathering skips the hardware it cannot find. So a sandbox shows an empty /sys, read-only
# with the root it lies in.
def sysfs_args() -> list[str]:
    """bwrap arguments showing /sys inside the sandbox: an empty folder (see above); after the
    root's tmpfs, before it is remounted read-only."""
    return ["--dir", "/sys"]


@functools.cache
def domain_packages() -> tuple[str, ...]:
    """The top-level packages the loaded domains need inside the sandbox: the package holding each
    domain's plugin (tools there load every domain, e.g. for its cluster types) and the packages
    the domain declares in ``sandbox_packages``; never a package a domain declares as holding
    answers (``answer_packages``), whatever else names it."""
    packages: set[str] = set()
    answers: set[str] = set()
    for loaded in _loaded_domains():
        packages.add(loaded.record.value.partition(":")[0].partition(".")[0])
        packages.update(loaded.domain.sandbox_packages)
        answers.update(loaded.domain.answer_packages)
    return tuple(sorted(packages - answers))


@functools.cache
def _answer_folders() -> frozenset[PurePosixPath]:
    """``package/folder`` paths the loaded domains declare as holding answers."""
    return frozenset(
        PurePosixPath(folder)
        for loaded in _loaded_domains()
        for folder in loaded.domain.answer_folders
    )


def _loaded_domains() -> tuple[LoadedDomain, ...]:
    """The installed domains, discovered once: every sandbox asks (its answer covers)."""
    from itbench.plugins.domains import installed_domains

    return installed_domains()


#: Where the system keeps its own data (password hashes, host keys, caches, logs): every file and folder there is checked, and what not every user may read is hidden.
PRIVATE_TOPS = (Path("/etc"), Path("/var"), Path("/boot"))
#: The package trees (``/usr``, ``/opt`` and the stores): about 140 000 files on a Debian host, 2 s of CPU
#: to check each one in every sandboxing process, all readable by everyone as their packages
#: install them. Only their folders are checked (a root-only folder: polkit's rules, a browser's
#: policies); a file of a package readable by its owner alone is the package's, not the host's.
PACKAGE_TOPS = (
    Path("/usr"), Path("/opt"), Path("/bin"), Path("/sbin"), Path("/lib"), Path("/lib32"),
    Path("/lib64"), Path("/libx32"), Path("/nix"), Path("/snap"), Path("/gnu"),
)  # fmt: skip


@dataclass(frozen=True)
class PrivateEntry:
    """A file or folder of the host that not every user may read (or, a folder, enter)."""

    path: Path
    folder: bool


def _private(mode: int) -> bool:
    if stat.S_ISDIR(mode):
        return not (mode & stat.S_IROTH and mode & stat.S_IXOTH)
    return stat.S_ISREG(mode) and not mode & stat.S_IROTH


def _walk_private(top: Path, files: bool) -> Iterator[PrivateEntry]:
    """The private entries below ``top``, outermost first: below a private folder nothing more
    (it is hidden whole). ``files``: check files too, not only folders."""
    pending = [top]
    while pending:
        folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
                if not is_dir and not (files and entry.is_file(follow_symlinks=False)):
                    continue
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if _private(mode):
                yield PrivateEntry(Path(entry.path), is_dir)
            elif is_dir and not any(entry.path == s for s in SHARED_SCRATCH):
                pending.append(Path(entry.path))


@functools.cache
def _gnu_find() -> str | None:
    """The ``find`` on ``PATH`` when it is GNU findutils' (asked once per process), else None.
    Another find (BusyBox's, a BSD's) has no ``-printf``: it refuses the expression, exits 1 as
    GNU find does for an unreadable folder, and prints nothing, which would read as a host with
    no private entries at all (``/etc/shadow`` left uncovered)."""
    find = shutil.which("find")
    if find is None:
        return None
    try:
        done = subprocess.run(
            [find, "--version"], capture_output=True, timeout=30, check=False,
            env={**os.environ, "LC_ALL": "C"},
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return find if done.returncode == 0 and b"GNU findutils" in done.stdout else None


#: What GNU find reports about an entry it met in the walk (and exits 1): the Python walk skips
#: such an entry too. Anything else on its error output is about its own arguments.
_ENTRY_ERRORS = tuple(
    f": {os.strerror(code)}".encode()
    for code in (errno.EACCES, errno.ENOENT, errno.ENOTDIR, errno.ELOOP, errno.ESTALE, errno.EIO)
)


def _only_entry_errors(stderr: bytes) -> bool:
    return all(line.endswith(_ENTRY_ERRORS) for line in stderr.splitlines() if line.strip())


def _found_private(tops: list[Path], files: bool) -> list[PrivateEntry] | None:
    """:func:`_walk_private` of each of ``tops`` by GNU find: the same entries for about a third of
    the CPU (the walk lists ~160 000 entries; Python pays per entry what find pays in C). None when
    GNU find is missing or fails, so the caller walks in Python."""
    find = _gnu_find()
    if find is None or not tops:
        return None
    # a folder not every user may read or enter: printed and not entered (hidden whole); the
    # shared scratch is not entered; a regular file not every user may read (with ``files``)
    expression = ["(", "-type", "d", "(", "!", "-perm", "-o=r", "-o", "!", "-perm", "-o=x", ")",
                  "-printf", "d%p\\0", "-prune", ")"]  # fmt: skip
    for scratch in SHARED_SCRATCH:
        expression += ["-o", "(", "-type", "d", "-path", scratch, "-prune", ")"]
    if files:
        expression += ["-o", "(", "-type", "f", "!", "-perm", "-o=r", "-printf", "f%p\\0", ")"]
    try:
        done = subprocess.run(
            [find, *map(str, tops), "-mindepth", "1", *expression],
            capture_output=True, timeout=120, check=False,
            env={**os.environ, "LC_ALL": "C"},  # its messages in English, read just below
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    # 1: an entry it could not read, as the walk skips it; but find also exits 1 when it refuses
    # its expression, having walked nothing
    if done.returncode not in (0, 1) or not _only_entry_errors(done.stderr):
        return None
    return [
        PrivateEntry(Path(os.fsdecode(item[1:])), item[:1] == b"d")
        for item in done.stdout.split(b"\0")
        if item
    ]


@functools.cache
def private_entries() -> tuple[PrivateEntry, ...]:
    """Files and folders of the system that not every user may read (``/etc/shadow``, SSH host
    keys, ``/var/cache/ldconfig``, ``/var/log/btmp``, debconf's passwords): covered in the
    sandbox (a file by ``/dev/null``, a folder by an empty read-only tmpfs), whose processes may
    run as root without capabilities and so would still read what root owns. ``/var/tmp`` is a
    private tmpfs in every sandbox already: not walked."""
    found: list[PrivateEntry] = []
    for tops, files in ((PRIVATE_TOPS, True), (PACKAGE_TOPS, False)):
        present = [top for top in tops if top.is_dir() and not top.is_symlink()]
        by_find = _found_private(present, files)
        if by_find is not None:
            found += by_find
            continue
        for top in present:
            found += _walk_private(top, files)
    return tuple(sorted(found, key=lambda e: e.path))


def private_files() -> tuple[Path, ...]:
    """The private regular files of :func:`private_entries` (its folders are hidden whole)."""
    return tuple(e.path for e in private_entries() if not e.folder)


def private_folders() -> tuple[Path, ...]:
    return tuple(e.path for e in private_entries() if e.folder)


@dataclass(frozen=True)
class Covers:
    """bwrap arguments laying the covers (``mounts``), and the ``folders`` covered by a tmpfs,
    to make read-only (``remounts``) after whatever the caller mounts inside them: a run folder or
    an agent's HOME kept inside a private folder (a ``0700`` ``/var/lib/<service>``) is bound
    there, and bwrap cannot make its mount point in a tmpfs already read-only."""

    mounts: tuple[str, ...]
    folders: tuple[str, ...]

    @property
    def remounts(self) -> list[str]:
        return remounts(self.folders)


def remounts(folders: Iterable[str], hidden_by: Iterable[str | Path] = ()) -> list[str]:
    """``--remount-ro`` for each of ``folders`` but those at or below one of ``hidden_by`` (a
    tmpfs mounted over them since: not a mount point any more, bwrap could not remount it)."""
    later = [PurePosixPath(h) for h in hidden_by]
    return [
        arg
        for folder in folders
        if not any(PurePosixPath(folder).is_relative_to(h) for h in later)
        for arg in ("--remount-ro", folder)
    ]


def private_covers(
    hidden: frozenset[PurePosixPath] = frozenset(),
    within: frozenset[PurePosixPath] | None = None,
    at: str = "",
) -> Covers:
    """bwrap arguments laying ``/dev/null`` over each private file and an empty tmpfs over each
    private folder (read-only by its ``remounts``); a scenario's host tree binds its own files
    (its own ``/etc/shadow``) after them, over the cover. Entries at or below a ``hidden`` path
    are not shown at all, so get no cover (it would make them appear). ``within``: only the
    entries below these folders; ``at``: where the system is shown (``MACHINE_FILL``)."""
    args: list[str] = []
    folders: list[str] = []
    for entry in private_entries():
        path = PurePosixPath(entry.path)
        if _under(path, hidden) or (
            within is not None and not any(d in path.parents for d in within)
        ):
            continue
        if not os.path.lexists(entry.path):
            # listed once per process: one gone since (a lock, a rotated log, a cache folder)
            # would leave bwrap a mount point to make on a read-only tree, and fail the sandbox
            continue
        if entry.folder:
            args += ["--tmpfs", f"{at}{path}"]
            folders.append(f"{at}{path}")
        else:
            args += ["--ro-bind", "/dev/null", f"{at}{path}"]
    return Covers(tuple(args), tuple(folders))


def answer_paths() -> list[Path]:
    """Where the loaded domains' answers are installed (answer packages, answer folders): covered
    by an empty tmpfs in the sandbox wherever the tree around them is visible (a wheel installed
    in a bound virtual environment)."""
    import importlib.util

    found: set[Path] = set()
    for loaded in _loaded_domains():
        names = [*loaded.domain.answer_packages, *loaded.domain.answer_folders]
        for name in names:
            package, _, rest = name.partition("/")
            try:
                spec = importlib.util.find_spec(package)
            except (ImportError, ValueError):
                continue
            for location in (spec.submodule_search_locations or []) if spec else []:
                path = Path(location) / rest if rest else Path(location)
                if path.is_dir():
                    found.add(path)
    return sorted(found)


def _without_answers(package: str, location: Path) -> list[Path]:
    """``location`` (a package's folder), or its entries one by one when answer folders lie in it:
    bound separately, the answers are simply absent (no cover a sandboxed process could lift)."""
    inside = {
        f.relative_to(package) for f in _answer_folders() if f.parts[0] == package and f.parts[1:]
    }
    return _entries_without(location, inside) if inside else [location]


def _entries_without(folder: Path, left_out: set[PurePosixPath]) -> list[Path]:
    kept: list[Path] = []
    for entry in sorted(folder.iterdir()):
        if PurePosixPath(entry.name) in left_out:
            continue
        deeper = {
            f.relative_to(entry.name) for f in left_out if f.parts[0] == entry.name and f.parts[1:]
        }
        if deeper and entry.is_dir() and not entry.is_symlink():
            kept += _entries_without(entry, deeper)
        else:
            kept.append(entry)
    return kept


def needed_paths() -> list[Path]:
    """The interpreter, the virtual environment, itbench's package folder and the loaded domains'
    (editable installs live in the checkout), each exposed read-only inside otherwise hidden
    directories; answer packages and answer folders are left out."""
    import sys

    paths = {Path(sys.base_prefix).resolve(), Path(sys.prefix)}
    for package, location in _our_packages():
        if location.is_dir():
            paths.update(_without_answers(package, location))
        else:  # a one-module package
            paths.add(location)
    return sorted(paths)


def _our_packages() -> Iterator[tuple[str, Path]]:
    """itbench and the loaded domains' packages as this process finds them: (name, each of its
    package folders, or the file of a one-module package); a domain naming a package that is not
    installed is left out."""
    import importlib.util

    for package in ("itbench", *domain_packages()):
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            continue
        if spec is None:
            continue
        if spec.submodule_search_locations:
            for location in spec.submodule_search_locations:
                yield package, Path(location)
        elif spec.origin and Path(spec.origin).is_file():
            yield package, Path(spec.origin)


def import_roots() -> tuple[str, ...]:
    """The folders this process imports itbench and the loaded domains' packages from, where the
    sandbox's interpreter would not look by itself: a checkout on ``PYTHONPATH`` (a worktree run
    with another checkout's editable install, whose finder points the sandbox at a folder it does
    not see). Their package folders are bound at the same paths (:func:`needed_paths`); folders
    inside the interpreter's own prefixes are left out (site-packages is searched already, and put
    on ``PYTHONPATH`` it would come before the standard library)."""
    import sys

    prefixes = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}
    roots: list[str] = []
    for _, location in _our_packages():
        folder = location.parent  # what holds the package folder or the module
        if any(_inside(folder.resolve(), prefix) for prefix in prefixes):
            continue
        if str(folder) not in roots:
            roots.append(str(folder))
    return tuple(roots)


def _inside(path: Path, parent: Path) -> bool:
    return path == parent or parent in path.parents


def output_cover(out_dir: Path, needed: list[Path] | None = None) -> Path | None:
    """The outermost folder above ``out_dir`` that the sandbox may cover with an empty tmpfs
    (``out_dir`` is bound back inside it): one that holds none of the paths the sandboxed tools
    need, below a top-level folder. A run's other trials and environments are the output
    folder's siblings and cousins: under a private or hidden top-level folder they are invisible
    already, under a system one (``/opt/runs``) only this cover hides them."""
    needed = needed_paths() if needed is None else needed
    found = None
    for ancestor in out_dir.parents:
        if len(ancestor.parts) <= 2:  # / and the top-level folders themselves
            break
        if any(_inside(path, ancestor) or _inside(ancestor, path) for path in needed):
            break
        found = ancestor
    return found


def _resolved(target: PurePosixPath, real_root: Path) -> PurePosixPath:
    """Where ``target`` leads on this machine once its symbolic links are followed (itself when
    it leads outside ``real_root``)."""
    real = Path(os.path.realpath(real_root / str(target).lstrip("/")))
    try:
        return PurePosixPath("/") / real.relative_to(real_root.resolve()).as_posix()
    except ValueError:
        return target


#: Where a staged folder's own entries are bound once, whole, in the sandbox: the staged folder
#: links each entry there instead of binding each one. bwrap reads the sandbox's whole mount
#: table again for every bind it makes, so binding /etc and /usr/lib back entry by entry (about
#: 220 binds) cost a rhel9 play about 0.1 s of CPU in bwrap alone.
MACHINE_FILL = "/.itbench-machine"


def _machine_fill(
    staged: list[PurePosixPath], real_root: Path, owned: frozenset[PurePosixPath]
) -> list[str]:
    """Bind each outermost staged folder of the machine at ``MACHINE_FILL``, read-only, with
    what must not show covered there too: the owned paths (an empty folder, or ``/dev/null``
    for a file: the host tree describes them whole) and the files only their owner may read."""
    args: list[str] = []
    outermost = [d for d in staged if not any(p in staged for p in d.parents)]
    for directory in outermost:
        args += [
            "--ro-bind",
            str(real_root / str(directory).lstrip("/")),
            f"{MACHINE_FILL}{directory}",
        ]
    inside = [p for p in _shown_owned(owned, real_root) if any(d in p.parents for d in outermost)]
    for path in inside:
        real = real_root / str(path).lstrip("/")
        if real.is_dir():
            args += ["--tmpfs", f"{MACHINE_FILL}{path}"]
        else:
            args += ["--ro-bind", "/dev/null", f"{MACHINE_FILL}{path}"]
    if real_root == Path("/"):  # nothing is mounted inside the fill afterwards
        covers = private_covers(owned, within=frozenset(outermost), at=MACHINE_FILL)
        args += [*covers.mounts, *covers.remounts]
    return args


@dataclass
class Layout:
    """bwrap arguments for the root file system, in the order bwrap must apply them; the caller
    makes the ``covered`` folders read-only after its own mounts (the output folder may lie
    inside a private folder's cover, see :class:`Covers`)."""

    args: list[str] = field(default_factory=list)
    covered: list[str] = field(default_factory=list)


def _under(path: PurePosixPath, owned: frozenset[PurePosixPath]) -> bool:
    return path in owned or any(parent in owned for parent in path.parents)


def _exists(
    path: PurePosixPath, real_root: Path, owned: frozenset[PurePosixPath] = frozenset()
) -> bool:
    """Whether ``path`` shows from the real system: it exists there and is not at or below a
    path the host tree owns."""
    return not _under(path, owned) and (real_root / str(path).lstrip("/")).exists()


@functools.cache
def domains_host_owned() -> frozenset[PurePosixPath]:
    """The paths the loaded domains' host trees describe whole (``host_owned_paths``)."""
    return frozenset(
        PurePosixPath(path)
        for loaded in _loaded_domains()
        for path in loaded.domain.host_owned_paths
    )


def _shown_owned(owned: frozenset[PurePosixPath], real_root: Path) -> list[PurePosixPath]:
    """The owned paths this machine has, reached without a symbolic link (on a merged-/usr
    system /lib/sysctl.d is /usr/lib/sysctl.d, hidden under that name); none directly at /."""
    found = []
    for path in sorted(owned):
        real = real_root / str(path).lstrip("/")
        if len(path.parts) > 2 and real.exists() and real.resolve() == real.absolute():
            found.append(path)
    return found


def host_files(host_tree: Path) -> list[tuple[Path, PurePosixPath]]:
    """(file in the host tree, absolute path it replaces), symlinks refused so nothing escapes."""
    out: list[tuple[Path, PurePosixPath]] = []
    for source in sorted(host_tree.rglob("*")):
        if source.is_symlink():
            raise InputError(f"{source}: symbolic links are not accepted in a host tree")
        if source.is_file():
            out.append((source, PurePosixPath("/") / source.relative_to(host_tree).as_posix()))
    return out


def root_layout(
    host_tree: Path | None,
    real_root: Path = Path("/"),
    *,
    scratch_bytes: int | None = None,
    owned: frozenset[PurePosixPath] | None = None,
) -> Layout:
    """``scratch_bytes`` bounds each private tmpfs the command may write (/tmp, /run, /dev/shm).
    ``owned``: paths of the system a host tree describes whole (default: the loaded domains'
    ``host_owned_paths`` on the real root); with a host tree, this machine's files there are
    hidden: their folder is staged without them."""
    layout = Layout()
    scratch = tmpfs_args(scratch_bytes)
    args = layout.args
    args += ["--tmpfs", "/"]
    needed = needed_paths() if real_root == Path("/") else []
    hidden = HIDDEN_TOP | {p.parts[1] for p in needed if len(p.parts) > 1}
    for entry in sorted(real_root.iterdir()):
        if entry.name in PRIVATE_TOP:
            continue
        mount_point = f"/{entry.name}"
        if entry.is_symlink():
            args += ["--symlink", str(entry.readlink()), mount_point]
        elif entry.is_dir() and (entry.name in hidden or entry.name not in SYSTEM_TOP):
            # as in the agent sandbox: a top-level folder that is not the operating system's
            # (a data volume, a CI farm's share) may hold other runs' outputs and ground truths
            hidden = hidden | {entry.name}
            args += ["--tmpfs", mount_point]
        else:
            args += ["--ro-bind", str(entry), mount_point]
    args += ["--proc", "/proc", "--dev", "/dev", *scratch, "/dev/shm"]
    args += [*scratch, "/tmp", *scratch, "/run", *sysfs_args()]
    shared = [s for s in SHARED_SCRATCH if (real_root / s.lstrip("/")).is_dir()]
    for folder in shared:  # other runs' suites, seeds and outputs live there
        args += [*scratch, folder]
    # after the private mounts: a checkout (and its .venv) may itself live under /tmp
    for path in needed:
        under_shared = any(_inside(path, Path(folder)) for folder in shared)
        if path.parts[1] in hidden or path.parts[1] in PRIVATE_TOP or under_shared:
            args += [*reachable(path), "--ro-bind", str(path), str(path)]
    for path in answer_paths() if real_root == Path("/") else []:
        args += ["--tmpfs", str(path)]  # reference answers: never seen by a sandboxed script
    if real_root == Path("/"):
        covers = private_covers()
        args += covers.mounts
        layout.covered += covers.folders
    if host_tree is None:
        args += ["--remount-ro", "/"]
        return layout
    files = host_files(host_tree)
    if owned is None:
        owned = domains_host_owned() if real_root == Path("/") else frozenset()
    staged: list[PurePosixPath] = []

    def stage(target: PurePosixPath) -> None:
        ancestor = target.parent
        while not _exists(ancestor, real_root, owned):
            ancestor = ancestor.parent
        if ancestor != PurePosixPath("/") and ancestor not in staged:
            staged.append(ancestor)

    for owned_path in _shown_owned(owned, real_root):
        stage(owned_path)  # its folder is staged and the machine's entry not bound back
    for _, target in files:
        if not _exists(target, real_root, owned):
            stage(target)
    staged.sort(key=lambda p: len(p.parts))
    # the covers inside a staged folder lie under its tmpfs now; those shown are laid again below
    layout.covered = [
        f for f in layout.covered if not any(PurePosixPath(f).is_relative_to(d) for d in staged)
    ]
    args += _machine_fill(staged, real_root, owned)
    # what must be the path itself, not a link into the fill: the staged folders and the way to
    # them, and every file of the tree the machine also has (bound over the machine's)
    # (a file of the tree whose path is a symbolic link here is bound where the link leads: that
    # place too must be real, bwrap cannot mount through a link into the fill while it builds)
    on_path = {p for d in staged for p in (d, *d.parents)} | {
        p
        for _, target in files
        for place in (target, _resolved(target, real_root))
        for p in (place, *place.parents)
    }
    linked: set[PurePosixPath] = set()
    for directory in staged:
        real = real_root / str(directory).lstrip("/")
        args += ["--tmpfs", str(directory)]
        for entry in sorted(real.iterdir()):
            inside = PurePosixPath(f"{directory}/{entry.name}")
            if inside in owned:
                continue
            if entry.is_symlink():
                args += ["--symlink", str(entry.readlink()), str(inside)]
            elif inside in on_path:
                args += ["--ro-bind", str(entry), str(inside)]
            else:
                linked.add(inside)
                args += ["--symlink", f"{MACHINE_FILL}{inside}", str(inside)]
    if real_root == Path("/"):  # again: a staged folder bound the real files back in (a linked
        # entry's are covered in the fill; bwrap could not bind through the link while it builds)
        covers = private_covers(owned | linked)
        args += covers.mounts
        layout.covered += covers.folders
    for source, target in files:
        missing = []
        parent = target.parent
        while not _exists(parent, real_root, owned) and parent != PurePosixPath("/"):
            missing.append(parent)
            parent = parent.parent
        for directory in reversed(missing):
            args += ["--dir", str(directory)]
        args += ["--ro-bind", str(source), str(target)]
    for directory in staged:
        args += ["--remount-ro", str(directory)]
    args += ["--remount-ro", "/"]
    return layout
