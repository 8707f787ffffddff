"""Pass/fail fixtures for each semantics item of the engine."""

from __future__ import annotations

import pytest

from ciso.engines.kyverno import conditions
from ciso.engines.kyverno.autogen import autogen_rules
from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.matching import Facts, kind_matches, rule_applies
from ciso.engines.kyverno.pattern.check import Mismatch, validate
from ciso.engines.kyverno.pattern.values import value_matches
from ciso.engines.kyverno.reports import policy_reports
from ciso.engines.kyverno.variables import VariableError, substitute


def _status(resource, pattern) -> str:
    try:
        validate(resource, pattern)
    except Mismatch as exc:
        return "skip" if exc.skip else ("negation" if exc.kind == "negation" else "fail")
    return "pass"


@pytest.mark.parametrize(
    ("resource", "pattern", "expected"),
    [
        ({"spec": {"hostNetwork": True}}, {"spec": {"=(hostNetwork)": "false"}}, "fail"),
        ({"spec": {}}, {"spec": {"=(hostNetwork)": "false"}}, "pass"),
        ({"spec": {"hostNetwork": False}}, {"spec": {"=(hostNetwork)": "false"}}, "pass"),
        ({"spec": {"a": 1}}, {"spec": {"(a)": 2, "b": 1}}, "skip"),
        ({"spec": {"a": 2, "b": 1}}, {"spec": {"(a)": 2, "b": 1}}, "pass"),
        ({"spec": {"a": 2, "b": 3}}, {"spec": {"(a)": 2, "b": 1}}, "fail"),
        ({"spec": {"secret": "x"}}, {"spec": {"X(secret)": "null"}}, "negation"),
        ({"spec": {}}, {"spec": {"X(secret)": "null"}}, "pass"),
        ({"c": [{"n": "a"}, {"n": "b"}]}, {"^(c)": [{"n": "b"}]}, "pass"),
        ({"c": [{"n": "a"}]}, {"^(c)": [{"n": "b"}]}, "fail"),
        ({"kind": "Pod", "spec": {"x": 1}}, {"<(kind)": "Deployment", "spec": {"x": 2}}, "skip"),
        (
            {
                "spec": {
                    "containers": [
                        {"name": "a", "image": "x:latest"},
                        {"name": "b", "image": "x:1"},
                    ]
                }
            },
            {"spec": {"containers": [{"image": "!*:latest"}]}},
            "fail",
        ),
        (
            {
                "spec": {
                    "containers": [
                        {"name": "a"},
                        {"name": "b", "securityContext": {"privileged": True}},
                    ]
                }
            },
            {
                "spec": {
                    "containers": [{"(name)": "a", "=(securityContext)": {"=(privileged)": False}}]
                }
            },
            "pass",
        ),
        ({"metadata": {"labels": {"app": "web"}}}, {"metadata": {"labels": {"app": "?*"}}}, "pass"),
        ({"metadata": {"labels": {"app": ""}}}, {"metadata": {"labels": {"app": "?*"}}}, "fail"),
        ({"metadata": {}}, {"metadata": {"labels": "*"}}, "fail"),
        (
            {
                "metadata": {
                    "annotations": {
                        "container.apparmor.security.beta.kubernetes.io/c": "unconfined"
                    }
                }
            },
            {
                "metadata": {
                    "=(annotations)": {
                        "=(container.apparmor.security.beta.kubernetes.io/*)": "runtime/default | localhost/*"
                    }
                }
            },
            "fail",
        ),
    ],
    ids=[
        "equality-fail",
        "equality-absent",
        "equality-pass",
        "conditional-skip",
        "conditional-pass",
        "conditional-then-fail",
        "negation-fail",
        "negation-pass",
        "existence-pass",
        "existence-fail",
        "global-skip",
        "array-wildcard-fail",
        "array-conditional",
        "non-empty-pass",
        "non-empty-fail",
        "star-requires-key",
        "wildcard-key",
    ],
)
def test_anchors_and_patterns(resource, pattern, expected):
    assert _status(resource, pattern) == expected


