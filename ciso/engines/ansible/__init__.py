"""Ansible playbooks inside the sandbox, against a host tree, through ansible-runner.

The play runs with a local connection; its hosts group (``rhel9_servers`` in ITBench) maps to the
sandbox itself, whose /etc etc. are the scenario's host files over a read-only system. The playbook's
working directory is the output directory, so ``collected_data.json`` lands there.

By default the play runs under ``ansible-runner run --json`` in the sandbox (the interface ITBench's
agents and the original evaluator use): its per-task events say which task failed on which host and
why (:mod:`ciso.engines.ansible.events`), which the rhel9 evaluation and the reflection loop pass
on. ``driver="playbook"`` calls ``ansible-playbook`` directly: no events, the exit code and output
only; ``benchmarks/ansible_runner.py`` measures what the runner costs on top (its own interpreter
start and per-event bookkeeping).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from ciso.engines.ansible.ansiballz_seed import MANIFEST
from ciso.engines.ansible.events import RunnerOutput, TaskEvent, failures, parse_runner_output
from ciso.engines.ansible.routing_cache import CACHE_NAME
from itbench.errors import InputError
from itbench.sandbox.runner import run_sandboxed
from itbench.sandbox.sandboxed import SandboxResult

#: Where the run's own files (inventory) appear inside the sandbox, read-only: apart from the
#: playbook's working directory, so the play can neither see them in its output nor change them.
CONTROL_DIR = "/tmp/itbench-ansible"

#: Settings for every run. None changes what a play does; they cut work Ansible would redo on every
#: start or every task (the sandbox's /tmp is private, so nothing carries over between runs):
#: pipelining feeds each module to the interpreter on stdin instead of three extra shell commands
#: per task (mkdir, chmod, rm of a remote temp directory) around it.
ANSIBLE_ENV = {
    "ANSIBLE_LOCAL_TEMP": "/tmp/ansible-local",
    "ANSIBLE_REMOTE_TMP": "/tmp/ansible-remote",
    "ANSIBLE_HOST_KEY_CHECKING": "False",
    "ANSIBLE_NOCOLOR": "1",
    "ANSIBLE_FORCE_COLOR": "0",
    "ANSIBLE_RETRY_FILES_ENABLED": "False",
    "ANSIBLE_PIPELINING": "True",
}


@dataclass(frozen=True)
class Diagnostic:
    tool: str
    path: str
    line: int | None
    rule: str
    severity: str
    message: str


#: How a play is started: ``runner`` (ansible-runner, per-task events) or ``playbook`` (bare).
DRIVERS = ("runner", "playbook")
#: ansible-runner's private data and artifact folders, in the sandbox's private /tmp (gone after).
_RUNNER_DATA = "/tmp/itbench-runner"
_RUNNER_ARTIFACTS = "/tmp/itbench-runner-artifacts"


@dataclass(frozen=True)
class PlaybookResult:
    sandbox: SandboxResult
    status: str
    collected_data: Path | None
    driver: str = "runner"
    #: per-task outcomes (ansible-runner only; empty with the bare driver)
    events: tuple[TaskEvent, ...] = ()
    #: what Ansible printed on stdout (with the runner: rebuilt from its events)
    output: str = ""
    #: Ansible's warnings and errors (stderr's share of the runner's stream)
    warnings: str = ""

    @property
    def ok(self) -> bool:
        return self.sandbox.exit_code == 0 and not self.sandbox.timed_out

    def failed_tasks(self) -> list[str]:
        """``task 'x' failed on localhost: why`` per task that stopped the play."""
        return failures(self.events)

    def summary(self, limit: int = 3000) -> str:
        """Why the play ended as it did, for a trial's record and the agent's feedback: the
        failed tasks first (runner events), then the tail of Ansible's output."""
        errors = "\n".join(t for t in (self.warnings, self.sandbox.stderr) if t)
        tail = self.output[-limit:] + ("\n" + errors[-limit:] if errors else "")
        failed = self.failed_tasks()
        return "\n".join([*failed, tail]) if failed else tail


