"""Mutate rules: overlay anchors, strategic merge, JSON patches, foreach, and how the engine and
the test runner use them (validation sees the patched resource; patched resources compare as
the Kyverno CLI compares them)."""

from __future__ import annotations

from typing import Any

import pytest

from ciso.engines.kyverno.autogen import autogen_rules
from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.mutation import mutate
from ciso.engines.kyverno.mutation.anchors import resolve
from ciso.engines.kyverno.mutation.compare import same_resource
from ciso.engines.kyverno.mutation.json_patch import PatchError, apply_patch
from ciso.engines.kyverno.mutation.strategic_merge import merge


def _pod(*containers: dict, **spec) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "pod", "namespace": "default"},
        "spec": {"containers": list(containers) or [{"name": "c", "image": "nginx"}], **spec},
    }


# -- anchors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overlay", "resource", "expected"),
    [
        # add-if-not-present: added where absent, dropped where present
        (
            {"metadata": {"labels": {"+(team)": "core"}}},
            {"metadata": {"labels": {}}},
            {"metadata": {"labels": {"team": "core"}}},
        ),
        (
            {"metadata": {"labels": {"+(team)": "core"}}},
            {"metadata": {"labels": {"team": "x"}}},
            {},
        ),
        # a condition in a map gates the whole overlay
        (
            {"metadata": {"(name)": "web-*", "labels": {"tier": "web"}}},
            {"metadata": {"name": "web-1"}},
            {"metadata": {"labels": {"tier": "web"}}},
        ),
        (
            {"metadata": {"(name)": "web-*", "labels": {"tier": "web"}}},
            {"metadata": {"name": "db"}},
            {},
        ),
        # a condition in a list applies per matching element, named after it
        (
            {"spec": {"containers": [{"(image)": "*:latest", "imagePullPolicy": "Always"}]}},
            {
                "spec": {
                    "containers": [
                        {"name": "a", "image": "x:latest"},
                        {"name": "b", "image": "x:1"},
                        {"name": "c", "image": "y:latest"},
                    ]
                }
            },
            {
                "spec": {
                    "containers": [
                        {"imagePullPolicy": "Always", "name": "a"},
                        {"imagePullPolicy": "Always", "name": "c"},
                    ]
                }
            },
        ),
        # a global condition that no element passes drops the overlay
        (
            {"spec": {"containers": [{"<(image)": "corp/*"}], "imagePullSecrets": [{"name": "s"}]}},
            {"spec": {"containers": [{"name": "a", "image": "docker/x"}]}},
            {},
        ),
        (
            {"spec": {"containers": [{"<(image)": "corp/*"}], "imagePullSecrets": [{"name": "s"}]}},
            {"spec": {"containers": [{"name": "a", "image": "corp/x"}]}},
            {"spec": {"imagePullSecrets": [{"name": "s"}]}},
        ),
    ],
)
def test_overlay_anchors(overlay, resource, expected):
    assert resolve(overlay, resource) == expected