@pytest.mark.parametrize(
    ("value", "pattern", "ok"),
    [
        (5, ">4", True),
        (5, "<=4", False),
        ("200Mi", "<1Gi", True),
        ("2Gi", "<1Gi", False),
        ("90s", ">1m", True),
        (5, "1-10", True),
        (11, "1-10", False),
        (11, "1!-10", True),
        ("nginx", "ngi*", True),
        ("nginx", "!ngi*", False),
        ("a", "a | b", True),
        ("c", "a | b", False),
        (7, ">5 & <10", True),
        (12, ">5 & <10", False),
        (True, "true", True),
        (False, True, False),
        (None, None, True),
        ("x", None, False),
        (3, 3.0, True),
        ("pod?", "pod?", True),
    ],
)
def test_value_operators(value, pattern, ok):
    assert value_matches(value, pattern) is ok


@pytest.mark.parametrize(
    ("operator", "key", "value", "ok"),
    [
        ("Equals", "a", "a", True),
        ("Equal", "abc", "a*", True),
        ("NotEquals", 1, 2, True),
        ("In", "b", ["a", "b"], True),
        ("NotIn", "c", ["a", "b"], True),
        ("AnyIn", ["x", "b"], ["a", "b"], True),
        ("AllIn", ["x", "b"], ["a", "b"], False),
        ("AnyNotIn", ["a", "x"], ["a"], True),
        ("AllNotIn", ["x", "y"], ["a"], True),
        ("AnyNotIn", [5555], "5000-6000", False),
        ("GreaterThan", "2Gi", "1Gi", True),
        ("LessThanOrEquals", 3, 3, True),
        ("GreaterThanOrEquals", 2, 3, False),
        ("LessThan", "1m", "90s", True),
        ("DurationGreaterThan", "2h", "90m", True),
    ],
)
def test_condition_operators(operator, key, value, ok):
    assert conditions.check(operator, key, value) is ok


def test_condition_edge_cases_found_in_the_library():
    # a JSON list given as a string (values files), and a wildcard key covering the values
    assert (
        conditions.check("AnyIn", ["www.kyverno.com"], '["www.github.com", "www.kyverno.com"]')
        is True
    )
    assert conditions.check("AnyIn", ["*"], ["rbac.authorization.k8s.io"]) is True
    assert conditions.check("AnyIn", ["apps"], ["rbac.authorization.k8s.io"]) is False
    # a value that is not a number never compares true (and is no error)
    assert conditions.check("GreaterThan", "", 0) is False


def test_config_map_context_comes_from_the_tests_resources():
    policy = {
        "kind": "ClusterPolicy",
        "metadata": {"name": "prio"},
        "spec": {
            "rules": [
                {
                    "name": "allowed",
                    "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    "context": [
                        {"name": "cm", "configMap": {"name": "allowed", "namespace": "default"}}
                    ],
                    "validate": {
                        "message": "priority",
                        "deny": {
                            "conditions": {
                                "all": [
                                    {
                                        "key": "{{ request.object.spec.priorityClassName }}",
                                        "operator": "AnyNotIn",
                                        "value": "{{ cm.data.classes }}",
                                    }
                                ]
                            }
                        },
                    },
                }
            ]
        },
    }
    pod = {
        "kind": "Pod",
        "metadata": {"name": "p", "namespace": "default"},
        "spec": {"priorityClassName": "high"},
    }
    ctx = Context(
        config_maps={
            ("default", "allowed"): {"kind": "ConfigMap", "data": {"classes": '["low", "medium"]'}}
        }
    )
    (result,) = apply([policy], [pod], ctx)
    assert result.status == "fail"
    (missing,) = apply([policy], [pod], Context())
    # not found is an error, as the CLI's fake cluster gives it (not an unsupported feature)
    assert missing.status == "error"
    assert "context entry configMap 'cm': ConfigMap default/allowed not found" in missing.message
    assert "unsupported" not in missing.message


def test_time_since_returns_a_go_duration():
    assert (
        substitute("{{ time_since('', '2020-01-01T00:00:00Z', '2020-01-01T01:30:05Z') }}", {})
        == "1h30m5s"
    )


def test_conditions_any_all_and_unsupported_operator():
    context = {"request": {"object": {"metadata": {"name": "web"}}}}
    block = {
        "any": [{"key": "{{ request.object.metadata.name }}", "operator": "Equals", "value": "db"}],
        "all": [{"key": "x", "operator": "Equals", "value": "x"}],
    }
    assert conditions.evaluate(block, context) is False
    block["any"].append(
        {"key": "{{ request.object.metadata.name }}", "operator": "Equals", "value": "web"}
    )
    assert conditions.evaluate(block, context) is True
    with pytest.raises(conditions.ConditionError, match="unknown condition operator"):
        conditions.check("Resembles", 1, 1)


