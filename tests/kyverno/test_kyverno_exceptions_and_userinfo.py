"""PolicyExceptions and the requesting user (a test's ``exceptions`` and ``userinfo``), and a
Test's inline ``values``: through the kyverno test runner, asserted per expectation."""

from __future__ import annotations

from pathlib import Path

import yaml

from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.matching import Facts, UserInfo, rule_applies
from ciso.engines.kyverno.testrunner import run_test_file

POLICY = {
    "apiVersion": "kyverno.io/v1",
    "kind": "ClusterPolicy",
    "metadata": {"name": "no-host-network"},
    "spec": {
        "validationFailureAction": "Audit",
        "rules": [
            {
                "name": "host-network",
                "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                "exclude": {"any": [{"clusterRoles": ["cluster-admin"]}]},
                "validate": {"message": "no", "pattern": {"spec": {"=(hostNetwork)": False}}},
            },
            {
                "name": "pss",
                "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                "validate": {"podSecurity": {"level": "baseline", "version": "latest"}},
            },
        ],
    },
}
EXCEPTION = {
    "apiVersion": "kyverno.io/v2",
    "kind": "PolicyException",
    "metadata": {"name": "tools", "namespace": "delta"},
    "spec": {
        "exceptions": [{"policyName": "no-host-network", "ruleNames": ["host-*"]}],
        "match": {"any": [{"resources": {"kinds": ["Pod"], "names": ["tool-*"]}}]},
        "conditions": {
            "any": [
                {
                    "key": "{{ request.object.metadata.labels.team || '' }}",
                    "operator": "Equals",
                    "value": "ops",
                }
            ]
        },
    },
}
PSS_EXCEPTION = {
    "apiVersion": "kyverno.io/v2",
    "kind": "PolicyException",
    "metadata": {"name": "pss-ports", "namespace": "delta"},
    "spec": {
        "exceptions": [{"policyName": "no-host-network", "ruleNames": ["pss"]}],
        "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
        "podSecurity": [
            {
                "controlName": "Host Namespaces",
                "restrictedField": "spec.hostNetwork",
                "values": ["true"],
            }
        ],
    },
}


def _pod(name: str, team: str = "") -> dict:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "labels": {"team": team} if team else {}},
        "spec": {"hostNetwork": True, "containers": [{"name": "c", "image": "nginx"}]},
    }


def _write(directory: Path, name: str, *docs: dict) -> str:
    (directory / name).write_text(yaml.safe_dump_all(docs))
    return name


def _outcomes(tmp_path: Path, test: dict) -> dict:
    test_file = tmp_path / "kyverno-test.yaml"
    test_file.write_text(yaml.safe_dump(test))
    result = run_test_file(test_file)
    assert result.error is None, result.error
    return {(e.rule, e.resource): (e.outcome, e.actual) for e in result.expectations}


def _test(tmp_path: Path, results: list[dict], **extra) -> dict:
    return {
        "apiVersion": "cli.kyverno.io/v1alpha1",
        "kind": "Test",
        "metadata": {"name": "t"},
        "policies": [_write(tmp_path, "policy.yaml", POLICY)],
        "resources": [
            _write(
                tmp_path,
                "resources.yaml",
                _pod("tool-a", "ops"),
                _pod("tool-b", "dev"),
                _pod("web"),
            )
        ],
        "results": results,
        **extra,
    }


def _expect(rule: str, result: str, *names: str) -> dict:
    return {
        "policy": "no-host-network",
        "rule": rule,
        "kind": "Pod",
        "resources": list(names),
        "result": result,
    }


def test_exceptions_skip_the_rules_they_cover(tmp_path: Path):
    exceptions = [_write(tmp_path, "exceptions.yaml", EXCEPTION, PSS_EXCEPTION)]
    outcomes = _outcomes(
        tmp_path,
        _test(
            tmp_path,
            [
                _expect("host-network", "skip", "tool-a"),  # name, rule and condition match
                _expect("host-network", "fail", "tool-b"),  # condition does not hold
                _expect("host-network", "fail", "web"),  # name does not match
                _expect("pss", "skip", "web"),  # PSS exclusions of the exception exempt it
            ],
            exceptions=exceptions,
        ),
    )
    assert outcomes == {
        ("host-network", "tool-a"): ("passed", "skip"),
        ("host-network", "tool-b"): ("passed", "fail"),
        ("host-network", "web"): ("passed", "fail"),
        ("pss", "web"): ("passed", "skip"),
    }