# -- strategic merge -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("resource", "overlay", "expected"),
    [
        ({"a": {"b": 1, "c": 2}}, {"a": {"c": None, "d": 3}}, {"a": {"b": 1, "d": 3}}),
        ({"a": {"b": 1}}, {"a": {"$patch": "replace", "z": 1}}, {"a": {"z": 1}}),
        ({"a": {"b": 1}, "k": 1}, {"a": {"$patch": "delete"}}, {"k": 1}),
        # containers merge by name; new ones come first
        (
            {"containers": [{"name": "a", "image": "x"}]},
            {"containers": [{"name": "b", "image": "y"}, {"name": "a", "image": "z"}]},
            {"containers": [{"name": "b", "image": "y"}, {"name": "a", "image": "z"}]},
        ),
        (
            {"containers": [{"name": "a"}, {"name": "b"}]},
            {"containers": [{"name": "a", "$patch": "delete"}]},
            {"containers": [{"name": "b"}]},
        ),
        (
            {"volumeMounts": [{"name": "v", "mountPath": "/a", "readOnly": False}]},
            {"volumeMounts": [{"name": "w", "mountPath": "/a", "readOnly": True}]},
            {"volumeMounts": [{"name": "w", "mountPath": "/a", "readOnly": True}]},
        ),
        (
            {"ports": [{"name": "http", "port": 80, "targetPort": 8080}]},
            {"ports": [{"name": "web", "port": 80}]},
            {"ports": [{"name": "web", "port": 80, "targetPort": 8080}]},
        ),
        # tolerations have no merge key: replaced whole
        (
            {"tolerations": [{"key": "a", "operator": "Exists"}]},
            {"tolerations": [{"key": "b", "operator": "Exists"}]},
            {"tolerations": [{"key": "b", "operator": "Exists"}]},
        ),
        ({"args": ["-a"]}, {"args": ["-b"]}, {"args": ["-b"]}),
        ({"finalizers": ["a"]}, {"finalizers": ["b", "a"]}, {"finalizers": ["b", "a"]}),
        ({}, {"new": {"x": None, "y": 1}}, {"new": {"y": 1}}),
    ],
)
def test_strategic_merge(resource, overlay, expected):
    assert merge(resource, overlay) == expected


# -- JSON patch ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("operations", "expected"),
    [
        (
            [{"op": "add", "path": "/spec/tolerations/-", "value": 1}],
            {"spec": {"tolerations": [1]}, "a": [1, 2]},
        ),
        ([{"op": "add", "path": "/a/-1", "value": 3}], {"spec": {}, "a": [1, 2, 3]}),
        ([{"op": "add", "path": "/a/0", "value": 0}], {"spec": {}, "a": [0, 1, 2]}),
        ([{"op": "remove", "path": "/a/-1"}], {"spec": {}, "a": [1]}),
        ([{"op": "remove", "path": "/missing/x"}], {"spec": {}, "a": [1, 2]}),
        ([{"op": "replace", "path": "/a/1", "value": 9}], {"spec": {}, "a": [1, 9]}),
        ([{"op": "copy", "from": "/a", "path": "/b"}], {"spec": {}, "a": [1, 2], "b": [1, 2]}),
        ([{"op": "move", "from": "/a", "path": "/spec/a"}], {"spec": {"a": [1, 2]}}),
        ([{"op": "test", "path": "/a/0", "value": 1}], {"spec": {}, "a": [1, 2]}),
        ([{"op": "add", "path": "/x~1y", "value": 1}], {"spec": {}, "a": [1, 2], "x/y": 1}),
        (
            [{"op": "add", "path": "/n/terms/-1/exprs/-1", "value": "v"}],
            {"spec": {}, "a": [1, 2], "n": {"terms": [{"exprs": ["v"]}]}},
        ),
    ],
)
def test_json_patch(operations, expected):
    assert apply_patch({"spec": {}, "a": [1, 2]}, operations) == expected


@pytest.mark.parametrize(
    ("operations", "message"),
    [
        ([{"op": "replace", "path": "/missing", "value": 1}], "does not exist"),
        ([{"op": "test", "path": "/a/0", "value": 5}], "test failed"),
        ([{"op": "add", "path": "/a/7", "value": 5}], "out of bounds"),
        ([{"op": "jump", "path": "/a"}], "unknown operation"),
        ([{"path": "/a"}], "needs 'op' and 'path'"),
        ({"op": "add"}, "must be a list"),
    ],
)
def test_json_patch_errors(operations, message):
    with pytest.raises(PatchError, match=message):
        apply_patch({"a": [1, 2]}, operations)


# -- rules ---------------------------------------------------------------------------------------


def _context(resource: dict) -> dict:
    return {"request": {"object": resource, "operation": "CREATE"}}


def _no_context(entries, data):  # foreach entries in these fixtures have no context
    raise AssertionError("unexpected context entries")