def test_variables_and_custom_functions():
    ctx = {
        "request": {
            "object": {
                "metadata": {"name": "Web-1", "labels": {"tier": "front"}},
                "spec": {"minAvailable": "50%"},
            }
        }
    }
    assert substitute("{{ to_upper(request.object.metadata.name) }}", ctx) == "WEB-1"
    assert substitute("name={{ request.object.metadata.name }}", ctx) == "name=Web-1"
    assert (
        substitute("{{ regex_match('^[0-9]+%$', '{{ request.object.spec.minAvailable }}') }}", ctx)
        is True
    )
    assert substitute("{{ split('a,b', ',') }}", ctx) == ["a", "b"]
    assert substitute("{{ divide('1Gi', '512Mi') }}", ctx) == 2.0
    assert (
        substitute('{{ label_match(`{"tier":"front"}`, request.object.metadata.labels) }}', ctx)
        is True
    )
    assert substitute("{{ semver_compare('1.2.3', '>1.2.0') }}", ctx) is True
    with pytest.raises(VariableError, match="invalid JMESPath"):
        substitute("{{ request.object.[ }}", ctx)


def test_match_kinds_names_namespaces_selectors():
    deploy = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web-1", "namespace": "prod", "labels": {"app": "web"}},
    }
    assert (
        kind_matches("apps/v1/Deployment", deploy)
        and kind_matches("Deployment", deploy)
        and kind_matches("*", deploy)
    )
    assert not kind_matches("batch/v1/Job", deploy) and not kind_matches(
        "Deployment/status", deploy
    )
    facts = Facts(namespace_labels={"prod": {"env": "prod"}})
    rule = {
        "match": {
            "any": [
                {
                    "resources": {
                        "kinds": ["Deployment"],
                        "names": ["web-*"],
                        "namespaces": ["pr*"],
                        "selector": {"matchLabels": {"app": "web"}},
                        "namespaceSelector": {
                            "matchExpressions": [
                                {"key": "env", "operator": "In", "values": ["prod"]}
                            ]
                        },
                    }
                }
            ]
        }
    }
    assert rule_applies(rule, deploy, facts)
    assert not rule_applies(rule, deploy, Facts())  # namespace labels unknown -> selector fails
    rule["exclude"] = {"any": [{"resources": {"namespaces": ["prod"]}}]}
    assert not rule_applies(rule, deploy, facts)
    admission = {"match": {"any": [{"subjects": [{"kind": "User", "name": "bob"}]}]}}
    assert not rule_applies(admission, deploy, facts)


def _pod_policy(annotations=None, match=None):
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "p", "annotations": annotations or {}},
        "spec": {
            "rules": [
                {
                    "name": "r",
                    "match": match or {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    "validate": {
                        "message": "no host network",
                        "pattern": {"spec": {"=(hostNetwork)": "false"}},
                    },
                }
            ]
        },
    }


def test_autogen_names_kinds_and_suppression():
    rules = autogen_rules(_pod_policy())
    assert [r["name"] for r in rules] == ["autogen-r", "autogen-cronjob-r"]
    assert rules[0]["match"]["any"][0]["resources"]["kinds"] == [
        "DaemonSet",
        "Deployment",
        "Job",
        "StatefulSet",
        "ReplicaSet",
        "ReplicationController",
    ]
    assert rules[0]["validate"]["pattern"] == {
        "spec": {"template": {"spec": {"=(hostNetwork)": "false"}}}
    }
    assert rules[1]["validate"]["pattern"]["spec"]["jobTemplate"]["spec"]["template"]["spec"] == {
        "=(hostNetwork)": "false"
    }
    only = autogen_rules(_pod_policy({"pod-policies.kyverno.io/autogen-controllers": "Deployment"}))
    assert [r["name"] for r in only] == ["autogen-r"] and only[0]["match"]["any"][0]["resources"][
        "kinds"
    ] == ["Deployment"]
    assert autogen_rules(_pod_policy({"pod-policies.kyverno.io/autogen-controllers": "none"})) == []
    named = _pod_policy(match={"any": [{"resources": {"kinds": ["Pod"], "names": ["x"]}}]})
    assert autogen_rules(named) == []
    mixed = _pod_policy(match={"any": [{"resources": {"kinds": ["Pod", "Deployment"]}}]})
    assert autogen_rules(mixed) == []
    long = _pod_policy()
    long["spec"]["rules"][0]["name"] = "x" * 70
    assert all(len(r["name"]) <= 63 for r in autogen_rules(long))


