"""Playbooks through ansible-runner in the sandbox: per-task events through the real CLI
(``itbench ansible run --format json``), the bare ``ansible-playbook`` driver beside it, and the
parser on what the runner streams."""

from __future__ import annotations

import json
from pathlib import Path

from ciso.engines.ansible import run_playbook
from ciso.engines.ansible.events import failures, parse_runner_output
from tests._support.ciso import needs_sandbox
from tests._support.cli import run_cli

PLAY = """\
- hosts: rhel9_servers
  gather_facts: false
  tasks:
    - name: Read the host name
      command: cat /etc/hostname
    - name: Tolerated failure
      command: /bin/false
      ignore_errors: true
    - name: Skipped on purpose
      command: /bin/true
      when: false
    - name: Read a missing file
      command: cat /etc/missing.conf
    - name: Never reached
      command: /bin/true
"""


def _host(tmp_path: Path) -> Path:
    tree = tmp_path / "host"
    (tree / "etc").mkdir(parents=True)
    (tree / "etc" / "hostname").write_text("web-01\n")
    return tree


@needs_sandbox
def test_run_reports_each_task_on_each_host(tmp_path: Path) -> None:
    playbook = tmp_path / "playbook.yml"
    playbook.write_text(PLAY)
    proc = run_cli(
        ["ansible", "run", str(playbook), "--host-tree", str(_host(tmp_path)),
         "--out", str(tmp_path / "out"), "--format", "json"],
        timeout=180,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr  # the play failed: findings
    document = json.loads(proc.stdout)
    assert document["status"] == "failed" and document["driver"] == "runner"
    tasks = [(t["task"], t["host"], t["outcome"], t["ignored"]) for t in document["tasks"]]
    assert tasks == [
        ("Read the host name", "localhost", "ok", False),
        ("Tolerated failure", "localhost", "failed", True),
        ("Skipped on purpose", "localhost", "skipped", False),
        ("Read a missing file", "localhost", "failed", False),
    ]
    missing = document["tasks"][3]
    assert "(rc 1)" in missing["message"] and "/etc/missing.conf" in missing["message"]
    assert missing["path"].endswith("playbook.yml:12")
    # stderr names the task that stopped the play, not the tolerated one
    assert "task 'Read a missing file' (playbook.yml:12) failed on localhost" in proc.stderr
    assert "Tolerated failure" not in proc.stderr


@needs_sandbox
def test_text_output_is_ansibles_own(tmp_path: Path) -> None:
    playbook = tmp_path / "playbook.yml"
    playbook.write_text(PLAY)
    proc = run_cli(
        ["ansible", "run", str(playbook), "--host-tree", str(_host(tmp_path)),
         "--out", str(tmp_path / "out")],
        timeout=180,
    )  # fmt: skip
    assert proc.returncode == 1
    assert "TASK [Read the host name]" in proc.stdout and "PLAY RECAP" in proc.stdout
    assert not any(line.startswith('{"uuid"') for line in proc.stdout.splitlines())


@needs_sandbox
def test_both_drivers_collect_the_same_data(tmp_path: Path) -> None:
    playbook = tmp_path / "playbook.yml"
    playbook.write_text(
        "- hosts: rhel9_servers\n  gather_facts: false\n  tasks:\n"
        "    - command: cat /etc/hostname\n      register: name\n"
        "    - copy:\n        content: '{{ {\"name\": name.stdout} | to_json }}'\n"
        "        dest: collected_data.json\n"
    )
    host = _host(tmp_path)
    results = {
        driver: run_playbook(
            playbook, out_dir=tmp_path / driver, host_tree=host, timeout_s=120, driver=driver
        )
        for driver in ("runner", "playbook")
    }
    for driver, result in results.items():
        assert result.ok, (driver, result.summary())
        assert result.collected_data is not None
        assert json.loads(result.collected_data.read_text()) == {"name": "web-01"}, driver
    assert [e.outcome for e in results["runner"].events] == ["ok", "ok"]
    assert results["playbook"].events == ()  # the bare driver has no events to give


def test_parser_keeps_text_lines_and_skips_non_task_events() -> None:
    stream = "\n".join(
        [
            "[WARNING]: a line Ansible printed past the event stream",
            "a plain line",
            json.dumps({"event": "verbose", "stdout": "[DEPRECATION WARNING]: old syntax"}),
            json.dumps({"event": "playbook_on_start", "stdout": ""}),
            json.dumps(
                {
                    "event": "runner_on_unreachable",
                    "stdout": "fatal: [db]: UNREACHABLE!",
                    "event_data": {"task": "Gather", "host": "db", "res": {"msg": "no route"}},
                }
            ),
            json.dumps(["not", "an", "event"]),
        ]
    )
    parsed = parse_runner_output(stream)
    assert [(e.task, e.host, e.outcome, e.message) for e in parsed.events] == [
        ("Gather", "db", "unreachable", "no route")
    ]
    assert failures(parsed.events) == ["task 'Gather' unreachable on db: no route"]
    assert parsed.text.splitlines() == [
        "a plain line",
        "fatal: [db]: UNREACHABLE!",
        '["not", "an", "event"]',
    ]
    # what ansible-playbook writes to stderr stays out of the play's output
    assert parsed.warnings.splitlines() == [
        "[WARNING]: a line Ansible printed past the event stream",
        "[DEPRECATION WARNING]: old syntax",
    ]