def test_foreach_patches_each_element_and_skips_when_nothing_changes():
    rule = {
        "name": "r",
        "mutate": {
            "foreach": [
                {
                    "list": "request.object.spec.containers",
                    "preconditions": {
                        "all": [
                            {
                                "key": "{{ element.image }}",
                                "operator": "Equals",
                                "value": "*:latest",
                            }
                        ]
                    },
                    "patchesJson6902": (
                        "- op: add\n  path: /spec/containers/{{ elementIndex }}/imagePullPolicy\n"
                        "  value: Always"
                    ),
                }
            ]
        },
    }
    pod = _pod({"name": "a", "image": "x:latest"}, {"name": "b", "image": "x:1"})
    outcome = mutate(rule, pod, _context(pod), _no_context)
    assert outcome.status == "pass"
    assert [c.get("imagePullPolicy") for c in outcome.patched["spec"]["containers"]] == [
        "Always",
        None,
    ]
    assert pod["spec"]["containers"][0].get("imagePullPolicy") is None  # input untouched
    pinned = _pod({"name": "b", "image": "x:1"})
    assert mutate(rule, pinned, _context(pinned), _no_context).status == "skip"


def test_foreach_strategic_merge_walks_backwards_unless_ordered():
    seen = []

    def entry(order=None):
        body = {
            "list": "request.object.spec.containers",
            "patchStrategicMerge": {"metadata": {"annotations": {"last": "{{ element.name }}"}}},
        }
        return {**body, "order": order} if order else body

    pod = _pod({"name": "a", "image": "x"}, {"name": "b", "image": "y"})
    for order in (None, "Ascending"):
        rule = {"name": "r", "mutate": {"foreach": [entry(order)]}}
        seen.append(
            mutate(rule, pod, _context(pod), _no_context).patched["metadata"]["annotations"]
        )
    assert seen == [{"last": "a"}, {"last": "b"}]


def _pod_policy(name: str, *rules: dict[str, Any]) -> dict[str, Any]:
    """A ClusterPolicy ``name`` whose ``rules`` (a name and what the rule does) match Pods."""
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": name},
        "spec": {
            "rules": [
                {
                    "name": rule["name"],
                    "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    **{key: value for key, value in rule.items() if key != "name"},
                }
                for rule in rules
            ]
        },
    }


def test_bad_patches_are_rule_errors_with_a_path():
    policy = _pod_policy(
        "p",
        {
            "name": "r",
            "mutate": {"patchesJson6902": "- op: replace\n  path: /spec/nothing\n  value: 1"},
        },
    )
    (result,) = apply([policy], [_pod()], Context())
    assert result.status == "error" and result.rule_type == "Mutation"
    assert (
        "rule error at mutate.patchesJson6902: operation 0 (replace /spec/nothing)"
        in result.message
    )


def test_validation_sees_the_mutated_resource():
    policy = _pod_policy(
        "p",
        {
            "name": "check",
            "validate": {"message": "m", "pattern": {"metadata": {"labels": {"team": "?*"}}}},
        },
        {
            "name": "label",
            "mutate": {"patchStrategicMerge": {"metadata": {"labels": {"+(team)": "core"}}}},
        },
    )
    results = {r.rule: r for r in apply([policy], [_pod()], Context())}
    assert results["label"].status == "pass" and results["check"].status == "pass"
    assert results["label"].patched["metadata"]["labels"] == {"team": "core"}
    assert [r.rule for r in apply([policy], [_pod()], Context())][:2] == ["label", "check"]


def _one_rule_policy(name: str, rule: dict) -> dict:
    return _pod_policy(name, {"name": name, **rule})


def test_every_policys_mutations_come_before_any_validation_and_chain():
    # as the Kyverno CLI runs several policies on a resource: all mutate rules first, in policy
    # order, each policy on the resource as the ones before patched it; then the validations
    check = _one_rule_policy(
        "check",
        {
            "validate": {
                "message": "m",
                "pattern": {"metadata": {"labels": {"team": "?*", "tier": "?*"}}},
            }
        },
    )
    team = _one_rule_policy(
        "team", {"mutate": {"patchStrategicMerge": {"metadata": {"labels": {"team": "core"}}}}}
    )
    tier = _one_rule_policy(
        "tier", {"mutate": {"patchStrategicMerge": {"metadata": {"labels": {"tier": "web"}}}}}
    )
    results = {r.policy: r for r in apply([check, team, tier], [_pod()], Context())}
    assert results["check"].status == "pass"  # it sees both labels, though it comes first
    assert results["team"].patched["metadata"]["labels"] == {"team": "core"}
    # the second mutating policy's patched resource carries the first one's change
    assert results["tier"].patched["metadata"]["labels"] == {"team": "core", "tier": "web"}
    alone = {r.policy: r.status for r in apply([check], [_pod()], Context())}
    assert alone == {"check": "fail"}


