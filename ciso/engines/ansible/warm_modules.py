"""A warm module interpreter for one sandboxed play: started inside the play's sandbox as
``python warm_modules.py SOCKET [--trace FILE] -- COMMAND...``, it imports ``ansible.module_utils`` once, starts
the play (COMMAND) and, until the play ends, forks a child for each module run that
``warm_python.py`` (the play's ``ansible_python_interpreter``) hands it over a Unix socket in the
sandbox's private /tmp. It exits with the play's exit status.

A module run costs a fresh interpreter about 0.1 CPU seconds just to import ``module_utils``;
a child of this process has them already. The child behaves as the fresh interpreter would:

- it takes the client's standard streams (passed over the socket), working directory, umask,
  environment and arguments, and rebuilds ``sys.argv``, ``sys.path``, ``__main__`` and the
  standard stream objects as Python's start-up does for ``python`` reading a script on stdin or
  ``python SCRIPT``;
- the preloaded ``ansible`` modules are kept out of ``sys.modules`` and handed back only when the
  run imports them, and only when the run's AnsiballZ zip holds, for every one of them, the very
  bytes they were loaded from (the zip's own ``ansible`` and ``ansible.module_utils`` package stubs
  included, with their search paths recomputed over the zip as the stubs do); otherwise none is
  handed back and the run imports everything itself, as before;
- it is forked from this process, which never runs module code, so nothing one run does reaches
  the next;
- its exit status is what Python's own shutdown would give (``SystemExit`` codes, 1 and the
  traceback for an uncaught exception, atexit handlers, flushed streams), sent back to the client.

A client whose start-up environment (``PYTHON*``, ``LANG``, ``LC_*``, ``HOME``) differs from this
process's, that asks for anything but a script on stdin or in a file, or finds no server, execs a
fresh interpreter instead. The server holds nothing the play lacks: same sandbox, same uid, a
socket in the sandbox's private /tmp.

Standard library only: it runs under the interpreter of the play.
"""

from __future__ import annotations

import array
import atexit
import builtins
import contextlib
import gc
import hashlib
import importlib
import importlib.abc
import importlib.machinery
import io
import json
import os
import selectors
import signal
import socket
import struct
import subprocess
import sys
import traceback
import types
import zipfile
import zipimport
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pkgutil import extend_path

#: what every Python module run imports first (the AnsiballZ wrapper's loader pulls in ``basic``)
PRELOAD = ("ansible.module_utils._internal._ansiballz._loader", "ansible.module_utils.basic")
#: environment variables Python reads at start-up: a client that differs in one gets a fresh
#: interpreter
STARTUP_PREFIXES = ("PYTHON", "LC_")
STARTUP_NAMES = ("LANG", "HOME")
#: where the server and its children say which runs were warm (``--trace FILE``: tests and
#: benchmarks read it)
TRACE = ""


def startup_environment(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith(STARTUP_PREFIXES) or k in STARTUP_NAMES}


def _stubs(version: str, author: str) -> dict[str, bytes]:
    """The package stubs Ansible writes into every AnsiballZ zip (executor/module_common.py):
    namespace packages extending their search path over ``sys.path``."""
    extend = b"from pkgutil import extend_path\n__path__=extend_path(__path__,__name__)\n"
    return {
        "ansible": extend
        + b'__version__="'
        + version.encode()
        + b'"\n__author__="'
        + author.encode()
        + b'"\n',
        "ansible.module_utils": extend,
    }


