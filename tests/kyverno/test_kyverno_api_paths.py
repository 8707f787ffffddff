"""``apiCall`` urlPaths answered from a Test's fake cluster (with ``clusterResources``, as the
Kyverno CLI allows): paths, lists, label selectors, errors; through ``kyverno test`` per
expectation."""

from __future__ import annotations

from pathlib import Path

import pytest

from ciso.engines.kyverno.api_paths import ApiPathError, answer
from tests.kyverno.kyverno_test_file import run_test


def _pod(name: str, namespace: str, **labels: str) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace, "labels": labels},
    }


CLASS = {
    "apiVersion": "cloud.google.com/v1",
    "kind": "ComputeClass",
    "metadata": {"name": "spot"},
    "spec": {"priorities": [{"spot": True}]},
}
OBJECTS = [
    _pod("a", "team", app="web"),
    _pod("b", "team", app="db"),
    _pod("c", "other", app="web"),
    {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team"}},
    CLASS,
]


@pytest.mark.parametrize(
    ("path", "names"),
    [
        ("/api/v1/namespaces/team/pods", ["a", "b"]),
        ("/api/v1/pods", ["a", "b", "c"]),
        ("/api/v1/pods?labelSelector=app=web", ["a", "c"]),
        ("/api/v1/namespaces/team/pods?labelSelector=app!=web", ["b"]),
        ("/api/v1/namespaces/team/pods?labelSelector=nope", []),
        ("/apis/cloud.google.com/v1/computeclasses", ["spot"]),
    ],
)
def test_lists(path, names):
    found = answer(path, OBJECTS)
    assert [i["metadata"]["name"] for i in found["items"]] == names
    assert set(found) == {"apiVersion", "kind", "metadata", "items"}


def test_single_objects_and_the_list_kind():
    assert answer("/apis/cloud.google.com/v1/computeclasses/spot", OBJECTS) is CLASS
    assert answer("/api/v1/namespaces/team", OBJECTS)["kind"] == "Namespace"
    assert answer("/api/v1/namespaces/team/pods", OBJECTS)["kind"] == "PodList"


@pytest.mark.parametrize(
    ("path", "problem"),
    [
        ("/api/v1/namespaces/team/pods/zzz", 'pods "team/zzz" not found'),
        ("/healthz", "is not an /api/v1 or /apis/GROUP/VERSION path"),
        ("/api/v1/namespaces/team/pods/a/log/x", "expected RESOURCE or RESOURCE/NAME"),
    ],
)
def test_errors(path, problem):
    with pytest.raises(ApiPathError, match=problem):
        answer(path, OBJECTS)


POLICY = {
    "apiVersion": "kyverno.io/v1",
    "kind": "ClusterPolicy",
    "metadata": {"name": "spot-only"},
    "spec": {
        "rules": [
            {
                "name": "spot",
                "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                "context": [
                    {
                        "name": "spot",
                        "apiCall": {
                            "urlPath": "/apis/cloud.google.com/v1/computeclasses/"
                            "{{ request.object.metadata.labels.class }}",
                            "jmesPath": "spec.priorities[0].spot",
                        },
                    }
                ],
                "validate": {
                    "message": "spot only",
                    "deny": {
                        "conditions": {
                            "all": [{"key": "{{ spot }}", "operator": "Equals", "value": False}]
                        }
                    },
                },
            }
        ]
    },
}


def _run(tmp_path: Path, with_cluster: bool) -> dict:
    pods = [_pod("on-spot", "team", **{"class": "spot"}), _pod("off", "team", **{"class": "std"})]
    standard = {**CLASS, "metadata": {"name": "std"}, "spec": {"priorities": [{"spot": False}]}}
    cluster = {"kind": "ClusterResource", "spec": {"resources": [CLASS, standard]}}
    fields = {
        "policies": ["policy.yaml"],
        "resources": ["resources.yaml"],
        "results": [
            {"policy": "spot-only", "rule": "spot", "kind": "Pod", "resources": [name], "result": r}
            for name, r in (("on-spot", "pass"), ("off", "fail"))
        ],
    } | ({"clusterResources": ["cluster.yaml"]} if with_cluster else {})
    files = {"policy.yaml": POLICY, "resources.yaml": pods, "cluster.yaml": cluster}
    outcome = run_test(tmp_path, fields, files)
    assert outcome.error is None
    return {e.resource: (e.actual, e.outcome, e.reason) for e in outcome.expectations}


def test_api_calls_read_the_cluster_resources(tmp_path: Path):
    got = _run(tmp_path, with_cluster=True)
    assert {k: v[:2] for k, v in got.items()} == {
        "on-spot": ("pass", "passed"),
        "off": ("fail", "passed"),
    }


def test_without_cluster_resources_an_api_call_is_unsupported_not_a_pass(tmp_path: Path):
    got = _run(tmp_path, with_cluster=False)
    assert all(actual == "error" and "unsupported" in reason for actual, _, reason in got.values())