def local_inventory(host_group: str, interpreter: str = sys.executable) -> str:
    return f"[{host_group}]\nlocalhost ansible_connection=local ansible_python_interpreter={interpreter}\n"


#: The warm module interpreter of a play (warm_modules.py): its folder in the sandbox, the
#: interpreter the inventory names, and the sandbox-private socket between them.
WARM_DIR = f"{CONTROL_DIR}/warm"
WARM_INTERPRETER = f"{WARM_DIR}/python"
WARM_SOCKET = "/tmp/itbench-warm-modules.sock"


def _install_warm(control: Path) -> None:
    """The server and the client (an executable script run by this interpreter) into the
    control folder."""
    folder = control / "warm"
    folder.mkdir(mode=0o755)
    shutil.copyfile(Path(__file__).with_name("warm_modules.py"), folder / "warm_modules.py")
    client = Path(__file__).with_name("warm_python.py").read_text(encoding="utf-8")
    (folder / "python").write_text(f"#!{sys.executable} -IS\n{client}", encoding="utf-8")
    (folder / "python").chmod(0o755)


#: Collection held while the process starts, back on when the play begins (startup_gc.py): the
#: first and last lines of the play's ``sitecustomize``.
_GC_HOLD = """import itbench_startup_gc as startup

startup.hold()
"""
#: What the play's ``sitecustomize`` loads (the folder is on its ``PYTHONPATH``).
_SITE = """import itbench_module_bytecode  # noqa: F401 - installs its finder when imported
import itbench_ansiballz_seed as seed
import itbench_routing_cache as routing
from itbench_after_import import install

if routing.usable():
    install(routing.TARGET, routing.wrap_parse)
if seed.usable():
    install(seed.TARGET, seed.seed_play)
"""
_GC_BACK = """for module in startup.STARTED:
    install(module, startup.started)
"""

#: The modules whose payloads are built once per process (ansiballz_seed.py): those collection
#: playbooks run on nearly every host (``copy`` runs ``stat`` and ``file`` or ``copy``; ``shell``
#: runs ``command``). Each costs about 0.15 CPU seconds to build once and saves about as much on
#: every play that runs it.
SEEDED_MODULES = (
    "ansible.builtin.find",
    "ansible.builtin.slurp",
    "ansible.builtin.stat",
    "ansible.builtin.file",
    "ansible.builtin.copy",
    "ansible.builtin.command",
)


#: the two hosts of a rhel9 trial start their plays side by side: one build for both
_SEED_LOCK = threading.Lock()


def module_seed() -> Path | None:
    """See :func:`_build_seed`; built by the first caller, the others wait for it."""
    with _SEED_LOCK:
        return _build_seed()


@functools.cache
def _build_seed() -> Path | None:
    """A folder of :data:`SEEDED_MODULES`' payload cache entries with their manifest, built once
    per process by ``ansiballz_build.py`` in a child interpreter (this process never imports Ansible's executor);
    None when they cannot be built (then every play builds its own, as Ansible does) and with
    ``ITBENCH_ANSIBLE_SEED=0`` (to measure one against the other)."""
    import atexit
    import subprocess

    if os.environ.get("ITBENCH_ANSIBLE_SEED", "1") == "0":
        return None
    folder = Path(tempfile.mkdtemp(prefix="itbench-ansiballz-seed-"))
    owner = os.getpid()

    def remove() -> None:
        # a forked worker inherits the cache; only the process that built the folder removes it
        if os.getpid() == owner:
            shutil.rmtree(folder, ignore_errors=True)

    atexit.register(remove)
    builder = Path(__file__).with_name("ansiballz_build.py")
    seed = folder / "seed"
    try:
        done = subprocess.run(
            [sys.executable, "-I", str(builder), str(seed), *SEEDED_MODULES],
            capture_output=True,
            timeout=120,
            check=False,
        )
        built = json.loads(done.stdout) if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None
    if not isinstance(built, dict) or not built.get("entries"):
        return None
    (seed / MANIFEST).write_text(json.dumps(built), encoding="utf-8")
    return seed


