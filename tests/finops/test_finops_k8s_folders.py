"""User-written Kubernetes cost scenarios (``finops/k8s/folder.py``) through the real CLI:
three folders in the documented format (a load profile with the optimum searched, a load
generator with the optimum given as patches and replicas at the incident's start, a load series
with a genuine rise), run and judged per fixture with the baseline, the naive agent and the
diagnose task; the ground truth hidden from a sandboxed agent; every kind of bad input refused
with the file, object and field named, before any trial."""

from __future__ import annotations

import copy
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests._support.cli import run_cli, run_evaluations

needs_kubectl = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is absent: command agents refuse to run"
)


def _deployment(ns: str, name: str, replicas: int, req: tuple[str, str], lim: tuple[str, str]):
    labels = {"app": name}
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "namespace": ns, "labels": dict(labels)},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": dict(labels)},
            "template": {
                "metadata": {"labels": dict(labels)},
                "spec": {
                    "containers": [
                        {
                            "name": name,
                            "image": f"registry.example/{name}:1.0",
                            "resources": {
                                "requests": {"cpu": req[0], "memory": req[1]},
                                "limits": {"cpu": lim[0], "memory": lim[1]},
                            },
                        }
                    ]
                },
            },
        },
    }


def _hpa(ns: str, name: str, lo: int, hi: int, target: int) -> dict[str, Any]:
    return {
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": name, "namespace": ns},
        "spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": name},
            "minReplicas": lo,
            "maxReplicas": hi,
            "metrics": [
                {
                    "type": "Resource",
                    "resource": {
                        "name": "cpu",
                        "target": {"type": "Utilization", "averageUtilization": target},
                    },
                }
            ],
        },
    }


def _alert(ns: str, budget: float | None = None) -> dict[str, Any]:
    data = {"variancePct": "20"}
    if budget is not None:
        data["budgetPerDay"] = f"{budget:.2f}"
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "cost-alert", "namespace": ns},
        "data": data,
    }


def _usage(floor: float, per_rps: float, mem: float, mem_rps: float, cap: float) -> dict:
    return {
        "cpuFloor": floor,
        "cpuPerRps": per_rps,
        "memoryFloorMiB": mem,
        "memoryPerRpsMiB": mem_rps,
        "capacityRps": cap,
    }


def _series(base: float, rise_from_day: int | None, factor: float) -> list[list[float]]:
    """rps per five-minute step, 9 days, a diurnal wave and a lasting rise."""
    days = []
    for d in range(9):
        row = []
        for s in range(288):
            wave = 1 + 0.4 * math.cos(2 * math.pi * (s / 12 - 15) / 24)
            rise = factor if rise_from_day is not None and d >= rise_from_day else 1.0
            row.append(round(base * wave * rise, 2))
        days.append(row)
    return days


def _ledger_objects(ns: str, hpa_target: int) -> list[dict[str, Any]]:
    """A ledger API whose autoscaler aims at ``hpa_target`` % CPU, an audit service, the alert."""
    return [
        _deployment(ns, "ledger-api", 3, ("500m", "512Mi"), ("1", "1Gi")),
        _hpa(ns, "ledger-api", 2, 40, hpa_target),
        _deployment(ns, "audit", 2, ("250m", "256Mi"), ("500m", "512Mi")),
        _alert(ns),
    ]


def _catalog_objects(ns: str, api_replicas: int, k6_replicas: int) -> list[dict[str, Any]]:
    """A catalog API, a k6 load generator aimed at it, the alert."""
    return [
        _deployment(ns, "catalog-api", api_replicas, ("500m", "512Mi"), ("1", "1Gi")),
        _hpa(ns, "catalog-api", 2, 40, 70),
        _deployment(ns, "loadtest-k6", k6_replicas, ("500m", "256Mi"), ("1", "512Mi")),
        _alert(ns),
    ]


