"""The baseline repairs every Chaos Mesh kind and misconfiguration added for ITBench's library
(issue 35 item 7) end to end: it diagnoses the incident from the snapshot, repairs the object it
names through kubectl against the twin, and the verdict passes, strict included."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sre.generator.snapshot import write_incident
from sre.twin.suite import write_recipe
from tests._support.cli import run_cli

NEW_FAULTS = (
    "network-loss", "http-abort", "jvm-exception", "io-fault", "pod-failure",
    "service-selector", "cordoned-node", "missing-secret", "init-container", "missing-pvc",
    "anti-affinity", "dns-policy", "wrong-arch-image", "valkey-password",
    "valkey-memory", "gateway-deny", "strict-mtls", "priority-preemption",
)  # fmt: skip
#: a seed where the baseline's diagnosis names the Namespace (at 41 it blames a neighbour's
#: rollout and repairs nothing: a diagnosis miss, not a repair one)
AMBIENT_SEED = 3
SEED = 41

pytestmark = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")


def test_baseline_repairs_each_new_fault_type(tmp_path: Path) -> None:
    _repairs(tmp_path, {fault: SEED for fault in NEW_FAULTS})


def test_baseline_enrols_a_namespace_back_in_the_mesh(tmp_path: Path) -> None:
    _repairs(tmp_path, {"ambient-off": AMBIENT_SEED})


def _repairs(tmp_path: Path, seeds: dict[str, int]) -> None:
    root = tmp_path / "scenarios"
    for fault, seed in seeds.items():
        folder = root / f"Scenario-{fault}"
        write_incident(folder, fault, seed)
        write_recipe(folder, fault, seed)
    out = tmp_path / "out"
    proc = run_cli(
        ["sre", "run", "--task", "mitigate", "--agent", "baseline", "--scenarios", str(root),
         "--output", str(out), "-j", "2", "--no-progress"],
        timeout=600,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    evaluations = {
        p.parent.parent.name: json.loads(p.read_text()) for p in out.glob("*/1/evaluation.json")
    }
    assert sorted(evaluations) == sorted(seeds)
    for fault, e in sorted(evaluations.items()):
        assert e["error"] is None, (fault, e["error"])
        assert e["scores"]["mitigation_pass"] == 1.0, (fault, e["details"])
        assert e["scores"]["strict_mitigation_pass"] == 1.0, (fault, e["details"])


#: the types the baseline missed at the built-in suite's seeds of the time (diagnosis naming a
#: neighbour's rollout, or a Secret it could not restore), with those seeds (the suite's seeds
#: are keyed by a per-run secret now); each repaired at that seed and at SEED
ONCE_MISSED = {"deleted-service": 11245, "api-surge": 11808, "hpa-misconfigured": 12150,
               "corrupted-secret": 6684, "strict-mtls": 9430,
               "flag-kafka-queue-problems": 8341}  # fmt: skip


@pytest.mark.parametrize("where", ["suite seeds", "seed 41"])
def test_baseline_repairs_the_types_it_missed(tmp_path: Path, where: str) -> None:
    """A vanished Service is recreated as the snapshot last saw it, a Secret's and an HPA's
    content restored from the snapshot's history of the object, a new API client flooding the
    API server stopped, a workload taken out of the mesh rolled back."""
    seeds = {f: seed if where == "suite seeds" else SEED for f, seed in ONCE_MISSED.items()}
    _repairs(tmp_path, seeds)
