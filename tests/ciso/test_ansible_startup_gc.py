"""A play's Python processes start without cyclic garbage collection and get it back, with what
their start made frozen, once the play begins (startup_gc.py): a fifth of ``ansible-playbook``'s
start was the collector running over Ansible's own objects while they were made. Collection must
be on again wherever tasks and modules run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ciso.engines import ansible as engine
from tests._support.ciso import needs_sandbox

#: what the play's sitecustomize leaves: collection before and after Ansible's worker is imported
_PROBE = (
    "import gc, json; held = gc.isenabled(); "
    "import ansible.executor.process.worker; "
    "print(json.dumps([held, gc.isenabled(), gc.get_freeze_count() > 0]))"
)


def _site_state(tmp_path: Path, env: dict[str, str]) -> list[bool]:
    folder = tmp_path / "python"
    engine._install_site(folder, seed_modules=False)
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env={**env, "PYTHONPATH": str(folder)},
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_collection_is_held_while_a_play_starts_and_back_once_it_runs(tmp_path, monkeypatch):
    monkeypatch.delenv("ITBENCH_ANSIBLE_GC_HOLD", raising=False)
    assert _site_state(tmp_path, dict(os.environ)) == [False, True, True]


def test_the_hold_can_be_turned_off_to_measure(tmp_path, monkeypatch):
    monkeypatch.setenv("ITBENCH_ANSIBLE_GC_HOLD", "0")
    assert _site_state(tmp_path, dict(os.environ)) == [True, True, False]


GC_PLAY = """
- hosts: all
  gather_facts: false
  tasks:
    - name: in the controller's task worker
      ansible.builtin.set_fact:
        worker_gc: "{{ lookup('gcstate') }}"
    - name: in a module run
      gcstate:
      register: module_gc
    - name: both
      ansible.builtin.copy:
        content: "{{ {'worker': worker_gc, 'module': module_gc.enabled} | to_json }}"
        dest: "{{ playbook_dir }}/gc.json"
      delegate_to: localhost
"""

LOOKUP = """
import gc
from ansible.plugins.lookup import LookupBase


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        return [gc.isenabled()]
"""

MODULE = """
import gc
from ansible.module_utils.basic import AnsibleModule

AnsibleModule(argument_spec={}).exit_json(changed=False, enabled=gc.isenabled())
"""


@needs_sandbox
@pytest.mark.parametrize("hold", ["1", "0"])
def test_tasks_and_modules_run_with_collection_on(tmp_path, monkeypatch, hold):
    monkeypatch.setenv("ITBENCH_ANSIBLE_GC_HOLD", hold)
    host = tmp_path / "host"
    (host / "etc").mkdir(parents=True)
    (host / "etc" / "hostname").write_text("node1\n")
    out = tmp_path / "out"
    (out / "lookup_plugins").mkdir(parents=True)
    (out / "library").mkdir()
    (out / "lookup_plugins" / "gcstate.py").write_text(LOOKUP)
    (out / "library" / "gcstate.py").write_text(MODULE)
    (out / "playbook.yml").write_text(GC_PLAY)
    result = engine.run_playbook(out / "playbook.yml", out_dir=out, host_tree=host, timeout_s=120)
    assert result.ok, result.summary()
    assert json.loads((out / "gc.json").read_text()) == {"worker": True, "module": True}