def fixtures() -> dict[str, dict[str, Any]]:
    """Scenario folders as the documented files: name -> {file: documents or mapping}."""
    ns1 = "payments"
    target_low = {
        # the incident: the ledger's autoscaler aims at 15 % CPU, where it aimed at 70
        "manifests.yaml": _ledger_objects(ns1, hpa_target=15),
        "history.yaml": _ledger_objects(ns1, hpa_target=70),
        "model.yaml": {
            "namespace": ns1,
            "node": {"name": "m5.xlarge", "coreHour": 0.04, "gibHour": 0.005},
            "workloads": {
                "ledger-api": {
                    **_usage(0.05, 0.008, 200, 2, 70),
                    "load": {"profile": {"baseRps": 200, "diurnal": 0.4, "peakHour": 14}},
                },
                "audit": _usage(0.2, 0.0, 230, 0.0, 50),
            },
        },
        "ground_truth.yaml": {
            "family": "hpa-target-low",
            "cause": {
                "workload": "ledger-api",
                "kind": "HorizontalPodAutoscaler",
                "field": "spec.metrics[0].resource.target.averageUtilization",
            },
            "remedy": "workload",
        },
    }
    ns2 = "catalog"
    load_test = {
        # the incident: a load test left running, and the API scaled out to serve it
        "manifests.yaml": _catalog_objects(ns2, api_replicas=6, k6_replicas=4),
        "history.yaml": _catalog_objects(ns2, api_replicas=3, k6_replicas=0),
        "model.yaml": {
            "namespace": ns2,
            "node": {"name": "c6i.4xlarge", "coreHour": 0.034, "gibHour": 0.0038},
            "workloads": {
                "catalog-api": {
                    **_usage(0.05, 0.0025, 320, 0.2, 300),
                    "load": {"profile": {"baseRps": 300, "diurnal": 0.4}},
                },
                "loadtest-k6": {
                    **_usage(0.35, 0.0, 150, 0.0, 1),
                    "loadGenerator": {"target": "catalog-api", "rpsPerReplica": 140},
                },
            },
            "startReplicas": {"catalog-api": 6},
        },
        "ground_truth.yaml": {
            "family": "forgotten-load-test",
            "cause": {"workload": "loadtest-k6", "kind": "Deployment", "field": "spec.replicas"},
            "remedy": "workload",
            "optimum": [
                {
                    "kind": "Deployment",
                    "name": "loadtest-k6",
                    "patch": [{"op": "replace", "path": "/spec/replicas", "value": 0}],
                }
            ],
        },
    }
    ns3 = "media"
    rise = {
        "manifests.yaml": [
            _deployment(ns3, "thumbnailer", 3, ("750m", "640Mi"), ("1500m", "1280Mi")),
            _hpa(ns3, "thumbnailer", 2, 50, 70),
            _deployment(ns3, "ingest-gw", 3, ("250m", "256Mi"), ("500m", "512Mi")),
            _alert(ns3),
        ],
        "model.yaml": {
            "namespace": ns3,
            "node": {"name": "c6i.4xlarge", "coreHour": 0.034, "gibHour": 0.0038},
            "workloads": {
                "thumbnailer": {
                    **_usage(0.08, 0.006, 350, 0.9, 200),
                    "load": {"series": {"stepMinutes": 5, "rps": _series(230, 7, 1.8)}},
                },
                "ingest-gw": _usage(0.2, 0.0, 230, 0.0, 50),
            },
        },
        "ground_truth.yaml": {
            "family": "budget-too-low",
            "cause": {"workload": "thumbnailer", "kind": "ConfigMap", "field": "data.budgetPerDay"},
            "remedy": "alert",
        },
    }
    return {"ledger-target": target_low, "catalog-k6": load_test, "media-rise": rise}


def write(root: Path, scenarios: dict[str, dict[str, Any]]) -> Path:
    for name, files in scenarios.items():
        folder = root / name
        folder.mkdir(parents=True, exist_ok=True)
        for file, content in files.items():
            content = json.loads(json.dumps(content))  # no shared objects: YAML aliases
            text = (
                yaml.safe_dump_all(content, sort_keys=False)
                if isinstance(content, list)
                else yaml.safe_dump(content, sort_keys=False)
            )
            (folder / file).write_text(text)
    return root


CAUSES = {
    "ledger-target": ("ledger-api", "HorizontalPodAutoscaler"),
    "catalog-k6": ("loadtest-k6", "Deployment"),
    "media-rise": ("thumbnailer", "ConfigMap"),
}


def _run(args: list[str], out: Path, task: str) -> dict[str, dict]:
    return run_evaluations(["finops", "run", "--task", task, *args], out, timeout=600)


