"""Generate rules: objects from data, clone and cloneList, foreach, and their errors."""

from __future__ import annotations

import json
import subprocess

import pytest
import yaml

from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.generation import without_generate_labels
from ciso.engines.kyverno.reports import policy_reports

NAMESPACE = {
    "apiVersion": "v1",
    "kind": "Namespace",
    "metadata": {"name": "team-a", "labels": {"tier": "gold"}},
}
SECRET = {
    "apiVersion": "v1",
    "kind": "Secret",
    "metadata": {"name": "regcred", "namespace": "default", "uid": "1", "labels": {"copy": "yes"}},
    "data": {"k": "dg=="},
}
OTHER_SECRET = {
    "apiVersion": "v1",
    "kind": "Secret",
    "metadata": {"name": "private", "namespace": "default"},
    "data": {},
}


def _policy(generate: dict, **rule) -> dict:
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "gen"},
        "spec": {
            "rules": [
                {
                    "name": "r",
                    "match": {"any": [{"resources": {"kinds": ["Namespace"]}}]},
                    "generate": generate,
                    **rule,
                }
            ]
        },
    }


def _generated(policy: dict) -> list:
    ctx = Context(objects=[NAMESPACE, SECRET, OTHER_SECRET])
    (result,) = [r for r in apply([policy], [NAMESPACE], ctx)]
    return result.status, list(result.generated or ()), result.message


def test_data_with_variables():
    status, made, _ = _generated(
        _policy(
            {
                "apiVersion": "v1",
                "kind": "ResourceQuota",
                "name": "quota",
                "namespace": "{{ request.object.metadata.name }}",
                "data": {
                    "metadata": {"labels": {"tier": "{{ request.object.metadata.labels.tier }}"}},
                    "spec": {"hard": {"pods": "10"}},
                },
            }
        )
    )
    assert status == "pass"
    assert made == [
        {
            "metadata": {"labels": {"tier": "gold"}, "name": "quota", "namespace": "team-a"},
            "spec": {"hard": {"pods": "10"}},
            "apiVersion": "v1",
            "kind": "ResourceQuota",
        }
    ]


def test_clone_strips_server_fields():
    status, made, _ = _generated(
        _policy(
            {
                "apiVersion": "v1",
                "kind": "Secret",
                "name": "regcred",
                "namespace": "{{ request.object.metadata.name }}",
                "clone": {"namespace": "default", "name": "regcred"},
            }
        )
    )
    assert status == "pass"
    assert made == [
        {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": "regcred", "namespace": "team-a", "labels": {"copy": "yes"}},
            "data": {"k": "dg=="},
        }
    ]


def test_clone_list_by_selector():
    status, made, _ = _generated(
        _policy(
            {
                "namespace": "{{ request.object.metadata.name }}",
                "cloneList": {
                    "namespace": "default",
                    "kinds": ["v1/Secret"],
                    "selector": {"matchLabels": {"copy": "yes"}},
                },
            }
        )
    )
    assert status == "pass" and [g["metadata"]["name"] for g in made] == ["regcred"]


def test_foreach_generates_one_object_per_element():
    status, made, _ = _generated(
        _policy(
            {
                "foreach": [
                    {
                        "list": "['a', 'b']",
                        "apiVersion": "v1",
                        "kind": "ConfigMap",
                        "name": "cm-{{ element }}",
                        "namespace": "team-a",
                        "data": {"data": {"index": "{{ elementIndex }}"}},
                    }
                ]
            }
        )
    )
    assert status == "pass"
    assert [(g["metadata"]["name"], g["data"]["index"]) for g in made] == [("cm-a", 0), ("cm-b", 1)]


@pytest.mark.parametrize(
    ("generate", "message"),
    [
        (
            {"kind": "Secret", "name": "x", "clone": {"namespace": "default", "name": "missing"}},
            "source Secret default/missing not found",
        ),
        (
            {"kind": "Secret", "name": "x", "data": {}, "clone": {"name": "y"}},
            "only one of data, clone, cloneList",
        ),
        ({"kind": "Secret", "name": "x", "data": "text"}, "generate.data: must be a map"),
    ],
)
def test_generate_errors_name_the_path(generate, message):
    status, made, text = _generated(_policy(generate))
    assert status == "error" and made == [] and message in text