class Preloaded:
    """The ``ansible`` modules imported once, each with the zip member and bytes it came from."""

    def __init__(self) -> None:
        self.modules: dict[str, types.ModuleType] = {}
        #: module name -> (zip member, sha256 of the bytes it was built from)
        self.members: dict[str, tuple[str, str]] = {}
        self.finders: list[importlib.abc.MetaPathFinder] = []
        self.root = ""

    def load(self) -> None:
        root = next(
            (
                entry
                for entry in sys.path
                if entry
                and not entry.endswith(".zip")
                and os.path.isfile(os.path.join(entry, "ansible", "module_utils", "basic.py"))
            ),
            None,
        )
        if root is None:
            return
        self.root = root
        release: dict[str, object] = {}
        with open(os.path.join(root, "ansible", "release.py"), "rb") as handle:
            exec(compile(handle.read(), "release.py", "exec"), release)  # noqa: S102 - the installed ansible's own version file, as Ansible reads it to write the stubs
        stubs = _stubs(str(release["__version__"]), str(release["__author__"]))
        for name, source in stubs.items():
            module = types.ModuleType(name)
            relative = name.replace(".", "/")
            module.__file__ = os.path.join(root, relative, "__init__.py")
            module.__path__ = [os.path.join(root, relative)]
            module.__package__ = name
            # the stub itself (its search path is recomputed over each run's zip)
            exec(compile(source, module.__file__, "exec"), module.__dict__)  # noqa: S102 - Ansible's own package stub
            sys.modules[name] = module
            if "." in name:
                setattr(sys.modules[name.rpartition(".")[0]], name.rpartition(".")[2], module)
            self.members[name] = (f"{relative}/__init__.py", hashlib.sha256(source).hexdigest())
        before = set(sys.modules)
        finders_before = list(sys.meta_path)
        for name in PRELOAD:
            importlib.import_module(name)
        for name in sorted(set(sys.modules) - before):
            if not (name == "ansible" or name.startswith("ansible.")):
                continue
            # the file the name was imported from (``ansible.module_utils.distro`` puts another
            # module in its place: the same happens in a fresh interpreter from the same file)
            relative = name.replace(".", "/")
            member = next(
                (
                    m
                    for m in (f"{relative}/__init__.py", f"{relative}.py")
                    if os.path.isfile(os.path.join(root, m))
                ),
                None,
            )
            if member is not None:
                with open(os.path.join(root, member), "rb") as handle:
                    self.members[name] = (member, hashlib.sha256(handle.read()).hexdigest())
            # else made by a preloaded module at its import (``six.moves``): stashed with it
            self.modules[name] = sys.modules.pop(name)
        for name in ("ansible", "ansible.module_utils"):
            self.modules[name] = sys.modules.pop(name)
        # finders a preloaded module added (six's ``moves`` importer): out until handed back
        self.finders = [f for f in sys.meta_path if f not in finders_before]  # type: ignore[misc]  # sys.meta_path's entries are finders
        for finder in self.finders:
            sys.meta_path.remove(finder)


class HandBack(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """In a child: the preloaded modules, all at once at the run's first import of one of them,
    when the run's zip holds the same bytes for every one; otherwise none."""

    def __init__(self, preloaded: Preloaded) -> None:
        self.preloaded = preloaded
        self.decided: bool | None = None
        self.requested: tuple[types.ModuleType | None, ModuleSpec | None] = (None, None)

    def _zip(self) -> str | None:
        return next(
            (e for e in sys.path if e.endswith(".zip") and os.path.isfile(e)),
            None,
        )

    def _identical(self, archive: str) -> bool:
        try:
            with zipfile.ZipFile(archive) as members:
                return all(
                    hashlib.sha256(members.read(member)).hexdigest() == digest
                    for member, digest in self.preloaded.members.values()
                )
        except (KeyError, OSError, zipfile.BadZipFile):
            return False

    def _hand_back(self, archive: str) -> None:
        """Into ``sys.modules``, as importing the wrapper's ``_loader`` leaves them in a fresh
        interpreter, with the search paths a fresh import over ``archive`` gives them."""
        modules = self.preloaded.modules
        loader = zipimport.zipimporter(archive)
        # the stubs first: ``extend_path`` over the zip's package, then over sys.path (``ansible``)
        # or the parent's search path (``ansible.module_utils``), as the stub's own line does
        for name in ("ansible", "ansible.module_utils"):
            module = modules[name]
            relative = name.replace(".", "/")
            sys.modules[name] = module
            module.__path__ = extend_path([os.path.join(archive, relative)], name)
            module.__file__ = os.path.join(archive, relative, "__init__.py")
            module.__loader__ = loader
            module.__spec__ = importlib.machinery.ModuleSpec(
                name,
                loader,  # type: ignore[arg-type]  # zipimporter is a loader
                origin=module.__file__,
                is_package=True,
            )
            module.__spec__.submodule_search_locations = list(module.__path__)
            module.__spec__.has_location = True
        for name, module in modules.items():
            sys.modules[name] = module
            member = self.preloaded.members.get(name, ("", ""))[0]
            if (
                name in ("ansible", "ansible.module_utils")
                or getattr(module, "__name__", "") != name
            ):
                continue  # a stub (above), or another module standing in for the name
            if member.endswith("/__init__.py"):  # as module_bytecode.py does: the zip's package
                module.__path__ = [os.path.join(archive, member.rpartition("/")[0])]
                if module.__spec__ is not None:
                    module.__spec__.submodule_search_locations = module.__path__
        sys.meta_path.extend(self.preloaded.finders)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: types.ModuleType | None = None,
    ) -> ModuleSpec | None:
        if self.decided is not None or fullname not in self.preloaded.modules:
            return None
        archive = self._zip()
        if archive is None:
            return None
        self.decided = self._identical(archive)
        _trace(f"hand back {'all' if self.decided else 'none'} ({archive})")
        if not self.decided:
            return None
        self._hand_back(archive)
        # done: the rest of the run imports as a fresh interpreter does
        sys.meta_path.remove(self)
        # the name asked for goes through the import system (which would load it afresh from
        # its own spec if it were in sys.modules already): this loader hands the object back
        module = sys.modules.pop(fullname)
        self.requested = (module, module.__spec__)
        spec = importlib.machinery.ModuleSpec(fullname, self, origin=module.__file__)
        spec.submodule_search_locations = getattr(module, "__path__", None)
        return spec

    def create_module(self, spec: ModuleSpec) -> types.ModuleType:
        return self.preloaded.modules[spec.name]

    def exec_module(self, module: types.ModuleType) -> None:
        """Executed once, in the forked child (the server never runs module code): it gets back
        the spec it was loaded with."""
        handed, spec = self.requested
        if module is handed and spec is not None:
            module.__spec__ = spec
            module.__loader__ = spec.loader