@needs_kubectl
def test_baseline_mitigates_and_diagnoses_each_folder_and_eval_agrees(tmp_path: Path) -> None:
    scenarios = write(tmp_path / "s", fixtures())
    out = tmp_path / "o"
    got = _run(["--scenarios", str(scenarios), "--agent", "baseline"], out, "mitigate")
    assert sorted(got) == sorted(CAUSES)
    for sid, (workload, kind) in CAUSES.items():
        e = got[sid]
        assert e["error"] is None, e
        assert e["scenario_class"] == "finops-k8s-" + fixtures()[sid]["ground_truth.yaml"]["family"]
        assert e["details"]["cause"][:2] == [workload, kind], sid
        assert e["scores"]["mitigation_pass"] == 1.0, (sid, e["details"])
        assert e["scores"]["diagnosis_pass"] == 1.0, (sid, e["details"])
        assert e["scores"]["blast_radius"] == 0.0, sid
    assert got["media-rise"]["details"]["changed"] == ["alert"]
    assert got["catalog-k6"]["details"]["changed"] == ["loadtest-k6"]
    # the explicit optimum (loadtest-k6 at 0) is the 1.0 of the proximities
    assert got["catalog-k6"]["scores"]["proximity_cpu_cost"] == 1.0
    proc = run_cli(
        ["finops", "eval", "--task", "mitigate", "--outputs", str(out), "--ground-truth",
         str(scenarios), "--format", "json"]
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    again = {r["incident_id"]: r["scores"] for r in json.loads(proc.stdout)["raw_results"]}
    assert again == {sid: e["scores"] for sid, e in got.items()}


@needs_kubectl
def test_naive_halving_fails_each_folder(tmp_path: Path) -> None:
    scenarios = write(tmp_path / "s", fixtures())
    got = _run(["--scenarios", str(scenarios), "--agent", "naive"], tmp_path / "o", "mitigate")
    assert sorted(got) == sorted(CAUSES)
    for sid, e in got.items():
        assert e["error"] is None, e
        assert e["scores"]["mitigation_pass"] == 0.0, (sid, e["details"])


@needs_kubectl
def test_diagnose_task_on_folders_scores_the_cause_and_writes_nothing(tmp_path: Path) -> None:
    scenarios = write(tmp_path / "s", fixtures())
    got = _run(["--scenarios", str(scenarios), "--agent", "baseline"], tmp_path / "o", "diagnose")
    assert sorted(got) == sorted(CAUSES)
    for sid, e in got.items():
        assert e["scores"] == {"diagnosis_pass": 1.0}, (sid, e)
        assert e["details"]["writes"] == 0 and e["details"]["changed"] == []


@needs_kubectl
@needs_bwrap
def test_command_agent_sees_the_scenarios_objects_but_not_its_folder(tmp_path: Path) -> None:
    """The cluster serves manifests.yaml as written (its namespace, images); the folder with
    the ground truth and the load model is hidden from the sandbox."""
    scenarios = write(tmp_path / "s", {"catalog-k6": fixtures()["catalog-k6"]})
    folder = (scenarios / "catalog-k6").resolve()
    command = (
        f"! cat {folder}/ground_truth.yaml 2>/dev/null && ! ls {folder} 2>/dev/null && "
        "kubectl -n catalog get deploy loadtest-k6 -o jsonpath='{.spec.template.spec.containers[0].image}'"
        " > image.txt && grep -q registry.example/loadtest-k6 image.txt && "
        "kubectl -n catalog scale deployment loadtest-k6 --replicas=0 && "
        'echo \'{"workload":"loadtest-k6","kind":"Deployment","field":"spec.replicas"}\' > agent_output.json'
    )
    got = _run(["--scenarios", str(scenarios), "--agent-cmd", command], tmp_path / "o", "mitigate")
    e = got["catalog-k6"]
    assert e["error"] is None, e
    assert e["scores"]["mitigation_pass"] == 1.0 and e["scores"]["diagnosis_pass"] == 1.0


def _mutate(files: dict[str, Any], file: str, change) -> dict[str, Any]:
    files = copy.deepcopy(files)
    files[file] = change(files[file])
    return files


def _set(path: list, value: Any):
    def change(doc):
        target = doc
        for p in path[:-1]:
            target = target[p]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value
        return doc

    return change


_DELETE = object()
_PODS_METRIC = [{"type": "Pods", "pods": {"metric": {"name": "rps"},
                 "target": {"type": "AverageValue", "averageValue": "12"}}}]  # fmt: skip

# (case, file, change, the words the error must hold: file, object, field, problem)
BAD = [
    ("missing usage field", "model.yaml", _set(["workloads", "ledger-api", "cpuPerRps"], _DELETE),
     ["model.yaml", "workload 'ledger-api'", "'cpuPerRps'", "missing"]),
    ("negative floor", "model.yaml", _set(["workloads", "audit", "cpuFloor"], -0.1),
     ["model.yaml", "workload 'audit'", "'cpuFloor'", "at least 0"]),
    ("unknown model field", "model.yaml", _set(["workloads", "audit", "cpuFlor"], 0.1),
     ["model.yaml", "workload 'audit'", "'cpuFlor'", "unknown field"]),
    ("price not positive", "model.yaml", _set(["node", "coreHour"], 0),
     ["model.yaml", "node", "'coreHour'", "above 0"]),
    ("short series", "model.yaml",
     _set(["workloads", "ledger-api", "load"], {"series": {"stepMinutes": 5, "rps": [[1.0] * 288] * 8}}),
     ["model.yaml", "workload 'ledger-api'", "'load.series.rps'", "must cover days 0-8"]),
    ("series day of the wrong length", "model.yaml",
     _set(["workloads", "ledger-api", "load"], {"series": {"stepMinutes": 5, "rps": [[1.0] * 287] * 9}}),
     ["model.yaml", "workload 'ledger-api'", "'load.series.rps[0]'", "287 values"]),
    ("generator without target", "model.yaml",
     _set(["workloads", "audit", "loadGenerator"], {"target": "nobody", "rpsPerReplica": 5}),
     ["model.yaml", "workload 'audit' loadGenerator", "'target'", "'nobody'"]),
    ("pods metric", "manifests.yaml", _set([1, "spec", "metrics"], _PODS_METRIC),
     ["manifests.yaml", "HorizontalPodAutoscaler 'ledger-api'", "'spec.metrics[0]'", "only Resource metrics"]),
    ("min above max", "manifests.yaml", _set([1, "spec", "minReplicas"], 50),
     ["manifests.yaml", "HorizontalPodAutoscaler 'ledger-api'", "'spec.maxReplicas'", "minReplicas"]),
    ("negative request", "manifests.yaml",
     _set([0, "spec", "template", "spec", "containers", 0, "resources", "requests", "cpu"], "-1"),
     ["manifests.yaml", "Deployment 'ledger-api'", "requests[cpu]", "must be greater than or equal to 0"]),
    ("missing memory request", "manifests.yaml",
     _set([2, "spec", "template", "spec", "containers", 0, "resources", "requests", "memory"], _DELETE),
     ["manifests.yaml", "Deployment 'audit'", "'spec.template.spec.containers[0].resources.requests.memory'", "missing"]),
    ("unknown manifest field", "manifests.yaml", _set([0, "spec", "replica"], 3),
     ["manifests.yaml", "Deployment 'ledger-api'", "'spec.replica'", "unknown field"]),
    ("other namespace", "manifests.yaml", _set([2, "metadata", "namespace"], "elsewhere"),
     ["manifests.yaml", "Deployment 'audit'", "'metadata.namespace'", "'elsewhere'"]),
    ("alert variance not a number", "manifests.yaml", _set([3, "data", "variancePct"], "lots"),
     ["manifests.yaml", "ConfigMap 'cost-alert'", "'data.variancePct'", "'lots'"]),
    ("no alert", "manifests.yaml", lambda docs: docs[:3],
     ["manifests.yaml", "ConfigMap 'cost-alert'", "missing"]),
    ("unmodelled kind", "manifests.yaml",
     lambda docs: [*docs, {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "x"}}],
     ["manifests.yaml", "Service 'x'", "'kind'", "not modelled"]),
    ("deployment not in the model", "manifests.yaml",
     lambda docs: [*docs, _deployment("payments", "extra", 1, ("1", "1Gi"), ("1", "1Gi"))],
     ["manifests.yaml", "Deployment 'extra'", "'metadata.name'", "model.yaml"]),
    ("cause workload unknown", "ground_truth.yaml", _set(["cause", "workload"], "ghost"),
     ["ground_truth.yaml", "cause", "'workload'", "'ghost'"]),
    ("bad remedy", "ground_truth.yaml", _set(["remedy"], "pray"),
     ["ground_truth.yaml", "ground truth", "'remedy'", "'pray'"]),
    ("optimum patch path absent", "ground_truth.yaml",
     _set(["optimum"], [{"kind": "HorizontalPodAutoscaler", "name": "ledger-api",
                         "patch": [{"op": "replace", "path": "/spec/nothing/here", "value": 1}]}]),
     ["ground_truth.yaml", "optimum[0]", "'patch'"]),
    ("optimum patch gives a malformed object", "ground_truth.yaml",
     _set(["optimum"], [{"kind": "HorizontalPodAutoscaler", "name": "ledger-api",
                         "patch": [{"op": "replace", "path": "/spec/minReplicas", "value": 0}]}]),
     ["ground_truth.yaml", "optimum[0]", "'patch'", "spec.minReplicas"]),
    ("no optimum for an unsearchable field", "ground_truth.yaml",
     _set(["cause", "field"], "spec.behavior.scaleDown.selectPolicy"),
     ["ground_truth.yaml", "ground truth", "'optimum'", "give the optimum as patches"]),
]  # fmt: skip