@functools.cache
def builtin_routing() -> str | None:
    """``builtin-routing.json`` for routing_cache.py: the installed ``ansible.builtin`` routing
    table as Ansible's own parse gives it, with the SHA-256 of the bytes parsed; None when it
    cannot be made or would not come back from JSON equal (then every play parses the file)."""
    import importlib
    import importlib.util

    try:
        spec = importlib.util.find_spec("ansible")
        if spec is None or spec.origin is None:
            return None
        meta = importlib.import_module("ansible.utils.collection_loader._collection_meta")
        raw = (Path(spec.origin).parent / "config" / "ansible_builtin_runtime.yml").read_bytes()
        routing = meta._meta_yml_to_dict(raw, ("ansible.builtin", "runtime.yml"))
        text = json.dumps({"sha256": hashlib.sha256(raw).hexdigest(), "routing": routing})
    except (ImportError, OSError, ValueError, TypeError):  # no ansible, no file, no JSON form
        return None
    return text if json.loads(text)["routing"] == routing else None


def _link_tree(source: Path, target: Path) -> None:
    """``source``'s files into a new folder ``target``: hard links where the file system allows
    (the seed is about 1 MB, linked into every play's control folder), copies elsewhere."""
    target.mkdir(mode=0o755)
    for entry in source.iterdir():
        try:
            os.link(entry, target / entry.name)
        except OSError:
            shutil.copyfile(entry, target / entry.name)


def _install_site(folder: Path, seed_modules: bool) -> None:
    folder.mkdir(mode=0o755)
    here = Path(__file__).parent
    shutil.copyfile(here / "module_bytecode.py", folder / "itbench_module_bytecode.py")
    shutil.copyfile(here / "routing_cache.py", folder / "itbench_routing_cache.py")
    shutil.copyfile(here / "ansiballz_seed.py", folder / "itbench_ansiballz_seed.py")
    shutil.copyfile(here / "after_import.py", folder / "itbench_after_import.py")
    shutil.copyfile(here / "startup_gc.py", folder / "itbench_startup_gc.py")
    seed = module_seed() if seed_modules else None
    if seed is not None:
        _link_tree(seed, folder / "ansiballz-seed")
    routing = builtin_routing()
    if routing is not None:
        (folder / CACHE_NAME).write_text(routing, encoding="utf-8")
    # ITBENCH_ANSIBLE_GC_HOLD=0: without the hold, to measure one against the other
    hold = os.environ.get("ITBENCH_ANSIBLE_GC_HOLD", "1") != "0"
    site = _GC_HOLD + _SITE + _GC_BACK if hold else _SITE
    (folder / "sitecustomize.py").write_text(site, encoding="utf-8")


