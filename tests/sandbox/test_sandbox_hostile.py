"""The hostile battery: generated code that tries to escape, with real bubblewrap. Nothing may
appear on the host, and the benign cases must still work."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import threading
import uuid
from pathlib import Path

import pytest

from ciso.engines.ansible import run_playbook, validate_playbook
from itbench.sandbox import run_sandboxed
from tests._support.cli import itbench_executable
from tests._support.sandbox import needs_sandbox

FIXTURES = Path(__file__).parent / "fixtures"
HOST = FIXTURES / "host"
CLUSTER = Path(__file__).resolve().parents[1] / "cluster" / "fixtures"


pytestmark = needs_sandbox


def sh(script: str, out: Path, **kwargs):
    return run_sandboxed(["/bin/bash", "-c", script], out_dir=out, host_tree=HOST, **kwargs)


def test_writing_system_files_fails_and_nothing_appears(tmp_path):
    marker = Path("/etc/itbench-escape")
    result = sh(f"echo escaped > {marker}", tmp_path / "out")
    assert result.exit_code != 0 and "Read-only file system" in result.stderr
    assert not marker.exists()
    playbook = run_playbook(
        FIXTURES / "escape.yml", out_dir=tmp_path / "pb", host_tree=HOST, timeout_s=120
    )
    assert not playbook.ok and playbook.status == "failed"
    assert not marker.exists()


def test_writing_into_the_home_directory_fails(tmp_path):
    target = Path.home() / f"itbench-escape-{uuid.uuid4().hex}"
    result = sh(f"echo x > {target}; ls -a {Path.home()}", tmp_path / "out")
    assert not target.exists()
    assert ".bashrc" not in result.stdout  # the real home is not even visible


def test_files_outside_the_host_tree_cannot_be_copied_out(tmp_path):
    secret = Path.home() / ".cache" / f"itbench-secret-{uuid.uuid4().hex}"
    secret.parent.mkdir(parents=True, exist_ok=True)
    secret.write_text("TOP-SECRET")
    try:
        out = tmp_path / "out"
        sh(f"cp {secret} leaked.txt; cat {secret} >> leaked2.txt", out)
        leaked = [
            p
            for p in out.rglob("*")
            if p.is_file() and "TOP-SECRET" in p.read_text(errors="replace")
        ]
        assert leaked == []
    finally:
        secret.unlink()


def test_the_hosts_loopback_is_unreachable(tmp_path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    accepted = []
    server.settimeout(5)

    def accept():
        with contextlib.suppress(OSError):
            accepted.append(server.accept())

    thread = threading.Thread(target=accept)
    thread.start()
    script = (
        f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2)\""
    )
    result = sh(script, tmp_path / "out", timeout_s=30)
    thread.join()
    server.close()
    assert result.exit_code != 0 and "refused" in result.stderr.lower()
    assert accepted == []


def test_a_fork_bomb_is_contained(tmp_path):
    result = sh(
        "bomb() { bomb | bomb & }; bomb; sleep 3", tmp_path / "out", timeout_s=20, max_processes=64
    )
    assert result.duration_s < 20
    assert "fork" in result.stderr.lower() or result.timed_out
    leftovers = subprocess.run(
        ["pgrep", "-f", "bomb"], capture_output=True, text=True
    ).stdout.split()
    assert leftovers == []


def test_sleeping_forever_is_killed_at_the_limit(tmp_path):
    result = sh("sleep 1000 & sleep 1000", tmp_path / "out", timeout_s=2)
    assert result.timed_out and result.exit_code == 124
    assert result.duration_s < 10
    assert subprocess.run(["pgrep", "-f", "sleep 1000"], capture_output=True).returncode == 1


def test_only_the_output_directory_is_written(tmp_path):
    out = tmp_path / "out"
    before = set(os.listdir("/tmp"))
    result = sh("echo ok > result.txt; echo junk > /tmp/scratch.txt; pwd", out)
    assert result.exit_code == 0 and result.stdout.strip() == str(out)
    assert (out / "result.txt").read_text() == "ok\n"
    # a host-tree file under a directory this machine does not have is there too
    staged = sh("cat /opt/itbench-scenario/marker.txt", tmp_path / "out2")
    assert staged.stdout == "scenario-file\n"
    assert not Path("/opt/itbench-scenario").exists()
    assert "scratch.txt" not in set(os.listdir("/tmp")) - before


def test_a_benign_playbook_reads_the_host_trees_sshd_config(tmp_path):
    assert not Path("/etc/ssh/sshd_config").exists(), (
        "this machine has an sshd_config: the test proves nothing"
    )
    result = run_playbook(
        FIXTURES / "collect_x11.yml", out_dir=tmp_path / "pb", host_tree=HOST, timeout_s=120
    )
    assert result.ok, result.sandbox.stderr[-2000:]
    assert json.loads(result.collected_data.read_text()) == {"x11_forwarding": "X11Forwarding yes"}


def test_a_fetcher_queries_the_trials_cluster_with_kubectl(tmp_path):
    if shutil.which("kubectl") is None:
        pytest.skip("kubectl is not installed")
    out = tmp_path / "fetch"
    out.mkdir()
    fetcher = out / "fetcher.sh"
    fetcher.write_text("#!/bin/bash\nset -e\nkubectl get deploy -A -o json > collected_data.json\n")
    fetcher.chmod(0o755)
    result = run_sandboxed(
        ["./fetcher.sh"], out_dir=out, cluster_manifests=CLUSTER / "workloads.yaml", timeout_s=60
    )
    assert result.exit_code == 0, result.stderr
    items = json.loads((out / "collected_data.json").read_text())["items"]
    assert [(d["metadata"]["namespace"], d["metadata"]["name"]) for d in items] == [
        ("paa", "nginx-deployment")
    ]
    assert items[0]["spec"]["template"]["spec"]["hostNetwork"] is True


def test_playbook_validation_reports_syntax_errors_and_lint(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text("- hosts: all\n  tasks:\n    - name: x\n      debug: {msg: hi\n")
    (diagnostic,) = validate_playbook(broken)
    assert diagnostic.tool == "ansible-playbook" and diagnostic.severity == "error"
    assert "YAML" in diagnostic.message
    findings = validate_playbook(FIXTURES / "collect_x11.yml")
    assert findings == [] or all(d.tool == "ansible-lint" for d in findings)


def test_cli_contract(tmp_path):
    exe = itbench_executable()
    ok = subprocess.run(
        [
            exe,
            "sandbox",
            "run",
            "--host-tree",
            str(HOST),
            "--out",
            str(tmp_path / "a"),
            "--",
            "cat",
            "/etc/ssh/sshd_config",
        ],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0 and "X11Forwarding yes" in ok.stdout
    failed = subprocess.run(
        [exe, "sandbox", "run", "--out", str(tmp_path / "b"), "--", "sh", "-c", "exit 7"],
        capture_output=True,
        text=True,
    )
    assert failed.returncode == 1 and "exited with 7" in failed.stderr
    played = subprocess.run(
        [
            exe,
            "ansible",
            "run",
            str(FIXTURES / "collect_x11.yml"),
            "--host-tree",
            str(HOST),
            "--out",
            str(tmp_path / "c"),
        ],
        capture_output=True,
        text=True,
    )
    assert played.returncode == 0, played.stderr
    assert (tmp_path / "c" / "collected_data.json").exists()
    usage = subprocess.run(
        [exe, "ansible", "run", str(FIXTURES / "collect_x11.yml"), "--out", str(tmp_path / "d")],
        capture_output=True,
        text=True,
    )
    assert usage.returncode == 2


def test_refuses_without_bubblewrap(tmp_path):
    venv_bin = Path(itbench_executable()).parent
    env = {"PATH": str(venv_bin), "HOME": str(tmp_path)}
    proc = subprocess.run(
        [itbench_executable(), "sandbox", "run", "--out", str(tmp_path / "x"), "--", "true"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 3
    assert (
        "bubblewrap (bwrap) is not installed" in proc.stderr
        and "never runs generated code unsandboxed" in proc.stderr
    )