_BOTH_TASKS = ("missing usage field", "pods metric", "cause workload unknown")


@pytest.mark.parametrize(("case", "file", "change", "words"), BAD, ids=[b[0] for b in BAD])
def test_bad_scenario_folder_is_refused_naming_file_object_and_field(
    tmp_path: Path, case: str, file: str, change, words: list[str]
) -> None:
    good = fixtures()["ledger-target"]
    scenarios = write(tmp_path / "s", {"ledger-target": _mutate(good, file, change)})
    out = tmp_path / "o"
    # the diagnose task reads the folder through the same loader: checked on a few cases
    tasks = ("mitigate", "diagnose") if case in _BOTH_TASKS else ("mitigate",)
    for task in tasks:
        proc = run_cli(
            ["finops", "run", "--task", task, "--scenarios", str(scenarios), "--agent",
             "baseline", "--output", str(out)]
        )  # fmt: skip
        assert proc.returncode == 3, (case, proc.stderr)
        assert "Traceback" not in proc.stderr
        for word in words:
            assert word in proc.stderr, (case, word, proc.stderr)
        assert not out.exists()  # refused before any trial


def test_unreadable_yaml_and_missing_files_are_refused(tmp_path: Path) -> None:
    good = fixtures()["ledger-target"]
    scenarios = write(tmp_path / "s", {"ledger-target": good})
    (scenarios / "ledger-target" / "ground_truth.yaml").write_text("cause: {field: a[0]}\n")
    proc = run_cli(
        ["finops", "run", "--task", "mitigate", "--scenarios", str(scenarios), "--output",
         str(tmp_path / "o")]
    )  # fmt: skip
    assert proc.returncode == 3 and "ground_truth.yaml: not valid YAML" in proc.stderr
    (scenarios / "ledger-target" / "ground_truth.yaml").unlink()
    proc = run_cli(
        ["finops", "run", "--task", "mitigate", "--scenarios", str(scenarios), "--output",
         str(tmp_path / "o")]
    )  # fmt: skip
    assert proc.returncode == 3 and "ground_truth.yaml: missing" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_documented_example_files_load(tmp_path: Path) -> None:
    """docs/finops/kubernetes.md's model.yaml and ground_truth.yaml, beside manifests for them,
    are a scenario the loader takes (the page and the format stay in step)."""
    import re

    from finops.k8s.folder import load_k8s_folder

    page = (Path(__file__).resolve().parents[2] / "docs" / "finops" / "kubernetes.md").read_text()
    model, truth = (yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", page, re.S))
    ns = model["namespace"]
    manifests = [
        _deployment(ns, "checkout-api", 3, ("500m", "512Mi"), ("1", "1Gi")),
        _hpa(ns, "checkout-api", 2, 40, 20),
        _deployment(ns, "loadtest", 2, ("500m", "256Mi"), ("1", "512Mi")),
        _alert(ns),
    ]
    folder = write(tmp_path, {"checkout-target": {
        "manifests.yaml": manifests, "model.yaml": model, "ground_truth.yaml": truth,
    }}) / "checkout-target"  # fmt: skip
    s = load_k8s_folder(folder)
    assert s.family == "hpa-target-low" and s.namespace == "checkout"
    assert s.optimal.workload("checkout-api").hpa.targets == (("cpu", 80),)
    assert s.incident.workload("loadtest").drives == "checkout-api"
    assert s.history_replicas == (("checkout-api", 6),)
    assert [c.kind for c in s.accepted] == ["Deployment"]