def test_userinfo_feeds_exclude_and_variables(tmp_path: Path):
    userinfo = _write(
        tmp_path,
        "userinfo.yaml",
        {
            "apiVersion": "cli.kyverno.io/v1alpha1",
            "kind": "UserInfo",
            "clusterRoles": ["cluster-admin"],
            "userInfo": {"username": "system:serviceaccount:ops:deployer", "groups": ["admins"]},
        },
    )
    outcomes = _outcomes(
        tmp_path,
        _test(tmp_path, [_expect("host-network", "skip", "web")], userinfo=userinfo),
    )
    # an excluded resource gives no rule response: with skip expected, that is agreement
    assert outcomes == {("host-network", "web"): ("passed", None)}


def test_subjects_match_by_kind():
    user = UserInfo(username="system:serviceaccount:ops:deployer", groups=("admins",))
    facts = Facts(user=user)
    pod = _pod("p")
    pod["metadata"]["namespace"] = "default"

    def rule(*subjects: dict) -> dict:
        return {"match": {"any": [{"resources": {"kinds": ["Pod"]}, "subjects": list(subjects)}]}}

    assert rule_applies(
        rule({"kind": "ServiceAccount", "name": "deployer", "namespace": "ops"}), pod, facts
    )
    assert rule_applies(rule({"kind": "Group", "name": "adm*"}), pod, facts)
    assert not rule_applies(rule({"kind": "User", "name": "alice"}), pod, facts)
    # as Kyverno's matcher: with no requesting user at all, a match filter's subjects (roles,
    # clusterRoles) are not checked; an exclude filter's are, and exclude nothing
    assert rule_applies(rule({"kind": "Group", "name": "admins"}), pod, Facts())
    excluding = {
        "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
        "exclude": {"any": [{"subjects": [{"kind": "Group", "name": "admins"}]}]},
    }
    assert rule_applies(excluding, pod, Facts())
    assert not rule_applies(excluding, pod, facts)
    other = Facts(user=UserInfo(username="bob"))
    assert not rule_applies(rule({"kind": "Group", "name": "admins"}), pod, other)


def test_service_account_variables_come_from_the_user():
    policy = {
        "kind": "ClusterPolicy",
        "metadata": {"name": "sa"},
        "spec": {
            "rules": [
                {
                    "name": "r",
                    "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    "validate": {
                        "message": "m",
                        "deny": {
                            "conditions": {
                                "all": [
                                    {
                                        "key": "{{ serviceAccountName }}",
                                        "operator": "Equals",
                                        "value": "deployer",
                                    },
                                    {
                                        "key": "{{ request.userInfo.groups }}",
                                        "operator": "AnyIn",
                                        "value": ["admins"],
                                    },
                                    {
                                        "key": "{{ request.clusterRoles }}",
                                        "operator": "AnyIn",
                                        "value": ["view"],
                                    },
                                ]
                            }
                        },
                    },
                }
            ]
        },
    }
    user = UserInfo("system:serviceaccount:ops:deployer", ("admins",), (), ("view",))
    (result,) = apply([policy], [_pod("p")], Context(facts=Facts(user=user)))
    assert result.status == "fail"
    (anonymous,) = apply([policy], [_pod("p")], Context())
    assert anonymous.status == "pass"


def test_inline_values_in_the_test(tmp_path: Path):
    policy = {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "limit"},
        "spec": {
            "rules": [
                {
                    "name": "r",
                    "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    "context": [
                        {
                            "name": "allowed",
                            "apiCall": {"urlPath": "/api/v1/x", "jmesPath": "items"},
                        }
                    ],
                    "validate": {
                        "message": "m",
                        "deny": {
                            "conditions": {
                                "any": [
                                    {
                                        "key": "{{ request.object.metadata.name }}",
                                        "operator": "AnyNotIn",
                                        "value": "{{ allowed }}",
                                    }
                                ]
                            }
                        },
                    },
                }
            ]
        },
    }
    test = {
        "apiVersion": "cli.kyverno.io/v1alpha1",
        "kind": "Test",
        "metadata": {"name": "t"},
        "policies": [_write(tmp_path, "policy.yaml", policy)],
        "resources": [_write(tmp_path, "resources.yaml", _pod("web"), _pod("db"))],
        "values": {
            "policies": [
                {"name": "limit", "rules": [{"name": "r", "values": {"allowed": ["web"]}}]}
            ]
        },
        "results": [
            {"policy": "limit", "rule": "r", "kind": "Pod", "resources": ["web"], "result": "pass"},
            {"policy": "limit", "rule": "r", "kind": "Pod", "resources": ["db"], "result": "fail"},
        ],
    }
    assert _outcomes(tmp_path, test) == {
        ("r", "web"): ("passed", "pass"),
        ("r", "db"): ("passed", "fail"),
    }