def run_playbook(
    playbook: Path,
    *,
    out_dir: Path,
    host_tree: Path | None = None,
    inventory: Path | None = None,
    timeout_s: float = 300.0,
    host_group: str = "rhel9_servers",
    max_processes: int = 256,
    driver: str = "runner",
    warm_modules: bool | None = None,
    warm_trace: str | None = None,
    seed_modules: bool = True,
) -> PlaybookResult:
    """Run ``playbook`` in the sandbox. With ``warm_modules`` (and a host tree: our own
    inventory) its module runs go through a warm module interpreter (warm_modules.py);
    ``warm_trace``, a path inside the sandbox (under ``out_dir``), gets a line per module run
    saying whether it ran warm. ``warm_modules=None`` follows ``ITBENCH_ANSIBLE_WARM_MODULES``
    (``0``: fresh interpreters, to measure one against the other; on otherwise).
    ``seed_modules``: link the module payloads built once per process (:func:`module_seed`);
    worth its one-off cost (about 1.3 CPU seconds) only where a process runs several plays."""
    if driver not in DRIVERS:
        raise InputError(f"ansible driver {driver!r}: not one of {', '.join(DRIVERS)}")
    if not playbook.is_file():
        raise InputError(f"{playbook}: playbook not found")
    if (host_tree is None) == (inventory is None):
        raise InputError("give exactly one of a host tree or an inventory")
    out_dir = out_dir.resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / playbook.name
    if playbook.resolve() != target:
        shutil.copyfile(playbook, target)
    env = dict(ANSIBLE_ENV)
    if warm_modules is None:
        warm_modules = os.environ.get("ITBENCH_ANSIBLE_WARM_MODULES", "1") != "0"
    warm = warm_modules and inventory is None
    if inventory is not None:
        inventory_text = inventory.read_text(encoding="utf-8")
    else:
        inventory_text = local_inventory(host_group, WARM_INTERPRETER if warm else sys.executable)
        # our own inventory is INI: skip probing it with the five other inventory plugins
        env["ANSIBLE_INVENTORY_ENABLED"] = "ini"
    bindir = Path(sys.executable).parent
    if driver == "runner":
        # the runner finds ansible-playbook on PATH: this interpreter's, then the system's
        env["PATH"] = f"{bindir}:/usr/local/bin:/usr/bin:/bin"
        command = [
            str(bindir / "ansible-runner"), "run", _RUNNER_DATA, "--playbook", target.name,
            "--project-dir", str(out_dir), "--inventory", f"{CONTROL_DIR}/hosts",
            "--artifact-dir", _RUNNER_ARTIFACTS, "--json",
        ]  # fmt: skip
    else:
        command = [str(bindir / "ansible-playbook"), "-i", f"{CONTROL_DIR}/hosts", target.name]
    with tempfile.TemporaryDirectory(prefix="itbench-ansible-") as control:
        # readable by the sandbox's uid (nobody, when itbench runs as root); it holds only this
        # inventory
        Path(control).chmod(0o755)
        (Path(control) / "hosts").write_text(inventory_text, encoding="utf-8")
        # module runs use the installed ansible's cached bytecode where their zip holds the
        # same files (module_bytecode.py), and ansible-playbook the routing table parsed once
        # outside (routing_cache.py) and the module payloads built once per process
        # (ansiballz_seed.py); the folder holds only these files
        _install_site(Path(control) / "python", seed_modules)
        env["PYTHONPATH"] = f"{CONTROL_DIR}/python"
        if warm:
            _install_warm(Path(control))
            command = [
                sys.executable, f"{WARM_DIR}/warm_modules.py", WARM_SOCKET,
                *(["--trace", warm_trace] if warm_trace else []), "--", *command,
            ]  # fmt: skip
        result = run_sandboxed(
            command,
            out_dir=out_dir,
            host_tree=host_tree,
            timeout_s=timeout_s,
            max_processes=max_processes,
            env=env,
            extra_ro_binds=[(Path(control), CONTROL_DIR)],
        )
    status = (
        "timeout" if result.timed_out else ("successful" if result.exit_code == 0 else "failed")
    )
    collected = out_dir / "collected_data.json"
    parsed = (
        parse_runner_output(result.stdout)
        if driver == "runner"
        else RunnerOutput((), result.stdout)
    )
    return PlaybookResult(
        result,
        status,
        collected if collected.exists() else None,
        driver=driver,
        events=parsed.events,
        output=parsed.text,
        warnings=parsed.warnings,
    )


def _in_sandbox(playbook: Path, command: list[str], timeout_s: float) -> tuple[SandboxResult, Path]:
    """Validators load the playbook (and may template parts of it): they run sandboxed too, on a
    copy of the playbook and its directory's siblings, in a scratch output directory."""
    import tempfile

    scratch = Path(tempfile.mkdtemp(prefix="itbench-validate-"))
    copy = scratch / playbook.name
    shutil.copyfile(playbook, copy)
    (scratch / "hosts").write_text(local_inventory("rhel9_servers"))
    result = run_sandboxed([*command, str(copy)], out_dir=scratch, timeout_s=timeout_s)
    return result, scratch


