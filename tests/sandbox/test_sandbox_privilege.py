"""Neither sandbox hands out privilege (issue 26): no capability, no root on the host (run as
root, the command runs as nobody), no remount, no umount of a hiding tmpfs, no new mount or user
namespace, no write under /usr, whether itbench runs as root or as an ordinary user. Real bubblewrap; the agent sandbox through ``itbench finops run``.

Run as root, bubblewrap used to keep every capability (``CapEff 000001fffeffffff``): the agent
could ``mount -o remount,rw,bind /usr`` and write to the host, or ``umount`` the empty tmpfs over
a hidden folder and read what lies under it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests._support.cli import itbench_executable
from tests._support.sandbox import needs_sandbox

pytestmark = needs_sandbox

NOBODY = 65534
#: Each line ``name=ok|denied``; the marker file name comes from $ITB_MARKER.
PROBE = r"""
echo "capeff=$(awk '/^CapEff/ {print $2}' /proc/self/status)"
echo "uid=$(awk '/^Uid/ {print $2}' /proc/self/status)"
echo "uid_map=$(awk '$1 == 0 {print $2}' /proc/self/uid_map)"
try() { name=$1; shift; if ("$@") >/dev/null 2>&1; then echo "$name=ok"; else echo "$name=denied"; fi; }
try remount_usr mount -o remount,rw,bind /usr
try remount_var mount -o remount,rw,bind /var
try umount_hidden umount /root
try unshare_mount unshare -m true
try unshare_user unshare -U true
try write_usr sh -c "echo x > /usr/$ITB_MARKER"
try write_usr_after_remount sh -c "mount -o remount,rw,bind /usr; echo x > /usr/$ITB_MARKER"
try read_shadow sh -c "test -s /etc/shadow && cat /etc/shadow"
echo "root_listing=$(ls -A /root | tr '\n' ' ')"
"""
DENIED = {
    name: "denied"
    for name in (
        "remount_usr",
        "remount_var",
        "umount_hidden",
        "unshare_mount",
        "unshare_user",
        "write_usr",
        "write_usr_after_remount",
        # root without capabilities still reads root's own 0640 files: covered by /dev/null
        "read_shadow",
    )
}


def _parse(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def _check(seen: dict[str, str], marker: str, exposed: set[str] = frozenset()) -> None:
    """``exposed``: what the sandbox binds into the hidden /root on purpose (the interpreter)."""
    assert seen["capeff"] == "0000000000000000", seen
    # not root on the host (issue 26, gap 4): uid 0 inside only in a user namespace that maps
    # it onto another host uid
    assert seen["uid"] != "0" or seen["uid_map"] not in ("", "0"), seen
    assert {k: seen.get(k) for k in DENIED} == DENIED
    assert set(seen["root_listing"].split()) <= exposed, "the hidden /root shows its files"
    assert not Path("/usr", marker).exists()


def _exposed_under_root() -> set[str]:
    from itbench.sandbox.hosttree import needed_paths

    return {p.parts[2] for p in needed_paths() if p.parts[1:2] == ("root",) and len(p.parts) > 2}


def _as(user: str) -> list[str]:
    """The prefix that runs a command as ``user`` (root: nothing), or a skip."""
    if user == "root":
        if os.geteuid() != 0:
            pytest.skip("not running as root: the root case cannot be tested here")
        return []
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("the unprivileged case needs root and setpriv to become nobody")
    prefix = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    probe = subprocess.run(
        [*prefix, "bwrap", "--unshare-all", "--ro-bind", "/", "/", "true"], capture_output=True
    )
    if probe.returncode != 0:
        pytest.skip(f"bwrap cannot run unprivileged here: {probe.stderr.decode().strip()}")
    return prefix


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory every user can write, outside the sandboxes' hidden and private folders."""
    path = Path(tempfile.mkdtemp(prefix="itbench-privilege-", dir="/var/tmp"))
    path.chmod(0o777)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.parametrize("user", ["root", "nobody"])
