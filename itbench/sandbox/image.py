"""The evaluation image of the container backend, made from this machine without a registry.

A root file system holding only what evaluation runs: the operating system's packages that the
shells and the interpreter need (the Debian packages owning the shared libraries they link, with
their dependencies, found through ``dpkg``), ``/etc`` without its private files, the Python
installation and the virtual environment at the paths they have here (so ``sys.executable`` and
the paths callers build from it are the same inside), with only the distributions itbench itself
requires (no extras: documentation, tests, Ray), and the ``kubectl`` binary. itbench's own source
is not in the image: the container backend binds it read-only, answers left out, as bubblewrap
does, so editing the code never needs a new image.

The tag is a hash of what goes in (each file's path, mode, size, modification time and link
target): the same machine state gives the same tag and the image is reused; any change (a package
upgraded, a distribution added) gives a new one.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from itbench.sandbox.availability import SandboxUnavailable

if TYPE_CHECKING:  # the docker SDK is an optional extra, imported when an image is built
    from docker import DockerClient
from itbench.sandbox.hosttree import (
    answer_paths,
    domains_host_owned,
    private_files,
    private_folders,
)

IMAGE_REPOSITORY = "localhost/itbench-evaluation"
#: Bumped when what goes into the image changes in a way the file list does not show.
RECIPE = "2"
#: Packages every evaluation needs whatever the libraries say: the shells and tools that fetch
#: scripts, playbooks and the launcher call.
SEED_PACKAGES = (
    "base-files", "bash", "dash", "coreutils", "findutils", "grep", "sed", "mawk", "tar",
    "gzip", "procps", "util-linux", "libc-bin", "ca-certificates", "netbase", "tzdata",
)  # fmt: skip
#: Parts of the file system no evaluation reads: documentation, manuals, translations.
_SKIP_PREFIXES = ("/usr/share/doc/", "/usr/share/man/", "/usr/share/info/", "/usr/share/locale/")
#: Parts of the Python installation no evaluation reads (the test suite, static libraries, its
#: own global site-packages, which a virtual environment does not use).
_SKIP_IN_PREFIX = ("lib/python{v}/test/", "lib/python{v}/config-", "lib/python{v}/site-packages/")
_DEPENDENCY = re.compile(r"([a-z0-9][a-z0-9+.-]*)(:[a-z0-9]+)?")


#: The labels naming the environment an image was built from: its interpreter's prefix (the
#: virtual environment's path) and a hash of what is installed there. An engine may be shared by
#: several checkouts (each with its own venv): a run picks only an image of its own environment.
ENVIRONMENT_LABEL = "io.itbench.environment"
ENVIRONMENT_HASH_LABEL = "io.itbench.environment-hash"


def environment_labels() -> dict[str, str]:
    """The labels of an image built from this process's environment: ``sys.prefix`` and a hash of
    the interpreter's version and the distributions installed in the environment (their
    metadata folders' names carry name and version; an editable install's path hook names its
    checkout). A directory listing per site folder: cheap enough for every run."""
    digest = hashlib.sha256(f"{sys.version}\n{sys.prefix}\n".encode())
    prefix = Path(sys.prefix)
    for folder in sorted({Path(p) for p in sys.path if p and Path(p).is_dir()}):
        if prefix not in folder.parents:
            continue
        for entry in sorted(folder.iterdir()):
            if entry.name.endswith((".dist-info", ".egg-info", ".pth", ".egg-link")):
                digest.update(f"{entry}\n".encode())
                if entry.suffix in (".pth", ".egg-link") and entry.is_file():
                    digest.update(entry.read_bytes())
    return {ENVIRONMENT_LABEL: sys.prefix, ENVIRONMENT_HASH_LABEL: digest.hexdigest()[:16]}


def matches_environment(labels: dict[str, str] | None) -> bool:
    """Whether an image with ``labels`` was built from this process's environment."""
    wanted = environment_labels()
    return all((labels or {}).get(name) == value for name, value in wanted.items())


@dataclass(frozen=True)
class ImagePlan:
    """What the image holds: absolute host paths (files, links, directories) and its tag."""

    paths: tuple[Path, ...]
    tag: str


@dataclass(frozen=True)
class BuiltImage:
    tag: str
    reused: bool
    seconds: float
    files: int


