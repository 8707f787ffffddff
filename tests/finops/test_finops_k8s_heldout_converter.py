"""The held-out set's converter (``benchmarks/finops_k8s_heldout.py``): a scenario in the
independent measurer's format (``measurement/finops-k8s/README.md``) becomes a scenario folder
our loader reads, field for field; what our model cannot hold is refused with the reason; their
naive remedies' wording becomes changes of the manifests."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest

from finops.k8s.folder import load_k8s_folder
from finops.k8s.hpa import HPASpec

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def heldout():
    spec = importlib.util.spec_from_file_location(
        "finops_k8s_heldout", ROOT / "benchmarks" / "finops_k8s_heldout.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _workload(name, replicas, cpu_req, cpu_lim, mem_req, mem_lim, usage, loadgen=None):
    return {
        "name": name,
        "node_type": "m6i.2xlarge",
        "cpu_request": cpu_req,
        "cpu_limit": cpu_lim,
        "mem_request_mib": mem_req,
        "mem_limit_mib": mem_lim,
        "replicas": replicas,
        "image": f"registry.internal/{name}:1.0",
        "usage": usage,
        "loadgen": loadgen,
    }


def _their_case(folder: Path, metric: dict | None = None) -> Path:
    """One scenario in their three files: a lowered HPA target on cart-svc."""
    usage = {"cpu_floor": 0.05, "cpu_per_rps": 0.002, "mem_floor_mib": 300, "mem_per_rps_mib": 0.2}
    cart = _workload("cart-svc", 0, 0.5, 1.0, 512, 1024, usage)
    hist = {
        "workloads": {"cart-svc": cart},
        "hpas": {
            "cart-svc": {
                "minReplicas": 2,
                "maxReplicas": 30,
                "metrics": [{"type": "Resource", "name": "cpu", "averageUtilization": 70}],
            }
        },
        "alert": {"variancePct": 20, "budgetPerDay": None},
    }
    inc = copy.deepcopy(hist)
    inc["hpas"]["cart-svc"]["metrics"][0]["averageUtilization"] = 25
    if metric is not None:
        inc["hpas"]["cart-svc"]["metrics"] = [metric]
    world = {
        "id": folder.name,
        "namespace": "commerce",
        "node_prices_usd": {"m6i.2xlarge": {"core_hour": 0.036, "gib_hour": 0.0045}},
        "load_rps": {"cart-svc": [[400.0] * 288 for _ in range(9)]},
        "history_objects": hist,
        "incident_objects": inc,
        "initial_hpa_replicas_at_d7_00h": {"cart-svc": 5},
        "history_average": 2.5,
    }
    hpa_spec = {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "cart-svc"},
        "minReplicas": 2,
        "maxReplicas": 30,
        "metrics": [
            {
                "type": "Resource",
                "resource": {
                    "name": "cpu",
                    "target": {"type": "Utilization", "averageUtilization": 25},
                },
            }
        ],
    }
    manifests = {
        "apiVersion": "v1",
        "kind": "List",
        "items": [
            {
                "apiVersion": "apps/v1",
                "kind": "Deployment",
                "metadata": {"name": "cart-svc", "namespace": "commerce"},
                "spec": {
                    "replicas": 9,
                    "selector": {"matchLabels": {"app": "cart-svc"}},
                    "template": {
                        "metadata": {"labels": {"app": "cart-svc"}},
                        "spec": {
                            "containers": [
                                {
                                    "name": "cart-svc",
                                    "image": "registry.internal/cart-svc:1.0",
                                    "resources": {
                                        "requests": {"cpu": "500m", "memory": "512Mi"},
                                        "limits": {"cpu": "1000m", "memory": "1Gi"},
                                    },
                                }
                            ]
                        },
                    },
                },
            },
            {
                "apiVersion": "autoscaling/v2",
                "kind": "HorizontalPodAutoscaler",
                "metadata": {"name": "cart-svc", "namespace": "commerce"},
                "spec": hpa_spec,
            },
            {
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {"name": "cost-alert", "namespace": "commerce"},
                "data": {"variancePct": "20", "window": "lastWeekAverage"},
            },
        ],
    }
    cause = {
        "workload": "cart-svc",
        "kind": "HorizontalPodAutoscaler",
        "object": "cart-svc",
        "field": "spec.metrics[0].resource.target.averageUtilization",
    }
    truth = {
        "family": "hpa-target-low",
        "cause": cause,
        "acceptable_diagnoses": [cause],
        "genuine_rise": False,
        "optimum": {
            "patches": [
                {
                    "kind": "HorizontalPodAutoscaler",
                    "name": "cart-svc",
                    "field": "metrics.0.averageUtilization",
                    "value": 80,
                }
            ]
        },
        "naive_must_not_pass": [
            {"remedy": "raise budgetPerDay to 3x last week's average"},
            {"remedy": "delete cart-svc's HPA (replicas frozen at the current count)"},
        ],
    }
    folder.mkdir(parents=True)
    for name, doc in (
        ("scenario.json", world),
        ("manifests.json", manifests),
        ("ground_truth.json", truth),
    ):
        (folder / name).write_text(json.dumps(doc))
    return folder


def test_a_case_converts_into_a_folder_our_loader_reads_field_for_field(heldout, tmp_path):
    src = _their_case(tmp_path / "theirs" / "tl-09")
    assert heldout.convert(tmp_path / "theirs", tmp_path / "ours") == {}
    s = load_k8s_folder(tmp_path / "ours" / "tl-09")
    assert s.namespace == "commerce" and s.family == "hpa-target-low"
    assert (s.node.cpu_hourly, s.node.memory_hourly) == (0.036, 0.0045)
    svc = s.service_map["cart-svc"]
    assert svc.memory_floor == pytest.approx(300 / 1024)
    # their SLO point (CPU demand at 90% of the 1-core limit) as our capacity in requests/s
    assert svc.capacity_rps == pytest.approx((1.0 - 0.05 / 0.9) / 0.002, rel=1e-4)
    assert svc.load.rps(7 * 86400.0) == 400.0
    assert s.history_replicas == (("cart-svc", 5),)
    assert s.incident.workload("cart-svc").hpa.targets == (("cpu", 25),)
    assert s.before.workload("cart-svc").hpa.targets == (("cpu", 70),)
    assert s.optimal.workload("cart-svc").hpa.targets == (("cpu", 80),)
    assert (s.cause.workload, s.cause.kind, s.remedy) == (
        "cart-svc",
        "HorizontalPodAutoscaler",
        "workload",
    )
    world = json.loads((src / "scenario.json").read_text())
    budget, delete = (heldout.naive_changes(n, world) for n in (
        "raise budgetPerDay to 3x last week's average",
        "delete cart-svc's HPA (replicas frozen at the current count)",
    ))  # fmt: skip
    assert budget == [
        {
            "kind": "ConfigMap",
            "name": "cost-alert",
            "patch": [{"op": "add", "path": "/data/budgetPerDay", "value": "7.5"}],
        }
    ]
    assert delete == [{"kind": "HorizontalPodAutoscaler", "name": "cart-svc", "delete": True}]
    verdicts = heldout.remedies_heldout(tmp_path / "theirs", tmp_path / "ours")["tl-09"]
    assert verdicts["right_remedy_passes"] is True
    assert verdicts["naive_fail"] == [True, True]
    assert isinstance(s.optimal.workload("cart-svc").hpa, HPASpec)


def test_a_pods_metric_is_not_representable_and_not_written(heldout, tmp_path):
    pods = {"type": "Pods", "name": "rps", "averageValue": 12}
    _their_case(tmp_path / "theirs" / "cm-09", metric=pods)
    skipped = heldout.convert(tmp_path / "theirs", tmp_path / "ours")
    assert skipped == {"cm-09": "HPA cart-svc: a Pods metric (averageValue) is not modelled"}
    assert not (tmp_path / "ours" / "cm-09").exists()


def test_an_unknown_naive_wording_is_an_error_not_a_guess(heldout):
    with pytest.raises(ValueError, match="outside the known templates"):
        heldout.naive_changes(
            "scale everything to zero", {"history_average": 1.0, "incident_objects": {}}
        )
