"""The ``ansible.builtin`` routing table a sandboxed play's ``ansible-playbook`` reads at start
(``ciso/engines/ansible/routing_cache.py``): parsed once outside the sandbox with Ansible's own
function and handed in as JSON, used only for the exact bytes it was made from.

Real plays in the bubblewrap sandbox: a cache carrying one extra redirect is followed (so the
play reads the cache), the same cache under a wrong digest is not (so a differing file is parsed
as before), and every built-in rhel9 scenario gets the same verdict per host from its reference
answer and a naive one with the cache and without it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import ansible
import pytest
from ansible.utils.collection_loader._collection_meta import _meta_yml_to_dict

import ciso.evaluation.rhel9 as rhel9
from ciso.engines import ansible as engine
from ciso.engines.ansible.routing_cache import cached_parse
from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.format import load_scenario_dir
from tests._support.ciso import needs_sandbox
from tests._support.cli import REPO

SUITE = REPO / "ciso" / "suite" / "rhel9"
PLAYBOOKS = REPO / "playbooks"
RUNTIME = Path(ansible.__file__).parent / "config" / "ansible_builtin_runtime.yml"

#: a module name only a routing table that redirects it resolves
PROBE_PLAY = """\
- hosts: rhel9_servers
  gather_facts: false
  tasks:
    - name: a module known only through the routing table
      ansible.builtin.itbench_routing_probe:
        data: routed
      register: probe
    - ansible.builtin.copy:
        content: "{{ probe.ping }}"
        dest: collected_data.json
      delegate_to: localhost
"""


def test_the_cache_is_ansibles_own_parse_of_the_installed_table() -> None:
    text = engine.builtin_routing()
    assert text is not None
    stored = json.loads(text)
    raw = RUNTIME.read_bytes()
    assert stored["sha256"] == hashlib.sha256(raw).hexdigest()
    assert stored["routing"] == _meta_yml_to_dict(raw, ("ansible.builtin", "runtime.yml"))


def test_the_wrapped_parse_answers_only_for_the_bytes_it_was_made_from(tmp_path: Path) -> None:
    calls = []

    def original(data: bytes, content_id: object) -> dict:
        calls.append(data)
        return {"parsed": True}

    cache = tmp_path / "cache.json"
    cache.write_text(
        json.dumps({"sha256": hashlib.sha256(b"a: 1").hexdigest(), "routing": {"a": "1"}})
    )
    parse = cached_parse(original, str(cache))
    first = parse(b"a: 1", ("x", "runtime.yml"))
    first["a"] = "changed"  # a caller changing its copy changes nothing for the next one
    assert parse("a: 1", ("x", "runtime.yml")) == {"a": "1"}
    assert calls == []
    assert parse(b"a: 2", ("x", "runtime.yml")) == {"parsed": True}
    cache.write_text("not json")
    assert parse(b"a: 1", ("x", "runtime.yml")) == {"parsed": True}
    assert calls == [b"a: 2", b"a: 1"]


def _routed(sha256: str) -> str:
    routing = json.loads(engine.builtin_routing() or "{}")["routing"]
    routing["plugin_routing"]["modules"]["itbench_routing_probe"] = {
        "redirect": "ansible.builtin.ping"
    }
    return json.dumps({"sha256": sha256, "routing": routing})


def _probe(
    tmp_path: Path, name: str, cache: str, monkeypatch: pytest.MonkeyPatch
) -> engine.PlaybookResult:
    monkeypatch.setattr(engine, "builtin_routing", lambda: cache)
    out = tmp_path / name
    out.mkdir()
    (out / "playbook.yml").write_text(PROBE_PLAY)
    host = tmp_path / f"host-{name}"
    (host / "etc").mkdir(parents=True)
    return engine.run_playbook(out / "playbook.yml", out_dir=out, host_tree=host, timeout_s=120)


@needs_sandbox
def test_the_play_follows_the_cache_for_the_installed_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    digest = hashlib.sha256(RUNTIME.read_bytes()).hexdigest()
    routed = _probe(tmp_path, "routed", _routed(digest), monkeypatch)
    assert routed.ok, routed.summary()
    assert (tmp_path / "routed" / "collected_data.json").read_text() == "routed"
    # a cache made from other bytes is not used: Ansible parses the installed table itself,
    # which knows no such module
    other = _probe(tmp_path, "other", _routed("0" * 64), monkeypatch)
    assert not other.ok
    assert "itbench_routing_probe" in other.summary()


NAIVE_PLAYBOOK = """\
- hosts: rhel9_servers
  gather_facts: false
  tasks:
    - ansible.builtin.command: ls -la /etc
      register: listing
      changed_when: false
    - ansible.builtin.copy:
        content: "{{ {'listing': listing.stdout} | to_json }}"
        dest: collected_data.json
      delegate_to: localhost
"""
NAIVE_POLICY = """\
package check

import rego.v1

default result := true

result := false if count(input.listing) > 0
"""


@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize("scenario", sorted(p.name for p in SUITE.iterdir() if p.is_dir()))
def test_rhel9_verdicts_are_the_same_with_and_without_the_cache(
    tmp_path: Path, scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (loaded,) = load_scenario_dir(SUITE / scenario)
    reference = PLAYBOOKS / scenario
    answers = {
        "oracle": (
            (reference / "playbook.yml").read_text(),
            (reference / "policy.rego").read_text(),
            {"itbench_pass": 1, "strict_pass": 1},
        ),
        "naive": (NAIVE_PLAYBOOK, NAIVE_POLICY, {"itbench_pass": 1, "strict_pass": 0}),
    }
    cache = engine.builtin_routing()
    assert cache is not None
    for answer, (playbook, policy, expected) in answers.items():
        verdicts = {}
        for cached in (True, False):
            monkeypatch.setattr(engine, "builtin_routing", lambda c=cached: cache if c else None)
            folder = tmp_path / f"{answer}-{cached}"
            folder.mkdir()
            (folder / "playbook.yml").write_text(playbook)
            (folder / "policy.rego").write_text(policy)
            result = evaluate_trial(loaded, folder)
            assert result.scores == expected, (answer, cached, result.details.get("failure"))
            verdicts[cached] = {k: v["result"] for k, v in result.details["environments"].items()}
        assert verdicts[True] == verdicts[False], answer
    assert rhel9.run_playbook is engine.run_playbook  # the evaluation's own path was measured