def required_distributions(root: str = "itbench") -> set[str]:
    """Normalised names of ``root``'s distribution and everything its base requirements need
    (extras left out, environment markers honoured)."""
    seen: set[str] = set()
    queue = [root]
    while queue:
        name = _normal(queue.pop())
        if name in seen:
            continue
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        seen.add(name)
        for requirement in dist.requires or []:
            spec, _, marker = requirement.partition(";")
            if "extra" in marker or not _marker_holds(marker):
                continue
            match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec)
            if match:
                queue.append(match.group(1))
    return seen


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _marker_holds(marker: str) -> bool:
    if not marker.strip():
        return True
    try:
        from packaging.markers import Marker

        return Marker(marker).evaluate({"extra": ""})
    except Exception:  # an unreadable marker: keep the requirement (a larger image, still right)
        return True


def _environment_paths() -> list[Path]:
    """The virtual environment without the distributions itbench does not require."""
    prefix = Path(sys.prefix)
    if prefix == Path(sys.base_prefix):
        return []  # no virtual environment: the interpreter's site-packages is taken whole
    wanted = required_distributions()
    left_out: set[Path] = set()
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"] or ""
        if _normal(name) in wanted:
            continue
        for file in dist.files or []:
            path = Path(str(dist.locate_file(file))).resolve()
            if path.is_relative_to(prefix):
                left_out.add(path)
    return [p for p in _walk(prefix) if p.resolve() not in left_out or p.is_dir()]


def _interpreter_paths() -> list[Path]:
    base = Path(sys.base_prefix)
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    skip = tuple(str(base / s.format(v=version)) for s in _SKIP_IN_PREFIX)
    if Path(sys.prefix) == base:
        skip = skip[:2]
    return [p for p in _walk(base) if not str(p).startswith(skip) and str(p) + "/" not in skip]


def _walk(top: Path) -> Iterator[Path]:
    yield top
    for folder, dirs, files in os.walk(top):
        for name in sorted(dirs):
            yield Path(folder) / name
        for name in sorted(files):
            yield Path(folder) / name


def _linked_libraries(binaries: Iterable[Path]) -> set[str]:
    """Shared libraries (host paths) the binaries load, from ``ldd``."""
    found: set[str] = set()
    batch: list[str] = []

    def flush() -> None:
        if not batch:
            return
        done = subprocess.run(["ldd", *batch], capture_output=True, text=True, check=False)
        for line in done.stdout.splitlines():
            match = re.search(r"=>\s+(/\S+)|^\s+(/\S+)\s+\(", line)
            if match:
                found.add(match.group(1) or match.group(2))
        batch.clear()

    for path in binaries:
        batch.append(str(path))
        if len(batch) >= 200:
            flush()
    flush()
    return found


def _owning_packages(files: Iterable[str]) -> set[str]:
    names: set[str] = set()
    files = sorted(files)
    for start in range(0, len(files), 200):
        done = subprocess.run(
            ["dpkg", "-S", *files[start : start + 200]], capture_output=True, text=True
        )
        for line in done.stdout.splitlines():
            packages, _, _ = line.partition(": ")
            names.update(p.strip().split(":")[0] for p in packages.split(","))
        if done.returncode not in (0, 1):
            break
    return names


def _package_closure(seeds: set[str]) -> set[str]:
    """``seeds`` and every installed package they depend on (Depends, Pre-Depends)."""
    done = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Package}\t${Status}\t${Depends}, ${Pre-Depends}\n"],
        capture_output=True,
        text=True,
        check=True,
    )
    depends: dict[str, list[list[str]]] = {}
    for line in done.stdout.splitlines():
        name, status, deps = (line.split("\t") + ["", ""])[:3]
        if "installed" not in status.split():
            continue
        alternatives = []
        for clause in deps.split(","):
            options = [m.group(1) for o in clause.split("|") if (m := _DEPENDENCY.match(o.strip()))]
            if options:
                alternatives.append(options)
        depends[name] = alternatives
    closure: set[str] = set()
    queue = [s for s in seeds if s in depends]
    while queue:
        name = queue.pop()
        if name in closure:
            continue
        closure.add(name)
        for options in depends.get(name, []):
            chosen = next((o for o in options if o in depends), None)
            if chosen is not None:
                queue.append(chosen)
    return closure