def test_a_generate_rule_with_no_data_nor_clone_creates_its_bare_target():
    # Kyverno admits such a rule and creates the target with nothing but its identity (its
    # data is a typed nil that marshals to an empty object); the Kyverno CLI tests rely on it
    status, made, _ = _generated(
        _policy(
            {
                "apiVersion": "foo/v1",
                "kind": "Foo",
                "name": "foo-{{ request.object.metadata.name }}",
                "namespace": "team-a",
            }
        )
    )
    assert status == "pass"
    assert made == [
        {
            "apiVersion": "foo/v1",
            "kind": "Foo",
            "metadata": {"name": "foo-team-a", "namespace": "team-a"},
        }
    ]


def test_preconditions_skip_and_background_reports_leave_generate_out():
    policy = _policy(
        {"apiVersion": "v1", "kind": "ConfigMap", "name": "x", "namespace": "team-a", "data": {}},
        preconditions={
            "all": [
                {
                    "key": "{{ request.object.metadata.name }}",
                    "operator": "Equals",
                    "value": "other",
                }
            ]
        },
    )
    status, made, _ = _generated(policy)
    assert status == "skip" and made == []
    assert policy_reports([policy], [NAMESPACE]) == []


def test_generate_labels_do_not_count_when_comparing():
    labelled = {"metadata": {"name": "x", "labels": {"generate.kyverno.io/policy-name": "p"}}}
    assert without_generate_labels(labelled) == without_generate_labels({"metadata": {"name": "x"}})


# -- reading resources as the Kyverno CLI does -----------------------------------------------------


@pytest.mark.parametrize(
    ("resource", "namespace"),
    [
        ({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}, "default"),
        ({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "x"}}, "x"),
        ({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "n"}}, None),
        (
            {
                "apiVersion": "scheduling.k8s.io/v1",
                "kind": "PriorityClass",
                "metadata": {"name": "c"},
            },
            None,
        ),
        # a custom resource the CLI does not know counts as namespaced
        (
            {
                "apiVersion": "cert-manager.io/v1",
                "kind": "ClusterIssuer",
                "metadata": {"name": "c"},
            },
            "default",
        ),
    ],
)
def test_namespace_defaults(resource, namespace):
    from ciso.engines.kyverno.scope import as_the_cli_reads_it

    assert as_the_cli_reads_it(resource)["metadata"].get("namespace") == namespace


def test_null_maps_become_empty_maps():
    from ciso.engines.kyverno.scope import as_the_cli_reads_it

    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p", "labels": None},
        "spec": {"nodeSelector": None, "x": None},
    }
    as_the_cli_reads_it(pod)
    assert pod["metadata"]["labels"] == {} and pod["spec"] == {"nodeSelector": {}, "x": None}


def test_kyverno_apply_prints_patched_and_generated_objects(tmp_path, itbench_bin):
    policy = {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "onboard"},
        "spec": {
            "rules": [
                {
                    "name": "quota",
                    "match": {"any": [{"resources": {"kinds": ["Namespace"]}}]},
                    "generate": {
                        "apiVersion": "v1",
                        "kind": "ResourceQuota",
                        "name": "q",
                        "namespace": "{{ request.object.metadata.name }}",
                        "data": {"spec": {"hard": {"pods": "10"}}},
                    },
                },
                {
                    "name": "label",
                    "match": {"any": [{"resources": {"kinds": ["Namespace"]}}]},
                    "mutate": {
                        "patchStrategicMerge": {"metadata": {"labels": {"+(team)": "core"}}}
                    },
                },
            ]
        },
    }
    (tmp_path / "policy.yaml").write_text(yaml.safe_dump(policy))
    (tmp_path / "ns.yaml").write_text(yaml.safe_dump(NAMESPACE))
    for fmt, load in (("json", json.loads), ("yaml", yaml.safe_load)):
        proc = subprocess.run(
            [
                itbench_bin,
                "kyverno",
                "apply",
                str(tmp_path / "policy.yaml"),
                "--resource",
                str(tmp_path / "ns.yaml"),
                "--format",
                fmt,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        results = {r["rule"]: r for r in load(proc.stdout)}
        assert results["label"]["patched"]["metadata"]["labels"] == {"tier": "gold", "team": "core"}
        assert results["quota"]["generated"][0]["metadata"] == {"name": "q", "namespace": "team-a"}