def _trace(line: str) -> None:
    """One line to the ``--trace`` file, if the server was given one."""
    if TRACE:
        with open(TRACE, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()} {line}\n")


def _exit_status(code: object) -> int:
    """What Python's shutdown makes of ``SystemExit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    # as Python does: a failing stderr does not change the status
    with contextlib.suppress(Exception):
        sys.stderr.write(f"{code}\n")
    return 1


def _standard_streams() -> None:
    """``sys.stdin``/``stdout``/``stderr`` over fds 0-2, as Python's start-up builds them."""
    encoding = sys.stdin.encoding if sys.stdin else "utf-8"
    errors = sys.stdin.errors if sys.stdin else "strict"
    for fd, mode, name in ((0, "r", "stdin"), (1, "w", "stdout"), (2, "w", "stderr")):
        raw = io.FileIO(fd, mode + "b" if mode == "r" else "wb", closefd=False)
        interactive = raw.isatty()
        buffered: io.BufferedReader | io.BufferedWriter = (
            io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
        )
        stream = io.TextIOWrapper(
            buffered,
            encoding=encoding,
            errors="backslashreplace" if fd == 2 else errors,
            line_buffering=interactive or fd == 2,
            write_through=fd == 2,
        )
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def run_child(
    preloaded: Preloaded, request: dict[str, object], fds: list[int], base_path: list[str]
) -> int:
    """In the forked child: become the fresh interpreter of the request, run it, return status."""
    for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.set_wakeup_fd(-1)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.umask(int(str(request["umask"])))
    os.chdir(str(request["cwd"]))
    env = request["env"]
    assert isinstance(env, dict)
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in env.items()})
    args = [str(a) for a in request["args"]]  # type: ignore[attr-defined]  # a JSON list
    _standard_streams()
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = builtins
    if args:
        script = args[0]
        with open(script, "rb") as handle:
            source = handle.read()
        sys.argv = list(args)
        sys.path = [os.path.dirname(os.path.realpath(script)), *base_path]
        main.__file__ = script
        main.__loader__ = importlib.machinery.SourceFileLoader("__main__", script)
        filename = script
    else:
        source = sys.stdin.buffer.read()
        sys.argv = [""]
        sys.path = ["", *base_path]
        main.__file__ = "<stdin>"
        main.__loader__ = importlib.machinery.BuiltinImporter  # as Python sets it for stdin
        filename = "<stdin>"
    main.__cached__ = None  # type: ignore[attr-defined]  # as Python sets it for a script
    main.__spec__ = None
    sys.orig_argv = [sys.executable, *args]
    sys.modules["__main__"] = main
    sys.path_importer_cache.clear()
    import tempfile  # noqa: PLC0415 - the run's own temp dir from its own environment

    tempfile.tempdir = None
    sys.meta_path.insert(0, HandBack(preloaded))
    status = 0
    try:
        exec(compile(source, filename, "exec"), main.__dict__)  # noqa: S102 - the module run this interpreter stands for
    except SystemExit as stop:
        status = _exit_status(stop.code)
    except KeyboardInterrupt:
        traceback.print_exc()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    except BaseException:  # noqa: BLE001 - the interpreter's own top level
        sys.excepthook(*sys.exc_info())
        status = 1
    import threading  # noqa: PLC0415 - Python's shutdown joins non-daemon threads first

    threading._shutdown()  # type: ignore[attr-defined]  # what Py_FinalizeEx calls
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - Python exits 120 when flushing stdout fails
            status = 120 if stream is sys.stdout and status == 0 else status
    return status