OPERATION_POLICY = {
    "apiVersion": "kyverno.io/v1",
    "kind": "ClusterPolicy",
    "metadata": {"name": "protect"},
    "spec": {
        "rules": [
            {
                "name": "no-updates",
                "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                "validate": {
                    "message": "m",
                    "deny": {
                        "conditions": {
                            "any": [
                                {
                                    "key": "{{ request.operation }}",
                                    "operator": "Equals",
                                    "value": "UPDATE",
                                }
                            ]
                        }
                    },
                },
            }
        ]
    },
}


def test_result_entries_with_their_own_operation_rule_less_and_resource_specs(tmp_path: Path):
    test = {
        "apiVersion": "cli.kyverno.io/v1alpha1",
        "kind": "Test",
        "metadata": {"name": "t"},
        "policies": [_write(tmp_path, "policy.yaml", OPERATION_POLICY)],
        "resources": [_write(tmp_path, "resources.yaml", _pod("web"))],
        "results": [
            {
                "policy": "protect",
                "rule": "no-updates",
                "kind": "Pod",
                "resources": ["web"],
                "result": "pass",
            },
            {
                "policy": "protect",
                "rule": "no-updates",
                "kind": "Pod",
                "resources": ["web"],
                "result": "fail",
                "operation": "UPDATE",
            },
            # no rule named: every rule of the policy counts
            {"policy": "protect", "kind": "Pod", "resources": ["default/web"], "result": "pass"},
            {
                "policy": "protect",
                "rule": "no-updates",
                "kind": "Pod",
                "resourceSpecs": [{"namespace": "default", "name": "web"}],
                "result": "pass",
            },
        ],
    }
    test_file = tmp_path / "kyverno-test.yaml"
    test_file.write_text(yaml.safe_dump(test))
    result = run_test_file(test_file)
    assert result.error is None
    assert [(e.resource, e.expected, e.actual, e.outcome) for e in result.expectations] == [
        ("web", "pass", "pass", "passed"),
        ("web", "fail", "fail", "passed"),
        ("default/web", "pass", "pass", "passed"),
        ("default/web", "pass", "pass", "passed"),
    ]


def test_generated_resources_list(tmp_path: Path):
    policy = {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "cms"},
        "spec": {
            "rules": [
                {
                    "name": "cms",
                    "match": {"any": [{"resources": {"kinds": ["Namespace"]}}]},
                    "generate": {
                        "foreach": [
                            {
                                "list": "['a', 'b']",
                                "apiVersion": "v1",
                                "kind": "ConfigMap",
                                "name": "cm-{{ element }}",
                                "namespace": "{{ request.object.metadata.name }}",
                                "data": {"data": {"k": "v"}},
                            }
                        ]
                    },
                }
            ]
        },
    }
    expected = [
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": f"cm-{n}", "namespace": "ns"},
            "data": {"k": "v"},
        }
        for n in ("a", "b")
    ]
    wrong = {**expected[0], "data": {"k": "other"}}
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ns"}}

    def run(files: list[str]) -> str:
        test = {
            "apiVersion": "cli.kyverno.io/v1alpha1",
            "kind": "Test",
            "metadata": {"name": "t"},
            "policies": [_write(tmp_path, "policy.yaml", policy)],
            "resources": [_write(tmp_path, "resources.yaml", namespace)],
            "results": [
                {
                    "policy": "cms",
                    "rule": "cms",
                    "kind": "Namespace",
                    "resources": ["ns"],
                    "result": "pass",
                    "generatedResources": files,
                }
            ],
        }
        (tmp_path / "kyverno-test.yaml").write_text(yaml.safe_dump(test))
        (only,) = run_test_file(tmp_path / "kyverno-test.yaml").expectations
        return only.outcome

    good = [_write(tmp_path, f"cm-{i}.yaml", doc) for i, doc in enumerate(expected)]
    assert run(good) == "passed"
    assert run([*good, _write(tmp_path, "wrong.yaml", wrong)]) == "failed"