def test_the_evaluation_sandbox_holds_no_privilege(user, shared_dir):
    prefix = _as(user)
    marker = f"itbench-escape-{uuid.uuid4().hex}"
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from itbench.sandbox import run_sandboxed\n"
        "r = run_sandboxed(['/bin/bash', '-c', sys.argv[1]], out_dir=Path(sys.argv[2]),"
        " env={'ITB_MARKER': sys.argv[3]})\n"
        "print(json.dumps({'code': r.exit_code, 'stdout': r.stdout, 'stderr': r.stderr}))\n"
    )
    out = shared_dir / "out"
    proc = subprocess.run(
        [*prefix, sys.executable, "-c", code, PROBE, str(out), marker],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOME": str(shared_dir)},
        cwd=shared_dir,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["code"] == 0, result["stderr"]
    _check(_parse(result["stdout"]), marker, _exposed_under_root())


def _finops_scenarios(folder: Path, n: int = 1) -> None:
    proc = subprocess.run(
        [itbench_executable(), "finops", "generate", "--n", str(n), "--seed", "5"]
        + ["--difficulty", "easy", "--out", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("user", ["root", "nobody"])
def test_the_agent_sandbox_holds_no_privilege(user, shared_dir):
    prefix = _as(user)
    marker = f"itbench-escape-{uuid.uuid4().hex}"
    scenarios = shared_dir / "scenarios"
    _finops_scenarios(scenarios)
    command = f"({PROBE}) > probe.txt; echo '{{\"resource\": []}}' > agent_output.json"
    env = {
        **os.environ,
        "HOME": str(shared_dir),
        "ITBENCH_CACHE_DIR": str(shared_dir / "cache"),
        "ITB_MARKER": marker,
    }
    proc = subprocess.run(
        [*prefix, itbench_executable(), "finops", "run", "--scenarios", str(scenarios)]
        + ["--agent-cmd", command, "--agent-env", "ITB_MARKER", "--no-progress"]
        + ["--output", str(shared_dir / "run"), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=shared_dir,
    )
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)["raw_results"]
    assert "error" not in entry, entry
    probe = shared_dir / "run" / "Scenario-1" / "1" / "probe.txt"
    _check(_parse(probe.read_text()), marker)


def test_the_seccomp_filter_alone_stops_a_root_remount(tmp_path):
    """The second wall: bwrap run as root keeps every capability unless told otherwise; with
    only the filter loaded (no --cap-drop) the remount, umount and namespace calls still fail,
    while ordinary work (threads, fork, exec) goes on."""
    _as("root")
    from itbench.sandbox.seccomp import filter_fd

    script = (
        "grep -q '^CapEff:.*[1-9a-f]' /proc/self/status && echo has_caps=yes;"
        "mount -o remount,rw,bind /usr 2>/dev/null && echo remount=ok || echo remount=denied;"
        "umount /tmp 2>/dev/null && echo umount=ok || echo umount=denied;"
        "unshare -U true 2>/dev/null && echo userns=ok || echo userns=denied;"
        'python3 -c \'import threading; t=threading.Thread(target=print, args=("thread=ok",));'
        " t.start(); t.join()'"
    )
    base = ["bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/"]
    base += ["--ro-bind", "/usr", "/usr"]  # a mount of its own, as in both sandboxes
    base += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    without = subprocess.run([*base, "bash", "-c", script], capture_output=True, text=True)
    with filter_fd() as fd:
        filtered = subprocess.run(
            [*base, "--seccomp", str(fd), "bash", "-c", script],
            capture_output=True,
            text=True,
            pass_fds=(fd,),
        )
    # the control: without the filter root's sandbox can do all of it
    assert _parse(without.stdout) == {
        "has_caps": "yes",
        "remount": "ok",
        "umount": "ok",
        "userns": "ok",
        "thread": "ok",
    }
    assert _parse(filtered.stdout) == {
        "has_caps": "yes",
        "remount": "denied",
        "umount": "denied",
        "userns": "denied",
        "thread": "ok",
    }


def test_the_seccomp_program_denies_each_listed_call_on_this_architecture():
    """Decode the program and walk it for every table entry, as the kernel would."""
    import platform
    import struct

    from itbench.sandbox import seccomp

    column = {"x86_64": 0, "aarch64": 1}.get(platform.machine())
    if column is None:
        pytest.skip(f"no syscall table for {platform.machine()}")
    arch = (seccomp.AUDIT_ARCH_X86_64, seccomp.AUDIT_ARCH_AARCH64)[column]
    program = seccomp.filter_program()
    instructions = [struct.unpack("=HBBI", program[i : i + 8]) for i in range(0, len(program), 8)]

    def run(nr: int, arch_value: int = arch, arg0: int = 0) -> int:
        data = struct.pack("=iIQ6Q", nr, arch_value, 0, arg0, 0, 0, 0, 0, 0)
        acc, pc = 0, 0
        while True:
            code, jt, jf, k = instructions[pc]
            if code == 0x20:
                acc = struct.unpack_from("=I", data, k)[0]
            elif code == 0x06:
                return k
            elif code in (0x15, 0x35, 0x45):
                hit = {0x15: acc == k, 0x35: acc >= k, 0x45: bool(acc & k)}[code]
                pc += jt if hit else jf
            pc += 1

    eperm = seccomp.RET_ERRNO | seccomp.EPERM
    for name, numbers in seccomp.DENIED.items():
        assert run(numbers[column]) == eperm, name
    unshare = seccomp.NAMESPACE_FLAGGED["unshare"][column]
    assert run(unshare, arg0=seccomp.CLONE_NEWNS) == eperm
    assert run(unshare, arg0=seccomp.CLONE_NEWUSER) == eperm
    assert run(unshare, arg0=0x00000400) == seccomp.RET_ALLOW  # CLONE_FILES only
    clone = seccomp.NAMESPACE_FLAGGED["clone"][column]
    assert run(clone, arg0=0x003D0F00) == seccomp.RET_ALLOW  # glibc's pthread_create flags
    assert run(seccomp.CLONE3[column]) == seccomp.RET_ERRNO | seccomp.ENOSYS
    assert run(0) == seccomp.RET_ALLOW and run(59) == seccomp.RET_ALLOW  # read, execve
    assert run(0, arch_value=0x40000003) == seccomp.RET_KILL_PROCESS  # i386


# --- resource caps on the agent (issue 26): each trial that hits one fails naming it ----------

#: One command for the whole run; what it does depends on the trial's scenario.
HOSTILE_BY_SCENARIO = r"""
answer() { echo '{"resource": []}' > agent_output.json; }
case "$ITBENCH_WORKSPACE" in
  */Scenario-1/*) python3 -c 'b = bytearray(2 << 30); b[-1] = 1' && answer ;;
  */Scenario-2/*) head -c 64M /dev/zero > big.bin && answer ;;
  */Scenario-3/*) yes 'itbench output flood' ;;
  *) answer ;;
esac
"""


def test_agent_caps_fail_their_trial_and_the_run_goes_on(tmp_path):
    scenarios = tmp_path / "scenarios"
    _finops_scenarios(scenarios, n=4)
    out = tmp_path / "run"
    proc = subprocess.run(
        [itbench_executable(), "finops", "run", "--scenarios", str(scenarios)]
        + ["--agent-cmd", HOSTILE_BY_SCENARIO, "--agent-memory", "512M"]
        + ["--agent-file-size", "16M", "--agent-output", "1M", "--timeout", "120"]
        + ["--output", str(out), "--format", "json", "--no-progress", "-j", "2"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode in (0, 1), proc.stderr
    errors = {}
    for n in range(1, 5):
        evaluation = json.loads((out / f"Scenario-{n}" / "1" / "evaluation.json").read_text())
        errors[n] = evaluation.get("error")
    assert errors[1] is not None and "memory cap of 512M (--agent-memory)" in errors[1], errors
    assert errors[2] is not None and "file-size cap of 16M (--agent-file-size)" in errors[2]
    assert errors[3] is not None and "output cap of 1M (--agent-output)" in errors[3]
    assert errors[4] is None  # the benign trial of the same run was scored
    big = out / "Scenario-2" / "1" / "big.bin"
    assert big.stat().st_size <= 16 << 20
    events = [
        json.loads(line)
        for line in (out / "Scenario-3" / "1" / "transcript.jsonl").read_text().splitlines()
    ]
    (end,) = [e for e in events if e["event"] == "command_end"]
    assert end["cap"] == ["output", "1M"]
    assert end["duration_s"] < 60  # stopped at the cap, not at the time limit


@pytest.mark.parametrize(
    ("flags", "script", "cap"),
    [
        (
            ["--memory", "256M"],
            "python3 -c 'b = bytearray(1 << 30); b[-1] = 1'",
            "memory cap of 256M",
        ),
        (["--file-size", "8M"], "head -c 32M /dev/zero > big.bin", "file-size cap of 8M"),
        (["--output", "1M"], "yes 'itbench output flood'", "output cap of 1M"),
    ],
)
def test_evaluation_sandbox_caps_stop_the_command_and_name_the_cap(tmp_path, flags, script, cap):
    started = time.monotonic()
    proc = subprocess.run(
        [itbench_executable(), "sandbox", "run", "--out", str(tmp_path / "out"), *flags]
        + ["--timeout", "120", "--", "/bin/bash", "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert f"sandboxed command hit the {cap}" in proc.stderr
    assert time.monotonic() - started < 60  # stopped at the cap, not at the time limit
    assert len(proc.stdout) <= (1 << 20) + 200
    big = tmp_path / "out" / "big.bin"
    assert not big.exists() or big.stat().st_size <= 8 << 20


def test_a_size_that_is_not_one_is_a_usage_error(tmp_path):
    proc = subprocess.run(
        [itbench_executable(), "sandbox", "run", "--out", str(tmp_path), "--memory", "lots"]
        + ["--", "true"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "--memory: 'lots' is not a size" in proc.stderr


FORKS = """python3 - > forks.txt <<'PY'
import os, time
started = 0
for _ in range(60):
    try:
        if os.fork() == 0:
            time.sleep(5)
            os._exit(0)
        started += 1
    except OSError:
        break
print(started)
PY"""


def test_the_agent_sees_only_system_folders_and_forks_within_its_cap(shared_dir):
    """Issue 26's battery: an agent read the host's ITBench ground truths from an unknown
    top-level folder and other runs' suites, seeds and results from /var/tmp; and no option capped
    its processes. Unknown top-level folders and /var/tmp are empty in the sandbox now, and
    --agent-processes caps what it runs at once."""
    top = Path("/") / f"itbench-probe-{uuid.uuid4().hex[:8]}"
    top.mkdir()
    (top / "ground_truth.yaml").write_text("root_cause: secret\n")
    (shared_dir / "SEED").write_text("424242\n")
    try:
        scenarios = shared_dir / "scenarios"
        _finops_scenarios(scenarios)
        command = (
            f"ls -A {top} > seen_top.txt; ls -A {shared_dir} > seen_var_tmp.txt\n"
            f"find {scenarios} -type f > seen_scenarios.txt\n{FORKS}\n"
            "echo '{\"resource\": []}' > agent_output.json"
        )
        proc = subprocess.run(
            [itbench_executable(), "finops", "run", "--scenarios", str(scenarios)]
            + ["--agent-cmd", command, "--agent-processes", "16", "--no-progress"]
            + ["--output", str(shared_dir / "run"), "--format", "json"],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "ITBENCH_CACHE_DIR": str(shared_dir / "cache")},
            cwd=shared_dir,
        )
        assert proc.returncode == 0, proc.stderr
        workspace = shared_dir / "run" / "Scenario-1" / "1"
        assert (workspace / "seen_top.txt").read_text() == ""
        seen = (workspace / "seen_var_tmp.txt").read_text().split()
        # only mount points bwrap made (the workspace, covers over hidden folders), never what
        # lies beside them, and the covers are empty
        assert "SEED" not in seen, seen
        assert (workspace / "seen_scenarios.txt").read_text() == ""
        started = int((workspace / "forks.txt").read_text())
        assert 0 < started < 16, started
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_the_agent_runs_as_the_owner_of_its_home(tmp_path, shared_dir):
    """Run as root with ``--agent-home`` owned by another user, the agent runs as that user (its
    CLI writes login state there), with no capability, and its workspace is its own."""
    _as("nobody")  # the same preconditions: root and setpriv
    owner = 4242
    home = shared_dir / "home"
    home.mkdir()
    os.chown(home, owner, owner)
    scenarios = shared_dir / "scenarios"
    _finops_scenarios(scenarios)
    command = (
        "awk '/^(Uid|CapEff)/ {print $1, $2}' /proc/self/status > ids.txt; "
        'echo state > "$HOME/state"; echo \'{"resource": []}\' > agent_output.json'
    )
    proc = subprocess.run(
        [itbench_executable(), "finops", "run", "--scenarios", str(scenarios), "--agent-cmd",
         command, "--agent-home", str(home), "--no-progress", "--output", str(shared_dir / "o"),
         "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "ITBENCH_CACHE_DIR": str(shared_dir / "cache")},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    workspace = next((shared_dir / "o").glob("*/1"))
    ids = (workspace / "ids.txt").read_text().split()
    assert ids == ["Uid:", str(owner), "CapEff:", "0000000000000000"], ids
    assert (home / "state").read_text() == "state\n"
    assert (home / "state").stat().st_uid == owner
    assert workspace.stat().st_uid == owner


def test_agent_memory_caps_all_its_processes_together(tmp_path):
    """``--agent-memory`` caps each process (RLIMIT_DATA) and, where a memory cgroup can be made,
    the agent's processes together (issue 26, gap 5): four processes of 150 MiB each pass a
    256M per-process cap, not a 256M total; the trial fails naming the cap."""
    from itbench.sandbox.limits import MemoryLimit

    probe = MemoryLimit.create(64 << 20)
    probe.close()
    if probe.cgroup is None:
        pytest.skip("no writable memory cgroup here: only the per-process cap holds")
    scenarios = tmp_path / "scenarios"
    _finops_scenarios(scenarios)
    hog = "import time; b = bytearray(150 << 20); b[::4096] = b'x' * len(b[::4096]); time.sleep(4)"
    command = (
        f'pids=""; for i in 1 2 3 4; do /usr/bin/python3 -c "{hog}" & pids="$pids $!"; done; '
        "ok=1; for p in $pids; do wait $p || ok=0; done; "
        "echo '{\"resource\": []}' > agent_output.json; [ $ok = 1 ]"
    )
    out = tmp_path / "run"
    proc = subprocess.run(
        [itbench_executable(), "finops", "run", "--scenarios", str(scenarios), "--agent-cmd",
         command, "--agent-memory", "256M", "--output", str(out), "--format", "json",
         "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    evaluation = json.loads((out / "Scenario-1" / "1" / "evaluation.json").read_text())
    assert "memory cap of 256M (--agent-memory)" in (evaluation.get("error") or ""), (
        evaluation,
        proc.stderr,
    )