def test_deny_foreach_preconditions_and_unsupported():
    policy = {
        "kind": "ClusterPolicy",
        "metadata": {"name": "limits"},
        "spec": {
            "rules": [
                {
                    "name": "deny-latest",
                    "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    "validate": {
                        "message": "no latest",
                        "foreach": [
                            {
                                "list": "request.object.spec.containers",
                                "deny": {
                                    "conditions": {
                                        "any": [
                                            {
                                                "key": "{{ element.image }}",
                                                "operator": "Equals",
                                                "value": "*:latest",
                                            }
                                        ]
                                    }
                                },
                            }
                        ],
                    },
                },
                {
                    "name": "only-web",
                    "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    "preconditions": {
                        "all": [
                            {
                                "key": "{{ request.object.metadata.labels.app || '' }}",
                                "operator": "Equals",
                                "value": "web",
                            }
                        ]
                    },
                    "validate": {
                        "message": "web pods need a team",
                        "pattern": {"metadata": {"labels": {"team": "?*"}}},
                    },
                },
                {
                    "name": "pss",
                    "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    "validate": {"podSecurity": {"level": "baseline"}},
                },
            ]
        },
    }
    pods = [
        {
            "kind": "Pod",
            "metadata": {"name": "bad", "namespace": "d", "labels": {"app": "web"}},
            "spec": {"containers": [{"name": "a", "image": "x:latest"}]},
        },
        {
            "kind": "Pod",
            "metadata": {"name": "good", "namespace": "d", "labels": {"app": "db"}},
            "spec": {"containers": [{"name": "a", "image": "x:1"}]},
        },
    ]
    results = {(r.rule, r.name): r.status for r in apply([policy], pods, Context())}
    assert results == {
        ("deny-latest", "bad"): "fail",
        ("deny-latest", "good"): "pass",
        ("only-web", "bad"): "fail",
        ("only-web", "good"): "skip",
        ("pss", "bad"): "pass",
        ("pss", "good"): "pass",
    }


def test_policy_reports_per_resource_with_summary():
    pods = [
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "a", "namespace": "paa", "uid": "u1"},
            "spec": {"hostNetwork": True},
        },
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "b", "namespace": "paa", "uid": "u2"},
            "spec": {},
        },
    ]
    reports = {r["scope"]["name"]: r for r in policy_reports([_pod_policy()], pods)}
    assert reports["a"]["kind"] == "PolicyReport" and reports["a"]["metadata"] == {
        "name": "u1",
        "namespace": "paa",
        "labels": {"app.kubernetes.io/managed-by": "kyverno"},
    }
    assert reports["a"]["summary"] == {"pass": 0, "fail": 1, "warn": 0, "error": 0, "skip": 0}
    assert (
        reports["b"]["results"][0]["result"] == "pass"
        and reports["b"]["results"][0]["policy"] == "p"
    )
    no_background = _pod_policy()
    no_background["spec"]["background"] = False
    assert policy_reports([no_background], pods) == []


def test_deep_resources_do_not_overflow():
    deep = current = {}
    for _ in range(5000):
        current["x"] = {}
        current = current["x"]
    from ciso.engines.kyverno.pattern.errors import PatternSyntaxError

    pattern = pattern_current = {}
    for _ in range(300):
        pattern_current["x"] = {}
        pattern_current = pattern_current["x"]
    with pytest.raises(PatternSyntaxError):
        validate(deep, pattern)


def test_unknown_anchor_is_an_error_naming_the_path():
    from ciso.engines.kyverno.pattern.errors import PatternSyntaxError

    with pytest.raises(
        PatternSyntaxError, match=r"unknown anchor '!' in pattern key '!\(hostNetwork\)' at /spec/"
    ):
        validate({"spec": {"hostNetwork": True}}, {"spec": {"!(hostNetwork)": "false"}})
    policy = _pod_policy()
    policy["spec"]["rules"][0]["validate"]["pattern"] = {"spec": {"Y(hostNetwork)": "false"}}
    (result,) = apply(
        [policy],
        [{"kind": "Pod", "metadata": {"name": "p", "namespace": "d"}, "spec": {}}],
        Context(),
    )
    assert result.status == "error" and "unknown anchor 'Y'" in result.message
