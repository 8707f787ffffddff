"""Simulated admission operations (UPDATE, DELETE), foreach details, variable context entries, and
rule errors that name the file, policy, rule and the JSON path inside the rule."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from ciso.engines.kyverno.engine import Context, apply


def _policy(rule: dict, action: str = "Audit", name: str = "p") -> dict:
    rule = {"name": "r", "match": {"any": [{"resources": {"kinds": ["Pod"]}}]}, **rule}
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": name},
        "spec": {"validationFailureAction": action, "rules": [rule]},
    }


def _pod(name: str = "pod", labels: dict | None = None, containers: list | None = None) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": labels or {}},
        "spec": {"containers": containers or [{"name": "c", "image": "nginx:1"}]},
    }


def _operation(op: str, name: str = "pod") -> Context:
    return Context(resource_values={("p", name): {"request.operation": op}})


def _statuses(policies, resources, ctx=None) -> dict:
    return {(r.rule, r.name): r.status for r in apply(policies, resources, ctx or Context())}


# -- operations ---------------------------------------------------------------------------------

UNCHANGED_LABELS = {
    "validate": {
        "message": "labels may not change",
        "deny": {
            "conditions": {
                "any": [
                    {
                        "key": "{{ request.object.metadata.labels }}",
                        "operator": "NotEquals",
                        "value": "{{ request.oldObject.metadata.labels }}",
                    }
                ]
            }
        },
    }
}


def test_update_sees_the_resource_as_its_own_old_object():
    results = _statuses(
        [_policy(UNCHANGED_LABELS)], [_pod(labels={"a": "1"})], _operation("UPDATE")
    )
    assert results == {("r", "pod"): "pass"}


def test_create_has_no_old_object():
    # on CREATE oldObject is null, so the labels differ from it and the deny holds
    results = _statuses([_policy(UNCHANGED_LABELS)], [_pod(labels={"a": "1"})])
    assert results == {("r", "pod"): "fail"}


OPERATION_DENY = {
    "validate": {
        "message": "protected",
        "deny": {
            "conditions": {
                "any": [
                    {
                        "key": "{{ request.operation }}",
                        "operator": "AnyIn",
                        "value": ["UPDATE", "DELETE"],
                    }
                ]
            }
        },
    }
}


@pytest.mark.parametrize(
    ("operation", "action", "expected"),
    [
        ("CREATE", "Enforce", "pass"),
        # the old-object check runs as a CREATE, which passes: the UPDATE's failure stands
        ("UPDATE", "Enforce", "fail"),
        ("UPDATE", "Audit", "fail"),
        ("DELETE", "Audit", "fail"),
    ],
)
def test_operation_comes_from_the_values(operation, action, expected):
    results = _statuses([_policy(OPERATION_DENY, action)], [_pod()], _operation(operation))
    assert results == {("r", "pod"): expected}


NEEDS_TEAM = {
    "validate": {"message": "team label", "pattern": {"metadata": {"labels": {"team": "?*"}}}}
}


@pytest.mark.parametrize(
    ("action", "allow", "expected"),
    [
        # Enforce on UPDATE: the old object (the same pod) already violated, so it is let through
        ("Enforce", None, "skip"),
        ("Enforce", False, "fail"),
        ("Audit", None, "fail"),
    ],
)
def test_enforce_update_allows_pre_existing_violations(action, allow, expected):
    rule = json.loads(json.dumps(NEEDS_TEAM))
    rule["validate"]["message"] = "{{ request.object.metadata.name }} needs a team"
    if allow is not None:
        rule["validate"]["allowExistingViolations"] = allow
    results = _statuses([_policy(rule, action)], [_pod()], _operation("UPDATE"))
    assert results == {("r", "pod"): expected}


def test_delete_gives_no_pattern_result_and_deny_reads_the_old_object():
    named = {
        "validate": {
            "message": "m",
            "deny": {
                "conditions": {
                    "all": [
                        {
                            "key": "{{ request.oldObject.metadata.name }}",
                            "operator": "Equals",
                            "value": "pod",
                        }
                    ]
                }
            },
        }
    }
    pattern = json.loads(json.dumps(NEEDS_TEAM))
    pattern["validate"]["message"] = "{{ request.object.metadata.name }}"
    policies = [_policy(named, name="p"), _policy(pattern, name="p2")]
    ctx = Context(
        resource_values={
            ("p", "pod"): {"request.operation": "DELETE"},
            ("p2", "pod"): {"request.operation": "DELETE"},
        }
    )
    results = [(r.policy, r.status) for r in apply(policies, [_pod()], ctx)]
    assert results == [("p", "fail")]


def test_match_operations_follow_the_simulated_operation():
    rule = dict(NEEDS_TEAM)
    policy = _policy(rule)
    policy["spec"]["rules"][0]["match"]["any"][0]["resources"]["operations"] = ["UPDATE"]
    assert _statuses([policy], [_pod()]) == {}
    assert _statuses([policy], [_pod()], _operation("UPDATE")) == {("r", "pod"): "fail"}


# -- foreach --------------------------------------------------------------------------------------


def _foreach(entry: dict) -> dict:
    return {"validate": {"message": "m", "foreach": [entry]}}


LATEST = {
    "list": "request.object.spec.containers",
    "deny": {
        "conditions": {
            "any": [{"key": "{{ element.image }}", "operator": "Equals", "value": "*:latest"}]
        }
    },
}


def test_foreach_without_elements_gives_no_result():
    policy = _policy(_foreach({**LATEST, "list": "request.object.spec.initContainers"}))
    assert _statuses([policy], [_pod()]) == {}


def test_foreach_skips_null_elements_and_counts_the_rest():
    entry = {**LATEST, "list": "[request.object.spec.nothing, request.object.spec.containers[0]]"}
    good = _pod(containers=[{"name": "a", "image": "x:1"}])
    bad = _pod("bad", containers=[{"name": "a", "image": "x:latest"}])
    assert _statuses([_policy(_foreach(entry))], [good, bad]) == {
        ("r", "pod"): "pass",
        ("r", "bad"): "fail",
    }


def test_nested_foreach_sees_element0_and_its_own_element():
    inner = {
        "list": "element.ports",
        "deny": {
            "conditions": {
                "all": [
                    {"key": "{{ element0.name }}", "operator": "Equals", "value": "web"},
                    {"key": "{{ element.containerPort }}", "operator": "LessThan", "value": 1024},
                    {"key": "{{ elementIndex0 }}", "operator": "Equals", "value": 0},
                ]
            }
        },
    }
    policy = _policy(_foreach({"list": "request.object.spec.containers", "foreach": [inner]}))
    low = _pod("low", containers=[{"name": "web", "image": "x", "ports": [{"containerPort": 80}]}])
    high = _pod(
        "high", containers=[{"name": "web", "image": "x", "ports": [{"containerPort": 8080}]}]
    )
    other = _pod(
        "other", containers=[{"name": "db", "image": "x", "ports": [{"containerPort": 5}]}]
    )
    assert _statuses([policy], [low, high, other]) == {
        ("r", "low"): "fail",
        ("r", "high"): "pass",
        ("r", "other"): "pass",
    }


def test_foreach_context_entries_are_loaded_per_element():
    entry = {
        "list": "request.object.spec.containers",
        "context": [{"name": "tag", "variable": {"jmesPath": "split(element.image, ':')[1]"}}],
        "deny": {
            "conditions": {"any": [{"key": "{{ tag }}", "operator": "Equals", "value": "latest"}]}
        },
    }
    pods = [
        _pod("ok", containers=[{"name": "a", "image": "x:1"}]),
        _pod("bad", containers=[{"name": "a", "image": "x:1"}, {"name": "b", "image": "y:latest"}]),
    ]
    assert _statuses([_policy(_foreach(entry))], pods) == {
        ("r", "ok"): "pass",
        ("r", "bad"): "fail",
    }


def test_element_scope_pattern_checks_the_element():
    entry = {
        "list": "request.object.spec.containers",
        "pattern": {"image": "!*:latest"},
    }
    unscoped = {
        **entry,
        "elementScope": False,
        "pattern": {"spec": {"containers": [{"name": "a"}]}},
    }
    pods = [_pod("ok"), _pod("bad", containers=[{"name": "a", "image": "x:latest"}])]
    assert _statuses([_policy(_foreach(entry))], pods) == {
        ("r", "ok"): "pass",
        ("r", "bad"): "fail",
    }
    # not scoped: the pattern is checked against the whole resource, once per element
    assert _statuses([_policy(_foreach(unscoped))], pods) == {
        ("r", "ok"): "fail",
        ("r", "bad"): "pass",
    }


# -- variable context entries --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variable", "expected"),
    [
        ({"value": "{{ request.object.metadata.name }}"}, "pod"),
        ({"value": {"a": "b"}, "jmesPath": "a"}, "b"),
        ({"jmesPath": "request.object.metadata.labels.team", "default": "none"}, "none"),
        ({"value": {"a": 1}, "jmesPath": "divide(a, `0`)", "default": "fallback"}, "fallback"),
    ],
)
def test_variable_entries(variable, expected):
    rule = {
        "context": [{"name": "v", "variable": variable}],
        "validate": {
            "message": "m",
            "deny": {
                "conditions": {"any": [{"key": "{{ v }}", "operator": "Equals", "value": expected}]}
            },
        },
    }
    assert _statuses([_policy(rule)], [_pod()]) == {("r", "pod"): "fail"}


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        # an absent key is go-jmespath's "not found"; a present null is "evaluated to null"
        ("request.object.metadata.labels.team", 'Unknown key "team" in path'),
        ("request.oldObject", "'team' evaluated to null and has no default"),
    ],
)
def test_variable_entry_that_finds_nothing_is_an_error_naming_it(path, expected):
    rule = {
        "context": [{"name": "team", "variable": {"jmesPath": path}}],
        "validate": {"message": "m", "deny": {"conditions": {"any": []}}},
    }
    (result,) = apply([_policy(rule)], [_pod()], Context())
    assert result.status == "error"
    assert "context[0].variable" in result.message and expected in result.message


# -- errors name file, policy, rule and path -----------------------------------------------------

BAD_POLICIES = {
    "anchor.yaml": (
        {"validate": {"message": "m", "pattern": {"spec": {"containers": [{"Q(image)": "x"}]}}}},
        "rule error at validate.pattern: unknown anchor 'Q'",
    ),
    "jmespath.yaml": (
        {
            "validate": {
                "message": "m",
                "deny": {
                    "conditions": {
                        "all": [
                            {"key": "a", "operator": "Equals", "value": "a"},
                            {"key": "{{ request.object.[[ }}", "operator": "Equals", "value": 1},
                        ]
                    }
                },
            }
        },
        "rule error at validate.deny.conditions.all[1].key: invalid JMESPath",
    ),
    "neither.yaml": (
        {"validate": {"message": "m"}},
        "rule error at validate: a validate block needs pattern, anyPattern, deny or foreach",
    ),
    "operator.yaml": (
        {
            "validate": {
                "message": "m",
                "deny": {"conditions": {"any": [{"key": 1, "operator": "Sideways", "value": 1}]}},
            }
        },
        "rule error at validate.deny.conditions.any[0].operator: unknown condition operator",
    ),
    "foreach.yaml": (
        _foreach({"list": "request.object.spec.containers", "pattern": {"Q(image)": "?*"}}),
        "at validate.foreach[0].pattern",
    ),
    "precondition.yaml": (
        {
            "preconditions": {
                "any": [{"key": "{{ request.object.[[ }}", "operator": "Equals", "value": 1}]
            },
            "validate": {"message": "m", "pattern": {"spec": {}}},
        },
        "rule error at preconditions.any[0].key",
    ),
}


@pytest.mark.parametrize("file_name", sorted(BAD_POLICIES))
def test_rule_errors_name_file_policy_rule_and_path(tmp_path: Path, itbench_bin: str, file_name):
    rule, expected = BAD_POLICIES[file_name]
    policy_file = tmp_path / file_name
    policy_file.write_text(yaml.safe_dump(_policy(rule, name="bad")))
    pod_file = tmp_path / "pod.yaml"
    pod_file.write_text(yaml.safe_dump(_pod()))
    proc = subprocess.run(
        [
            itbench_bin,
            "kyverno",
            "apply",
            str(policy_file),
            "--resource",
            str(pod_file),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    (result,) = json.loads(proc.stdout)
    assert result["status"] == "error"
    located = f"{policy_file}: policy bad, rule r"
    assert result["message"].startswith(f"{located}: ") or result["message"].endswith(
        f"({located})"
    ), result["message"]
    assert expected in result["message"], result["message"]
    assert "Traceback" not in proc.stderr and "\n" not in result["message"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("apiVersion: v1\nkind: Pod\nmetadata: {name: p\n", "not valid YAML"),
        ("apiVersion: v1\nmetadata: {name: p}\n", "document 0: field 'kind' is missing"),
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: d}\nspec: "
            + "[" * 3000
            + "]" * 3000
            + "\n",
            "nested more than",
        ),
        # deep enough to overflow libyaml's C stack if it were parsed: refused before parsing
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: d}\nspec: "
            + "[" * 200_000
            + "]" * 200_000,
            "nested more than 512",
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: d}\nspec:\n"
            + "".join(" " * i + "- \n" for i in range(1, 1200)),
            "nested more than",
        ),
    ],
)
def test_bad_resources_are_tool_errors_naming_the_file(
    tmp_path: Path, itbench_bin: str, text, expected
):
    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text(yaml.safe_dump(_policy(NEEDS_TEAM)))
    resource = tmp_path / "resource.yaml"
    resource.write_text(text)
    proc = subprocess.run(
        [itbench_bin, "kyverno", "apply", str(policy_file), "--resource", str(resource)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 3
    assert proc.stdout == ""
    assert (
        f"{resource}" in proc.stderr and expected in proc.stderr and "Traceback" not in proc.stderr
    )


def test_kyverno_test_refuses_deep_files_per_test_file(tmp_path: Path, itbench_bin: str):
    (tmp_path / "policy.yaml").write_text(yaml.safe_dump(_policy(NEEDS_TEAM)))
    (tmp_path / "resource.yaml").write_text(
        "kind: Pod\nspec: " + "{a: " * 100_000 + "1" + "}" * 100_000
    )
    test = {
        "apiVersion": "cli.kyverno.io/v1alpha1",
        "kind": "Test",
        "policies": ["policy.yaml"],
        "resources": ["resource.yaml"],
        "results": [
            {"policy": "p", "rule": "r", "kind": "Pod", "resources": ["pod"], "result": "pass"}
        ],
    }
    (tmp_path / "kyverno-test.yaml").write_text(yaml.safe_dump(test))
    proc = subprocess.run(
        [itbench_bin, "kyverno", "test", str(tmp_path), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert report["summary"]["errors"] == 1
    assert "resource.yaml: not valid YAML (nested more than 512 levels deep" in proc.stdout


@pytest.mark.parametrize(
    ("apply_rules", "expected"), [(None, ["a", "b", "c"]), ("One", ["a", "b"])]
)
def test_apply_rules_one_stops_at_the_first_applied_rule(apply_rules, expected):
    def rule(name: str, labels: dict) -> dict:
        return {
            "name": name,
            "match": {
                "any": [{"resources": {"kinds": ["Pod"], "selector": {"matchLabels": labels}}}]
            },
            "validate": {"message": "m", "pattern": {"metadata": {"name": "?*"}}},
        }

    policy = _policy(NEEDS_TEAM)
    # "a" does not match (no result), "b" applies, "c" would apply too
    policy["spec"]["rules"] = [rule("a", {"x": "y"}), rule("b", {}), rule("c", {})]
    policy["spec"]["rules"][0]["match"]["any"][0]["resources"]["selector"] = {
        "matchLabels": {"x": "y"}
    }
    if apply_rules:
        policy["spec"]["applyRules"] = apply_rules
    names = [r.rule for r in apply([policy], [_pod()], Context())]
    assert names == [n for n in expected if n != "a"]