def test_json_patch_rules_switch_autogen_off_for_the_whole_policy():
    policy = {
        "kind": "ClusterPolicy",
        "metadata": {"name": "p"},
        "spec": {
            "rules": [
                {
                    "name": "merge",
                    "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    "mutate": {"patchStrategicMerge": {"metadata": {"labels": {"a": "b"}}}},
                },
                {
                    "name": "patch",
                    "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    "mutate": {
                        "patchesJson6902": "- op: add\n  path: /metadata/labels/x\n  value: y"
                    },
                },
            ]
        },
    }
    assert autogen_rules(policy) == []
    del policy["spec"]["rules"][1]
    merged = {r["name"]: r for r in autogen_rules(policy)}
    assert merged["autogen-merge"]["mutate"]["patchStrategicMerge"] == {
        "spec": {"template": {"metadata": {"labels": {"a": "b"}}}}
    }


# -- comparing patched resources -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "actual", "same"),
    [
        ({"a": {"b": 1}}, {"a": {"b": 1.0, "c": None, "d": {}, "e": []}}, True),
        ({"metadata": {"name": "x"}}, {"metadata": {"name": "x", "namespace": "default"}}, True),
        ({"metadata": {"name": "x", "namespace": "a"}}, {"metadata": {"name": "x"}}, False),
        ({"l": [1, 2]}, {"l": [2, 1]}, False),
    ],
)
def test_patched_resources_compare_like_the_cli(expected, actual, same):
    assert same_resource(expected, actual) is same


def _rule(name: str, kinds: list[str], **extra) -> dict:
    return {
        "name": name,
        "match": {"any": [{"resources": {"kinds": kinds, **extra}}]},
        "validate": {"message": "m", "pattern": {"spec": {"x": "?*"}}},
    }


@pytest.mark.parametrize(
    ("rules", "generated"),
    [
        ([_rule("a", ["Pod"])], ["autogen-a", "autogen-cronjob-a"]),
        # a rule on Deployments alone does not stop the Pod rule's controller rules
        ([_rule("a", ["Pod"]), _rule("b", ["Deployment"])], ["autogen-a", "autogen-cronjob-a"]),
        # any rule selecting by name, or mixing Pod with other kinds, stops them for the policy
        ([_rule("a", ["Pod"]), _rule("b", ["Service"], names=["web"])], []),
        ([_rule("a", ["Pod"]), _rule("b", ["Pod", "Service"])], []),
        ([_rule("b", ["Service"])], []),
    ],
)
def test_autogen_is_decided_for_the_whole_policy(rules, generated):
    policy = {"kind": "ClusterPolicy", "metadata": {"name": "p"}, "spec": {"rules": rules}}
    assert [r["name"] for r in autogen_rules(policy)] == generated


def test_a_rule_with_targets_never_patches_its_trigger():
    policy = _pod_policy(
        "p",
        {
            "name": "r",
            "mutate": {
                "targets": [{"apiVersion": "v1", "kind": "Secret", "name": "s"}],
                "patchStrategicMerge": {"metadata": {"labels": {"a": "b"}}},
            },
        },
    )
    # no such target: no response (the trigger is never patched in its place)
    assert apply([policy], [_pod()], Context()) == []
    secret = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "s", "namespace": "default"},
    }
    (result,) = apply([policy], [_pod()], Context(targets=[secret]))
    assert (result.kind, result.name, result.status) == ("Secret", "s", "pass")
    assert result.patched["metadata"]["labels"] == {"a": "b"}