def _package_files(packages: set[str]) -> list[Path]:
    paths: list[Path] = []
    names = sorted(packages)
    for start in range(0, len(names), 100):
        done = subprocess.run(
            ["dpkg-query", "-L", *names[start : start + 100]], capture_output=True, text=True
        )
        for line in done.stdout.splitlines():
            if line.startswith("/") and not line.startswith(_SKIP_PREFIXES):
                paths.append(Path(line))
    return paths


def _alternatives(package_files: list[Path]) -> list[Path]:
    """The commands ``update-alternatives`` made (``/usr/bin/awk`` -> ``/etc/alternatives/awk``
    -> ``/usr/bin/mawk``): no package lists them, scripts call them by these names. Only those
    whose program is in the image."""
    present = {os.path.realpath(p) for p in package_files}
    found = []
    for folder in ("/usr/bin", "/usr/sbin", "/bin", "/sbin"):
        with contextlib.suppress(OSError):
            for entry in os.scandir(folder):
                if not entry.is_symlink():
                    continue
                if os.readlink(entry.path).startswith("/etc/alternatives/") and (
                    os.path.realpath(entry.path) in present
                ):
                    found.append(Path(entry.path))
    return found


def _system_paths(python_paths: list[Path]) -> list[Path]:
    """The operating system's part: the seed packages, the packages owning every shared library
    the interpreter and the environment's extension modules load, and their dependencies."""
    if shutil.which("dpkg-query") is None:
        raise SandboxUnavailable(
            "itbench sandbox image build needs dpkg (a Debian or Ubuntu machine) to gather the "
            "system's files; elsewhere name an image with --image (one holding Python and "
            "itbench's requirements at the same paths)"
        )
    binaries = [p for p in python_paths if p.suffix == ".so" or ".so." in p.name]
    binaries.append(Path(sys.executable).resolve())
    libraries = _linked_libraries(p for p in binaries if p.is_file())
    # on a merged-/usr system ldd and dpkg may name a library through /lib or /usr/lib
    candidates = set(libraries)
    for lib in libraries:
        candidates.add(os.path.realpath(lib))
        if lib.startswith("/usr/lib"):
            candidates.add(lib.removeprefix("/usr"))
        elif lib.startswith("/lib"):
            candidates.add("/usr" + lib)
    owners = _owning_packages(candidates)
    packages = _package_closure(set(SEED_PACKAGES) | owners)
    paths = _package_files(packages)
    paths += _alternatives(paths)
    paths += [p for p in _walk(Path("/etc"))]
    kubectl = shutil.which("kubectl")
    if kubectl:  # the name on PATH (often a link into an SDK) and the binary itself
        paths += [Path(kubectl), Path(kubectl).resolve()]
    return paths


def image_plan() -> ImagePlan:
    python_paths = _interpreter_paths() + _environment_paths()
    paths = _system_paths(python_paths) + python_paths
    hidden = {str(p) for p in private_files()}
    # answers, and what host trees describe whole (the machine's /etc/security, its sysctl
    # drop-ins): a container evaluates a host tree over this image, as bwrap over the machine
    # and the folders not every user may enter (their content is the host's, as a private file's)
    left_out = tuple(
        str(p) + "/" for p in (*answer_paths(), *sorted(domains_host_owned()), *private_folders())
    )
    kept = sorted(
        {p for p in paths if str(p) not in hidden and not (str(p) + "/").startswith(left_out)}
    )
    digest = hashlib.sha256(f"recipe {RECIPE}\n".encode())
    for path in kept:
        try:
            info = path.lstat()
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode) or "/__pycache__/" in str(path):
            continue  # folders' times (/tmp, caches) and byte code change without a new input
        link = os.readlink(path) if stat.S_ISLNK(info.st_mode) else ""
        size = info.st_size if stat.S_ISREG(info.st_mode) else 0
        digest.update(f"{path}\0{info.st_mode}\0{size}\0{int(info.st_mtime)}\0{link}\n".encode())
    return ImagePlan(tuple(kept), f"{IMAGE_REPOSITORY}:{digest.hexdigest()[:16]}")


def _parents(path: Path) -> Iterator[Path]:
    for parent in reversed(path.parents):
        if parent != Path("/"):
            yield parent