def _receive(conn: socket.socket) -> tuple[dict[str, object], list[int]]:
    fds = array.array("i")
    data, ancdata, _, _ = conn.recvmsg(1 << 16, socket.CMSG_SPACE(3 * fds.itemsize))
    for level, kind, payload in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - (len(payload) % fds.itemsize)])
    (size,) = struct.unpack("!I", data[:4])
    body = data[4:]
    while len(body) < size:
        chunk = conn.recv(size - len(body))
        if not chunk:
            break
        body += chunk
    return json.loads(body), list(fds)


def serve(socket_path: str, command: list[str]) -> int:
    base_path = list(sys.path[1:])  # without this script's folder: each run sets its own first
    env = startup_environment(dict(os.environ))
    preloaded = Preloaded()
    try:
        preloaded.load()
    except Exception as failure:  # noqa: BLE001 - without a warm state every run is a fresh one
        print(f"warm modules: no preload ({failure})", file=sys.stderr)
        preloaded = Preloaded()
    gc.freeze()  # the children share the preloaded objects' pages instead of copying them
    gc.enable()  # the play's sitecustomize held collection while this server started
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(socket_path)
        os.chmod(socket_path, 0o600)
        listener.listen(64)
    except OSError as failure:
        # no server: the play runs as without one, its clients exec fresh interpreters
        print(f"warm modules: no socket ({failure})", file=sys.stderr)
        listener.close()
        os.execvp(command[0], command)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    play = subprocess.Popen(command)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(wake_r, selectors.EVENT_READ, "wake")
    children: dict[int, socket.socket] = {}
    play_status: int | None = None
    while play_status is None:
        for key, _ in selector.select(timeout=1.0):
            if key.data == "accept":
                conn, _ = listener.accept()
                conn.setblocking(True)
                try:
                    request, fds = _receive(conn)
                except (OSError, ValueError, struct.error):
                    conn.close()
                    continue
                warm = (
                    preloaded.modules
                    and len(fds) == 3
                    and request.get("startup") == env
                    and not os.isatty(fds[0])
                )
                _trace(f"run {'warm' if warm else 'cold'} {request.get('args')}")
                if not warm:
                    for fd in fds:
                        os.close(fd)
                    conn.sendall(b"cold\n")
                    conn.close()
                    continue
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    status = 1
                    try:
                        listener.close()
                        selector.close()
                        os.close(wake_r)
                        os.close(wake_w)
                        for other in children.values():
                            other.close()
                        conn.close()
                        status = run_child(preloaded, request, fds, base_path)
                    finally:
                        os._exit(status)
                for fd in fds:
                    os.close(fd)
                conn.sendall(b"warm\n")
                children[pid] = conn
                selector.register(conn, selectors.EVENT_READ, pid)
            elif key.data == "wake":
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_r, 512)
            else:  # a client hung up before its child ended: it was killed, so is the child
                pid = key.data
                selector.unregister(key.fileobj)
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        while children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            if pid == play.pid:
                play.returncode = os.waitstatus_to_exitcode(status)
                continue
            if pid not in children:
                continue
            conn = children.pop(pid)
            with contextlib.suppress(KeyError, ValueError):
                selector.unregister(conn)
            with contextlib.suppress(OSError):
                conn.sendall(f"{status}\n".encode())
            conn.close()
        if play_status is None:
            if play.returncode is None:
                play.poll()
            if play.returncode is not None:
                play_status = play.returncode
    # the play is over: a module run still going (an async task left to run) ends with it, as
    # the sandbox ends every process when the play's own process exits
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return play_status if play_status >= 0 else 128 - play_status


def main(argv: list[str]) -> int:
    global TRACE
    if len(argv) > 2 and argv[1] == "--trace":
        TRACE = argv[2]
        argv = [argv[0], *argv[3:]]
    if len(argv) < 3 or argv[1] != "--":
        print("usage: warm_modules.py SOCKET [--trace FILE] -- COMMAND...", file=sys.stderr)
        return 2
    return serve(argv[0], argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
