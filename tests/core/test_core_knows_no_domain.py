"""Core names no domain: every domain-specific thing reaches it through the Domain spec.

The scan reads code, comments and docstrings alike (a comment naming a domain is how the next
hard-coded branch starts), case-insensitively, as whole words with an optional plural.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests._support.cli import REPO

CORE = REPO / "itbench"
DOMAIN_WORDS = ("ciso", "finops", "sre", "kyverno", "rego", "policyreport")
PATTERN = re.compile(r"\b(" + "|".join(DOMAIN_WORDS) + r")s?\b", re.IGNORECASE)


def domain_mentions(root: Path) -> list[str]:
    """``file:line: word`` for every domain word in a text file under ``root``."""
    hits = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # binary data files: nothing a reader would see as a name
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for match in PATTERN.finditer(line):
                hits.append(f"{path.relative_to(root)}:{number}: {match.group(0)}")
    return hits


def test_no_module_under_itbench_names_a_domain():
    hits = domain_mentions(CORE)
    assert not hits, "core must not name a domain:\n" + "\n".join(hits)


def test_the_scan_finds_names_in_code_comments_and_docstrings(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(
        '"""Talks to Kyverno."""\n'  # docstring, capitalised
        "x = 1  # for FinOps\n"  # comment, mixed case
        "KINDS = {('kyverno.io', 'ClusterPolicy')}\n"  # a group name is a word too
        "def rego_compile(): ...\n"  # underscores join words: not a whole word
        "PolicyReports = []\n"  # plural
        "resource = categories = presre = 'address'\n"  # substrings are not names
        "ROLE = 'SRE'\n",
        encoding="utf-8",
    )
    (tmp_path / "pkg" / "blob.bin").write_bytes(b"\xff\xfe ciso")
    assert domain_mentions(tmp_path) == [
        "pkg/mod.py:1: Kyverno",
        "pkg/mod.py:2: FinOps",
        "pkg/mod.py:3: kyverno",
        "pkg/mod.py:5: PolicyReports",
        "pkg/mod.py:7: SRE",
    ]


def test_built_in_domains_bring_their_cluster_types_and_sandbox_packages():
    """What core used to hard-code now arrives through the loaded domains."""
    from itbench.cluster import domain_extensions
    from itbench.sandbox.hosttree import domain_packages, needed_paths

    extensions = {e.name: e for e in domain_extensions()}
    assert "ciso" in extensions
    kinds = {(t.group, t.kind) for t in extensions["ciso"].types}
    assert ("kyverno.io", "ClusterPolicy") in kinds
    assert ("wgpolicyk8s.io", "PolicyReport") in kinds
    # finops serves no custom kinds, but its plugin package is visible so domains load in there
    assert "finops" not in extensions
    assert set(domain_packages()) >= {"ciso", "finops"}
    # the reference answers are answer packages: never inside the sandbox (issue 26)
    assert not set(domain_packages()) & {"policies", "playbooks"}
    paths = set(needed_paths())
    for package in ("itbench", "finops"):
        assert REPO / package in paths, package
    assert REPO / "ciso" / "engines" in paths
    for answers in ("policies", "playbooks", "ciso", "ciso/suite", "ciso/agents"):
        assert REPO / answers not in paths, answers


def test_a_third_party_domains_package_is_visible_in_the_sandbox(toy_env):
    """Nothing in core lists the toy domain, yet its package is among the sandbox's paths; the
    broken toy plugin costs one warning, not the others."""
    import subprocess
    import sys

    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "from itbench.sandbox.hosttree import domain_packages, needed_paths\n"
            "print(' '.join(domain_packages()))\n"
            "print('\\n'.join(map(str, needed_paths())))",
        ],
        env=toy_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    packages, *paths = proc.stdout.splitlines()
    assert "itbench_toy" in packages.split() and "ciso" in packages.split()
    assert str(REPO / "tests" / "core" / "toy_dist" / "itbench_toy") in paths
    assert "plugin 'broken'" in proc.stderr and "warning:" in proc.stderr
