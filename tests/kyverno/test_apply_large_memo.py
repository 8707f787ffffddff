"""Large ``kyverno apply`` runs: validate outcomes remembered by the part of the resource a rule
reads (outcome_memo), and results carried as plain rows to the printer."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import pytest
import yaml

from ciso.engines.kyverno import outcome_memo
from ciso.engines.kyverno.bulk import render
from ciso.engines.kyverno.engine import ROW_FIELDS, Context, apply, apply_rows


def _policy(name: str, rule: dict[str, Any]) -> dict[str, Any]:
    rule = {"name": name, "match": {"any": [{"resources": {"kinds": ["Pod"]}}]}, **rule}
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": name},
        "spec": {"validationFailureAction": "Audit", "rules": [rule]},
    }


def _pod(name: str, privileged: Any, namespace: str = "default", **spec: Any) -> dict[str, Any]:
    container = {"name": "app", "image": "nginx", "securityContext": {"privileged": privileged}}
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"containers": [container], **spec},
    }


PATTERN_NAMING_THE_POD = {
    "validate": {
        "message": "pod {{ request.object.metadata.name }} in {{ request.namespace }} is privileged",
        "pattern": {"spec": {"containers": [{"=(securityContext)": {"=(privileged)": "false"}}]}},
    }
}
DENY_OVER_CAPABILITIES = {
    "preconditions": {
        "all": [{"key": "{{ request.operation }}", "operator": "NotEquals", "value": "DELETE"}]
    },
    "validate": {
        "message": "capabilities added",
        "deny": {
            "conditions": {
                "any": [
                    {
                        "key": "{{ request.object.spec.containers[].securityContext.capabilities.add[] }}",
                        "operator": "AnyNotIn",
                        "value": ["CHOWN"],
                    }
                ]
            }
        },
    },
}
FOREACH_OVER_VOLUMES = {
    "validate": {
        "message": "hostPath volume {{ element.name }}",
        "foreach": [
            {
                "list": "request.object.spec.volumes",
                "deny": {
                    "conditions": {
                        "any": [
                            {
                                "key": "{{ element.hostPath || '' }}",
                                "operator": "NotEquals",
                                "value": "",
                            }
                        ]
                    }
                },
            }
        ],
    }
}


@pytest.mark.parametrize(
    ("rule", "chains"),
    [
        (PATTERN_NAMING_THE_POD, (("metadata", "name"), ("metadata", "namespace"), ("spec",))),
        (DENY_OVER_CAPABILITIES, (("spec", "containers"),)),
        (FOREACH_OVER_VOLUMES, (("spec", "volumes"),)),
    ],
)
def test_read_set_names_every_field_chain_the_rule_reads(rule: dict, chains: tuple) -> None:
    assert outcome_memo.read_set({"name": "r", **rule}) == chains


@pytest.mark.parametrize(
    "rule",
    [
        {"validate": {"message": "{{ request.object }}", "deny": {}}},  # the whole resource
        {"validate": {"message": "{{ @ }}", "deny": {}}},
        {"validate": {"message": "{{ to_string(@) }}", "deny": {}}},  # the whole context
        {"validate": {"message": "{{ time_now_utc() }}", "deny": {}}},  # not a pure function
        {"validate": {"message": "{{ images.containers }}", "deny": {}}},
        {"validate": {"message": "{{ request.object.{{ request.name }} }}", "deny": {}}},
        {"context": [{"name": "x", "variable": {"value": 1}}], "validate": {"deny": {}}},
        {"validate": {"pattern": {"spec": {"a": "$(./../b)"}}}},  # a reference in the pattern
        {"validate": {"pattern": {"*": {"a": 1}}}},  # a wildcard key reads every key
        {"validate": {"podSecurity": {"level": "baseline"}}},
        {"mutate": {"patchStrategicMerge": {}}},
    ],
)
def test_read_set_refuses_rules_that_may_read_more(rule: dict) -> None:
    assert outcome_memo.read_set({"name": "r", **rule}) is None


def _pods() -> list[dict[str, Any]]:
    """Pods sharing few specs under many names, with the lookalikes a loose key would merge."""
    pods = []
    for i in range(60):
        privileged: Any = [False, True, "false", 0, 1, None][i % 6]
        extra: dict[str, Any] = {}
        if i % 5 == 0:
            extra["volumes"] = [{"name": f"v{i % 2}", "hostPath": {"path": "/"}}]
        if i % 7 == 0:
            extra["containers"] = [
                {"name": "app", "securityContext": {"capabilities": {"add": ["NET_ADMIN"]}}}
            ]
        pods.append(_pod(f"pod-{i}", privileged, namespace=f"ns-{i % 3}", **extra))
    return pods


POLICIES = [
    _policy("naming", PATTERN_NAMING_THE_POD),
    _policy("capabilities", DENY_OVER_CAPABILITIES),
    _policy("volumes", FOREACH_OVER_VOLUMES),
]


def test_remembered_outcomes_equal_fresh_ones_and_name_each_pod(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pods = _pods()
    ctx = Context()
    remembered = apply(POLICIES, pods, ctx) + apply(POLICIES, pods, ctx)  # the memo spans calls
    hits = sum(
        memo.hits
        for memo in (
            outcome_memo.memo_for(r, ctx.facts, "CREATE")
            for p in POLICIES
            for r in p["spec"]["rules"]
        )
        if memo
    )
    assert hits > len(pods)  # the second pass at least was answered from memory
    monkeypatch.setattr(outcome_memo, "memo_for", lambda *args: None)
    fresh = apply(POLICIES, pods, Context()) + apply(POLICIES, pods, Context())
    assert remembered == fresh
    by_pod = {(r.policy, r.name): r for r in remembered[: len(remembered) // 2]}
    for i, pod in enumerate(pods):
        name, namespace = pod["metadata"]["name"], pod["metadata"]["namespace"]
        naming = by_pod[("naming", name)]
        context = pod["spec"]["containers"][0]["securityContext"]
        # (0 == False in Python: a memo keyed by equality would give pod-3 pod-0's outcome)
        if "privileged" not in context or context["privileged"] is False:
            assert naming.status == "pass", name
        elif context["privileged"] is True:
            # the message names this pod although its spec's outcome was remembered from another
            assert naming.status == "fail", name
            assert f"pod {name} in {namespace} is privileged" in naming.message
        volumes = by_pod.get(("volumes", name))
        if i % 5 == 0:
            assert volumes.status == "fail" and f"hostPath volume v{i % 2}" in volumes.message
        else:
            assert volumes is None  # no volumes: the foreach has no element, hence no response
        capabilities = by_pod[("capabilities", name)]
        assert capabilities.status == ("fail" if i % 7 == 0 else "pass"), name


def test_memo_is_not_used_when_an_exception_or_test_value_may_vary_the_outcome() -> None:
    pods = _pods()[:6]
    valued = Context(resource_values={("naming", "pod-1"): {"request.object.metadata.name": "x"}})
    outcome_memo._MEMOS.clear()
    apply(POLICIES, pods, valued)
    assert not any(
        entry[3] is not None and entry[3].table for entry in outcome_memo._MEMOS.values()
    )


@pytest.mark.parametrize("fmt", ["table", "json", "yaml"])
def test_rows_render_as_the_results_did(fmt: str) -> None:
    pods = _pods()
    results = apply(POLICIES, pods, Context())
    rows = apply_rows(POLICIES, pods, Context())
    assert rows == [tuple(getattr(r, f) for f in ROW_FIELDS) for r in results]
    # the printing as it was, from RuleResults
    if fmt == "json":
        old = ",\n  ".join(json.dumps(r.__dict__, indent=2).replace("\n", "\n  ") for r in results)
    elif fmt == "yaml":
        old = yaml.safe_dump([r.__dict__ for r in results], sort_keys=False)
    else:
        old = "".join(
            f"{r.status.upper():5}  {r.policy}/{r.rule}  "
            f"{r.kind}/{r.namespace + '/' if r.namespace else ''}{r.name}  {r.message}\n"
            for r in results
        )
    rendered = render(rows, fmt, len(pods))
    assert rendered.text == old
    assert rendered.results == len(results)
    assert rendered.failing == sum(1 for r in results if r.status in ("fail", "error")) > 0
    assert list(asdict(results[0])) == list(ROW_FIELDS)
