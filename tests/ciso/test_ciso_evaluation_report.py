"""The CISO class table, and `itbench ciso env` serving environments to a person."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from ciso.report import class_table
from itbench.scoring.document import ResultsDocument
from tests._support.ciso import SCENARIOS, kubectl_missing
from tests._support.cli import itbench_executable, run_cli

RAW = [
    {
        "incident_id": "a.kyverno",
        "trial_id": "1",
        "scores": {"itbench_pass": 1, "strict_pass": 1},
        "duration_s": 2.0,
    },
    {
        "incident_id": "a.kyverno",
        "trial_id": "2",
        "scores": {"itbench_pass": 1, "strict_pass": 0},
        "duration_s": 4.0,
    },
    {"incident_id": "b.kyverno", "trial_id": "1", "error": "timeout"},
    {
        "incident_id": "c.opa-static",
        "trial_id": "1",
        "scores": {"itbench_pass": 0, "strict_pass": 0, "required_files_exist": 1},
    },
]
CONFIG = {
    "scenario_classes": {
        "a.kyverno": "kyverno",
        "b.kyverno": "kyverno",
        "c.opa-static": "opa-static",
    }
}


def rows(text: str) -> dict[str, list[str]]:
    return {
        line.split()[0]: line.split()
        for line in text.splitlines()[2:]
        if line.strip() and not line.startswith("paper:")
    }


def test_pass_at_1_is_per_scenario_then_averaged() -> None:
    table = rows(class_table({"raw_results": RAW, "config": CONFIG}))
    # a: 2/2 ITBench, 1/2 strict; b errored (0): kyverno = (1 + 0) / 2, strict (0.5 + 0) / 2
    assert table["kyverno"][:6] == ["kyverno", "2", "3", "50.00", "25.00", "3.00"]
    assert table["kyverno"][-2:] == ["40.28", "16.18"]
    assert table["opa-static"] == ["opa-static", "1", "1", "0.00", "0.00", "—", "—", "—"]
    # overall: mean over the three scenarios
    assert table["overall"][:5] == ["overall", "3", "4", "33.33", "16.67"]
    assert table["overall"][-2:] == ["24.74", "25.19"]


def test_the_typed_document_gives_the_same_table() -> None:
    document = ResultsDocument.build(RAW, CONFIG)
    assert class_table(document) == class_table({"raw_results": RAW, "config": CONFIG})


@pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))
@pytest.mark.parametrize(("flag", "host_network"), [([], True), (["--compliant"], False)])
def test_env_serves_a_cluster_until_stopped(tmp_path: Path, flag: list[str], host_network) -> None:
    proc = subprocess.Popen(
        [
            itbench_executable(),
            "ciso",
            "env",
            "fixture-k8s-5.2.5-host-network",
            "--scenarios",
            str(SCENARIOS),
            "--dir",
            str(tmp_path),
            *flag,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        assert line == f"KUBECONFIG={tmp_path / 'kubeconfig.yaml'}"
        out = subprocess.run(
            ["kubectl", "get", "deploy", "web-hostnet", "-n", "paa", "-o", "json"],
            capture_output=True,
            text=True,
            timeout=60,
            env=dict(os.environ, KUBECONFIG=line.split("=", 1)[1]),
        )
        spec = json.loads(out.stdout)["spec"]["template"]["spec"]
        assert spec.get("hostNetwork", False) is host_network
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    assert proc.returncode == 0


def test_env_of_a_host_prints_the_inventory_and_tree(tmp_path: Path) -> None:
    proc = run_cli(
        [
            "ciso",
            "env",
            "fixture-rhel9-5.2.12-x11-forwarding",
            "--scenarios",
            str(SCENARIOS),
            "--dir",
            str(tmp_path),
        ]
    )
    assert proc.returncode == 0, proc.stderr
    lines = dict(line.split("=", 1) for line in proc.stdout.splitlines())
    assert lines["ITBENCH_INVENTORY"] == str(tmp_path / "inventory.ini")
    assert (Path(lines["ITBENCH_HOST_TREE"]) / "etc/ssh/sshd_config").read_text().count(
        "X11Forwarding yes"
    ) == 1


def test_env_of_an_unknown_scenario_is_a_usage_error(tmp_path: Path) -> None:
    proc = run_cli(["ciso", "env", "no-such-scenario", "--scenarios", str(SCENARIOS)])
    assert proc.returncode == 2
    assert "no scenario 'no-such-scenario'" in proc.stderr