def _real_parent(path: Path) -> Path:
    """``path`` with its folder's symbolic links resolved: on a merged-/usr system dpkg names
    ``/bin/bash``, which lives in ``/usr/bin``; ``/bin`` itself goes in as the link it is."""
    return Path(os.path.realpath(path.parent)) / path.name


def write_root_tar(plan: ImagePlan, out: Path) -> int:
    """The root file system as a tar (directories first, parents of every file included);
    returns the number of entries."""
    entries: dict[str, Path] = {}
    # the folders above the interpreter and the environment (/root, when Python is installed in
    # root's home): traversable, so commands run as nobody reach them, as in bubblewrap
    above_python = {
        str(parent)
        for top in (Path(sys.base_prefix).resolve(), Path(sys.prefix))
        for parent in _parents(top)
    }
    for top in sorted(Path("/").iterdir()):
        if top.is_symlink():  # /bin -> usr/bin, /lib -> usr/lib on merged-/usr systems
            entries[str(top)] = top
    for listed in plan.paths:
        path = _real_parent(listed)
        for parent in _parents(path):
            entries.setdefault(str(parent), parent)
        entries[str(path)] = path
    count = 0
    with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted(entries):
            path = entries[name]
            try:
                info = tar.gettarinfo(str(path), arcname=name.lstrip("/"))
            except OSError:
                continue
            if info.isdir() and name in above_python:
                info.mode |= 0o711
            if info.isreg():
                with open(path, "rb") as handle:
                    tar.addfile(info, handle)
            elif info.isdir() or info.issym() or info.islnk():
                if info.islnk():  # hard links: stored as the file itself
                    info.type = tarfile.REGTYPE
                    with open(path, "rb") as handle:
                        tar.addfile(info, handle)
                else:
                    tar.addfile(info)
            else:
                continue  # devices, sockets, fifos: the engine provides its own /dev
            count += 1
        for mount_point in ("proc", "sys", "dev", "tmp", "run", "home", "root"):
            if mount_point not in entries and f"/{mount_point}" not in entries:
                info = tarfile.TarInfo(mount_point)
                info.type = tarfile.DIRTYPE
                info.mode = 0o1777 if mount_point == "tmp" else 0o755
                tar.addfile(info)
    return count


def _imported_id(answer: str) -> str:
    """The image id from the engine's answer to an import (JSON lines, the last naming it)."""
    import json

    for line in reversed(str(answer).splitlines()):
        with contextlib.suppress(ValueError):
            event = json.loads(line)
            status = event.get("status") if isinstance(event, dict) else None
            if isinstance(status, str) and status.startswith("sha256:"):
                return status
    raise SandboxUnavailable(f"the container engine did not import the image: {answer[-500:]}")


def build_image(
    client: DockerClient, *, force: bool = False, log: Callable[[str], object] = print
) -> BuiltImage:
    """Build (or reuse) the evaluation image through the engine ``client`` (docker SDK)."""
    import docker.errors

    started = time.monotonic()
    plan = image_plan()
    if not force:
        try:
            found = client.images.get(plan.tag)
            # an image of the same files made before images were labelled is made again
            if matches_environment(found.labels):
                return BuiltImage(plan.tag, True, time.monotonic() - started, len(plan.paths))
        except docker.errors.ImageNotFound:
            pass
    log(f"itbench: building {plan.tag} from {len(plan.paths)} paths of this machine")
    with tempfile.TemporaryDirectory(prefix="itbench-image-") as scratch:
        tar_path = Path(scratch) / "root.tar"
        count = write_root_tar(plan, tar_path)
        repository, _, tag = plan.tag.rpartition(":")
        # a file, not a stream: Podman refuses the chunked upload of a stream
        labels = [f"LABEL {name}={value}" for name, value in environment_labels().items()]
        answer = client.api.import_image_from_file(
            str(tar_path), changes=['CMD ["/bin/bash"]', "WORKDIR /", *labels]
        )
    image_id = _imported_id(answer)
    # tagged afterwards: Podman's compatible API ignores the tag given with the import
    client.images.get(image_id).tag(repository, tag)
    client.images.get(plan.tag)  # the engine must know it now
    return BuiltImage(plan.tag, False, time.monotonic() - started, count)
