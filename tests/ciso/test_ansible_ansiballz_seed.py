"""Module payloads built once per process (``ciso/engines/ansible/ansiballz_seed.py``): the
engine builds the payload cache entries of the common ``ansible.builtin`` modules with Ansible's
own ``modify_module`` outside the sandbox, and each sandboxed play links them into its fresh
``ansiballz_cache`` instead of building them again.

Real plays in the bubblewrap sandbox: a play's cache holds the seeded entries as links and no
entry it built itself for a seeded module; a module outside the seed is still built by the play;
a play cannot change the seed the next play reads; every built-in rhel9 scenario gets the same
verdict per host from its reference answer with the seed and without it."""

from __future__ import annotations

import json
from pathlib import Path

import ansible.release
import pytest

from ciso.engines import ansible as engine
from ciso.engines.ansible.ansiballz_seed import MANIFEST, seed_into
from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.format import load_scenario_dir
from tests._support.ciso import needs_sandbox
from tests._support.cli import REPO

SUITE = REPO / "ciso" / "suite" / "rhel9"
PLAYBOOKS = REPO / "playbooks"


def _seed(folder: Path, version: str, entries: list[str]) -> Path:
    folder.mkdir()
    for name in entries:
        (folder / name).write_bytes(b"payload of " + name.encode())
    (folder / MANIFEST).write_text(json.dumps({"ansible": version, "entries": entries}))
    return folder


def test_entries_are_linked_for_the_same_ansible_only(tmp_path: Path) -> None:
    names = ["ansible.modules.find-ZIP_DEFLATED-none", "ansible.modules.stat-ZIP_DEFLATED-none"]
    seed = _seed(tmp_path / "seed", ansible.release.__version__, names)
    cache = tmp_path / "play" / "ansiballz_cache"
    assert seed_into(str(cache), str(seed)) == 2
    for name in names:
        assert (cache / name).is_symlink()
        assert (cache / name).resolve() == seed / name
    # an entry the play has already built stays its own
    other = tmp_path / "other" / "ansiballz_cache"
    other.mkdir(parents=True)
    (other / names[0]).write_bytes(b"built by the play")
    assert seed_into(str(other), str(seed)) == 1
    assert (other / names[0]).read_bytes() == b"built by the play"
    # entries built by another Ansible are never handed to this one
    stale = _seed(tmp_path / "stale", "2.0.0", names)
    assert seed_into(str(tmp_path / "third"), str(stale)) == 0
    assert not (tmp_path / "third").exists()


def test_a_manifest_cannot_name_files_outside_the_seed(tmp_path: Path) -> None:
    (tmp_path / "secret").write_text("not a payload")
    seed = _seed(tmp_path / "seed", ansible.release.__version__, ["ok-ZIP_DEFLATED-none"])
    manifest = json.loads((seed / MANIFEST).read_text())
    manifest["entries"] += ["../secret", ".hidden", 7]
    (seed / MANIFEST).write_text(json.dumps(manifest))
    cache = tmp_path / "cache"
    assert seed_into(str(cache), str(seed)) == 1
    assert sorted(p.name for p in cache.iterdir()) == ["ok-ZIP_DEFLATED-none"]


def test_the_seed_is_ansibles_own_cache_entries() -> None:
    seed = engine.module_seed()
    assert seed is not None
    manifest = json.loads((seed / MANIFEST).read_text())
    assert manifest["ansible"] == ansible.release.__version__
    # Ansible names entries after the module's path-derived name, compression and extensions
    for module in engine.SEEDED_MODULES:
        short = module.rsplit(".", 1)[1]
        assert f"ansible.modules.{short}-ZIP_DEFLATED-none" in manifest["entries"], module
    for entry in manifest["entries"]:
        assert (seed / entry).stat().st_size > 10_000, entry  # a zip of module_utils, pickled


LISTING_PLAY = """\
- hosts: rhel9_servers
  gather_facts: false
  tasks:
    - ansible.builtin.stat: {path: /etc/hostname}
    - ansible.builtin.getent: {database: passwd, key: root, fail_key: false}
    - name: what the play's payload cache holds, and whether a seeded entry can be changed
      ansible.builtin.shell: |
        cd /tmp/ansible-local/*/ansiballz_cache
        for f in *; do
          if [ -L "$f" ]; then echo "link $f"; else echo "built $f"; fi
        done > "$OLDPWD/listing.txt"
        if echo tampered > "$(readlink -f ansible.modules.stat-ZIP_DEFLATED-none)"; then
          echo "seed writable" >> "$OLDPWD/listing.txt"
        fi
      args:
        chdir: "{{ playbook_dir }}"
"""


@needs_sandbox
def test_a_play_reads_the_seed_and_builds_only_what_it_lacks(tmp_path: Path) -> None:
    seed = engine.module_seed()
    assert seed is not None
    before = {p.name: p.read_bytes() for p in seed.iterdir()}
    host = tmp_path / "host"
    (host / "etc").mkdir(parents=True)
    (host / "etc" / "hostname").write_text("node1\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "playbook.yml").write_text(LISTING_PLAY)
    result = engine.run_playbook(out / "playbook.yml", out_dir=out, host_tree=host, timeout_s=120)
    assert result.ok, result.summary()
    lines = (out / "listing.txt").read_text().splitlines()
    assert "link ansible.modules.stat-ZIP_DEFLATED-none" in lines
    assert "link ansible.modules.command-ZIP_DEFLATED-none" in lines  # shell runs command
    # getent is not seeded: the play built it itself, as Ansible always does
    assert "built ansible.modules.getent-ZIP_DEFLATED-none" in lines
    assert not any(line.startswith("built ansible.modules.stat") for line in lines)
    assert "seed writable" not in lines
    # the play changed nothing the next play reads
    assert {p.name: p.read_bytes() for p in seed.iterdir()} == before


@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize("scenario", sorted(p.name for p in SUITE.iterdir() if p.is_dir()))
def test_rhel9_verdicts_are_the_same_with_and_without_the_seed(
    tmp_path: Path, scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (loaded,) = load_scenario_dir(SUITE / scenario)
    reference = PLAYBOOKS / scenario
    seed = engine.module_seed()
    assert seed is not None
    verdicts = {}
    for seeded in (True, False):
        monkeypatch.setattr(engine, "module_seed", lambda s=seeded: seed if s else None)
        folder = tmp_path / f"seeded-{seeded}"
        folder.mkdir()
        for name in ("playbook.yml", "policy.rego"):
            (folder / name).write_text((reference / name).read_text())
        result = evaluate_trial(loaded, folder)
        assert result.scores == {"itbench_pass": 1, "strict_pass": 1}, (
            seeded,
            result.details.get("failure"),
        )
        verdicts[seeded] = {k: v["result"] for k, v in result.details["environments"].items()}
    assert verdicts[True] == verdicts[False]


@needs_sandbox
def test_a_play_run_without_the_seed_builds_its_own(tmp_path: Path) -> None:
    # `itbench ansible run` starts one play per command: it builds its payloads as Ansible does
    host = tmp_path / "host"
    (host / "etc").mkdir(parents=True)
    (host / "etc" / "hostname").write_text("node1\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "playbook.yml").write_text(LISTING_PLAY.replace("seed writable", "file writable"))
    result = engine.run_playbook(
        out / "playbook.yml", out_dir=out, host_tree=host, timeout_s=120, seed_modules=False
    )
    assert result.ok, result.summary()
    lines = (out / "listing.txt").read_text().splitlines()
    assert "built ansible.modules.stat-ZIP_DEFLATED-none" in lines
    assert not any(line.startswith("link ") for line in lines)