def syntax_check(playbook: Path, host_group: str = "rhel9_servers") -> list[Diagnostic]:
    """``ansible-playbook --syntax-check`` (loads the play, runs no task), in the sandbox."""
    exe = Path(sys.executable).parent / "ansible-playbook"
    result, scratch = _in_sandbox(playbook, [str(exe), "--syntax-check", "-i", "hosts"], 120)
    shutil.rmtree(scratch, ignore_errors=True)
    if result.exit_code == 0:
        return []
    text = (result.stderr or result.stdout).strip()
    # ansible-core 2.19 says "Origin: <file>:<line>:<column>", older releases "line <n>"
    line = re.search(r"^Origin: .*?:(\d+)(?::\d+)?\s*$", text, re.MULTILINE) or re.search(
        r"line (\d+)", text
    )
    message = next(
        (ln for ln in text.splitlines() if "ERROR" in ln),
        text.splitlines()[0] if text else "syntax check failed",
    )
    message = re.sub(r"^\[?ERROR\]?!?:?\s*", "", message).strip()
    return [
        Diagnostic(
            "ansible-playbook",
            str(playbook),
            int(line.group(1)) if line else None,
            "syntax-check",
            "error",
            message,
        )
    ]


def lint(playbook: Path) -> list[Diagnostic] | None:
    """``ansible-lint`` findings (sandboxed) for one playbook, or None when it is not installed."""
    found = lint_many([playbook])
    return None if found is None else found.get(playbook, [])


def lint_many(playbooks: list[Path]) -> dict[Path, list[Diagnostic]] | None:
    """One sandboxed ``ansible-lint`` run over several playbooks (its start-up costs seconds),
    findings mapped back to each playbook; None when ansible-lint is not installed."""
    import tempfile

    exe = Path(sys.executable).parent / "ansible-lint"
    if not exe.exists():
        found = shutil.which("ansible-lint")
        if found is None:
            return None
        exe = Path(found)
    scratch = Path(tempfile.mkdtemp(prefix="itbench-lint-"))
    copies: dict[str, Path] = {}
    for i, playbook in enumerate(playbooks):
        name = f"{i:04d}-{playbook.name}"
        shutil.copyfile(playbook, scratch / name)
        copies[name] = playbook
    result = run_sandboxed(
        [str(exe), "--offline", "--nocolor", "-f", "codeclimate", *sorted(copies)],
        out_dir=scratch,
        timeout_s=600,
    )
    shutil.rmtree(scratch, ignore_errors=True)
    out: dict[Path, list[Diagnostic]] = {p: [] for p in playbooks}
    try:
        issues = json.loads(result.stdout or "[]")
    except json.JSONDecodeError:
        message = (result.stderr or result.stdout).strip()[:500]
        for playbook in playbooks:
            out[playbook].append(
                Diagnostic("ansible-lint", str(playbook), None, "ansible-lint", "error", message)
            )
        return out
    for issue in issues:
        location = issue.get("location") or {}
        original = copies.get(Path(location.get("path", "")).name)
        if original is None:
            continue
        out[original].append(
            Diagnostic(
                "ansible-lint",
                str(original),
                _issue_line(location),
                issue.get("check_name", "ansible-lint"),
                "error" if issue.get("severity") in ("blocker", "critical") else "warning",
                issue.get("description", ""),
            )
        )
    return out


def _issue_line(location: dict) -> int | None:
    """The line of a codeclimate issue: ``lines.begin``, or ``positions.begin.line`` (the form
    ansible-lint uses for findings it can place to the column)."""
    line = (location.get("lines") or {}).get("begin")
    if line is None:
        line = ((location.get("positions") or {}).get("begin") or {}).get("line")
    return line if isinstance(line, int) else None


def validate_playbook(
    playbook: Path, host_group: str = "rhel9_servers", with_lint: bool = True
) -> list[Diagnostic]:
    diagnostics = syntax_check(playbook, host_group)
    if with_lint and not diagnostics:
        diagnostics += lint(playbook) or []
    return diagnostics