def test_a_results_clone_source_resource_is_what_its_rule_clones(tmp_path: Path):
    # The Kyverno CLI's cloneSourceResource: the object a generate rule clones, kept out of the
    # test's resources (so no other policy sees it), offered to that (policy, rule) only.
    def policy(name: str) -> dict:
        return {
            "apiVersion": "kyverno.io/v1",
            "kind": "ClusterPolicy",
            "metadata": {"name": name},
            "spec": {
                "rules": [
                    {
                        "name": "sync",
                        "match": {"any": [{"resources": {"kinds": ["Namespace"]}}]},
                        "generate": {
                            "apiVersion": "v1",
                            "kind": "Secret",
                            "name": "regcred",
                            "namespace": "{{ request.object.metadata.name }}",
                            "clone": {"namespace": "default", "name": "regcred"},
                        },
                    }
                ]
            },
        }

    source = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "regcred", "namespace": "default"},
        "data": {"password": "c2VjcmV0"},
    }
    generated = {**source, "metadata": {"name": "regcred", "namespace": "team"}}
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team"}}
    test = {
        "apiVersion": "cli.kyverno.io/v1alpha1",
        "kind": "Test",
        "metadata": {"name": "t"},
        "policies": [_write(tmp_path, "policy.yaml", policy("with-source"), policy("without"))],
        "resources": [_write(tmp_path, "resources.yaml", namespace)],
        "results": [
            {
                "policy": name,
                "rule": "sync",
                "kind": "Namespace",
                "resources": ["team"],
                "result": "pass",
                "generatedResource": _write(tmp_path, "generated.yaml", generated),
            }
            | (
                {"cloneSourceResource": _write(tmp_path, "source.yaml", source)}
                if with_source
                else {}
            )
            for name, with_source in (("with-source", True), ("without", False))
        ],
    }
    (tmp_path / "kyverno-test.yaml").write_text(yaml.safe_dump(test))
    got = {e.policy: e for e in run_test_file(tmp_path / "kyverno-test.yaml").expectations}
    assert got["with-source"].outcome == "passed", got["with-source"].reason
    assert got["without"].actual == "error"
    assert "source Secret default/regcred not found" in got["without"].reason


def test_api_call_responses_answer_api_calls(tmp_path: Path):
    policy = {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "quota"},
        "spec": {
            "rules": [
                {
                    "name": "limit",
                    "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    "context": [
                        {
                            "name": "podcount",
                            "apiCall": {
                                "urlPath": "/api/v1/namespaces/{{ request.namespace }}/pods",
                                "jmesPath": "items | length(@)",
                            },
                        }
                    ],
                    "validate": {
                        "message": "too many pods",
                        "deny": {
                            "conditions": {
                                "any": [
                                    {"key": "{{ podcount }}", "operator": "GreaterThan", "value": 1}
                                ]
                            }
                        },
                    },
                }
            ]
        },
    }

    def outcome(items: list, status: int = 200) -> tuple:
        test = {
            "apiVersion": "cli.kyverno.io/v1alpha1",
            "kind": "Test",
            "metadata": {"name": "t"},
            "policies": [_write(tmp_path, "policy.yaml", policy)],
            "resources": [_write(tmp_path, "resources.yaml", _pod("web"))],
            "apiCallResponses": [
                {
                    "urlPath": "/api/v1/namespaces/default/pods",
                    "response": {"statusCode": status, "body": {"items": items}},
                }
            ],
            "results": [
                {
                    "policy": "quota",
                    "rule": "limit",
                    "kind": "Pod",
                    "resources": ["web"],
                    "result": "pass",
                }
            ],
        }
        (tmp_path / "kyverno-test.yaml").write_text(yaml.safe_dump(test))
        (only,) = run_test_file(tmp_path / "kyverno-test.yaml").expectations
        return only.actual, only.reason

    assert outcome([{}])[0] == "pass"
    assert outcome([{}, {}])[0] == "fail"
    actual, reason = outcome([{}], status=500)
    assert actual == "error" and "HTTP 500" in reason
