"""One Kyverno schema (ciso/engines/kyverno/schema.py, crd.py), both of Kyverno's rules: for every
condition operator (canonical and lowercased), every rule type and every validate key, what
`itbench lint` says, what the engine does and what a cluster (`validate_crd`) says; then invalid
policies, each with the message and path a real API server gives."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.schema import (
    CANONICAL_OPERATORS,
    DEPRECATED_ALIASES,
    RULE_TYPES,
    VALIDATE_KEYS,
    canonical_operator,
    is_policy,
    unknown_fields,
    validate_crd,
)
from tests._support.cli import SHARED, run_cli

POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "web", "namespace": "default", "labels": {"app": "web"}},
    "spec": {"containers": [{"name": "c", "image": "nginx:1.25"}]},
}

# a (key, value) each operator can evaluate without an error
OPERANDS = {
    "Equals": ("web", "web"),
    "NotEquals": ("web", "db"),
    "In": ("web", ["web", "db"]),
    "NotIn": ("web", ["db"]),
    "AnyIn": (["web"], ["web", "db"]),
    "AllIn": (["web"], ["web", "db"]),
    "AnyNotIn": (["web"], ["db"]),
    "AllNotIn": (["web"], ["db"]),
    "GreaterThan": (3, 2),
    "GreaterThanOrEquals": (3, 3),
    "LessThan": (2, 3),
    "LessThanOrEquals": (3, 3),
    "DurationGreaterThan": ("2h", "1h"),
    "DurationGreaterThanOrEquals": ("1h", "1h"),
    "DurationLessThan": ("1h", "2h"),
    "DurationLessThanOrEquals": ("1h", "1h"),
}


def policy(rule: dict, api_version: str = "kyverno.io/v1", **spec: object) -> dict:
    return {
        "apiVersion": api_version,
        "kind": "ClusterPolicy",
        "metadata": {"name": "p"},
        "spec": {"validationFailureAction": "Audit", "rules": [rule], **spec},
    }


def deny_rule(operator: str, key: object = "web", value: object = "web") -> dict:
    return {
        "name": "r",
        "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
        "validate": {
            "message": "denied",
            "deny": {"conditions": {"any": [{"key": key, "operator": operator, "value": value}]}},
        },
    }


def foreach_rule(operator: str, key: object = "c", value: object = "c") -> dict:
    return {
        "name": "r",
        "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
        "validate": {
            "message": "m",
            "foreach": [
                {
                    "list": "request.object.spec.containers",
                    "preconditions": {"all": [{"key": key, "operator": operator, "value": value}]},
                    "pattern": {"image": "nginx:*"},
                }
            ],
        },
    }


SPELLINGS = [
    *((name, name) for name in CANONICAL_OPERATORS),
    *((name.lower(), name) for name in CANONICAL_OPERATORS),
    *DEPRECATED_ALIASES.items(),
]
UNKNOWN = ("GreaterThen", "Contains")


@pytest.fixture(scope="module")
def lint_findings(tmp_path_factory) -> dict[str, list[dict]]:
    """One `itbench lint` run over a policy per operator spelling and placement."""
    folder = tmp_path_factory.mktemp("operators")
    for spelling, _ in SPELLINGS:
        for place, rule in (("deny", deny_rule(spelling)), ("foreach", foreach_rule(spelling))):
            (folder / f"{place}-{spelling}.yaml").write_text(yaml.safe_dump(policy(rule)))
    for spelling in UNKNOWN:
        (folder / f"deny-{spelling}.yaml").write_text(yaml.safe_dump(policy(deny_rule(spelling))))
    proc = run_cli(["lint", "-q", "--format", "json", str(folder)], timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    by_file: dict[str, list[dict]] = {p.name: [] for p in folder.iterdir()}
    for finding in json.loads(proc.stdout)["findings"]:
        by_file[Path(finding["file"]).name].append(finding)
    return by_file


def _kyv003(findings: list[dict]) -> list[str]:
    return [f["message"] for f in findings if f["rule"] == "KYV003"]


@pytest.mark.parametrize(("spelling", "canonical"), SPELLINGS)
def test_operator_in_deny_conditions(spelling, canonical, lint_findings):
    key, value = OPERANDS[canonical]
    # engine: Kyverno's handlers match names case-insensitively, so every spelling evaluates,
    # exactly as the canonical one does
    results = apply([policy(deny_rule(spelling, key, value))], [POD], Context())
    reference = apply([policy(deny_rule(canonical, key, value))], [POD], Context())
    assert [r.status for r in results] == ["fail"], results
    assert [r.status for r in results] == [r.status for r in reference]
    assert canonical_operator(spelling) == canonical

    # cluster and lint: v1 deny conditions are untyped JSON in the CRD; Kyverno's policy
    # validation webhook takes exact names, including the deprecated aliases
    crd = validate_crd(policy(deny_rule(spelling)))
    messages = _kyv003(lint_findings[f"deny-{spelling}.yaml"])
    if spelling in CANONICAL_OPERATORS or spelling in DEPRECATED_ALIASES:
        assert crd == []
        assert messages == []
    else:
        path = "spec.rules[0].validate.deny.conditions.any[0].operator"
        assert crd == [
            f'{path}: Unsupported value: "{spelling}": supported values: '
            + ", ".join(f'"{o}"' for o in CANONICAL_OPERATORS)
            + " (Kyverno's policy validation webhook)"
        ]
        assert len(messages) == 1
        assert f"operator '{spelling}' is not the canonical spelling" in messages[0]
        assert f"did you mean '{canonical}'?" in messages[0]
        assert "reject the policy at apply" in messages[0]


@pytest.mark.parametrize(("spelling", "canonical"), SPELLINGS)
def test_operator_in_foreach_preconditions(spelling, canonical, lint_findings):
    # the CRD types foreach preconditions: its enum has the canonical names only; the engine
    # evaluates every spelling (the preconditions hold, so the element's pattern is checked)
    results = apply([policy(foreach_rule(spelling, *OPERANDS[canonical]))], [POD], Context())
    assert [r.status for r in results] == ["pass"], results
    crd = validate_crd(policy(foreach_rule(spelling)))
    messages = _kyv003(lint_findings[f"foreach-{spelling}.yaml"])
    if spelling in CANONICAL_OPERATORS:
        assert crd == []
        assert messages == []
    else:
        path = "spec.rules[0].validate.foreach[0].preconditions.all[0].operator"
        assert len(crd) == 1
        assert crd[0].startswith(f'{path}: Unsupported value: "{spelling}": supported values: ')
        assert "webhook" not in crd[0]  # the API server itself rejects it
        assert len(messages) == 1
        assert f"did you mean '{canonical}'?" in messages[0]


@pytest.mark.parametrize(
    ("spelling", "close"), [("GreaterThen", "GreaterThan"), ("Contains", None)]
)
def test_unknown_operator(spelling, close, lint_findings):
    results = apply([policy(deny_rule(spelling))], [POD], Context())
    assert [r.status for r in results] == ["error"]
    assert "unknown condition operator" in results[0].message
    assert canonical_operator(spelling) is None
    assert validate_crd(policy(deny_rule(spelling)))[0].startswith(
        f'spec.rules[0].validate.deny.conditions.any[0].operator: Unsupported value: "{spelling}"'
    )
    (message,) = _kyv003(lint_findings[f"deny-{spelling}.yaml"])
    assert f"unknown operator '{spelling}'" in message
    assert (f"did you mean '{close}'?" in message) if close else ("did you mean" not in message)


def test_v2beta1_types_rule_conditions_without_in_and_notin():
    rule = deny_rule("In", "web", ["web"])
    assert validate_crd(policy(rule)) == []
    (message,) = validate_crd(policy(rule, "kyverno.io/v2beta1"))
    assert message.startswith(
        'spec.rules[0].validate.deny.conditions.any[0].operator: Unsupported value: "In": '
    )
    assert '"AnyIn"' in message and '"NotIn"' not in message


def _rule_of_type(rule_type: str) -> dict:
    bodies = {
        "validate": {"message": "m", "pattern": {"metadata": {"labels": {"app": "?*"}}}},
        "mutate": {"patchStrategicMerge": {"metadata": {"labels": {"team": "a"}}}},
        "generate": {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "name": "cm",
            "namespace": "default",
            "data": {"data": {"k": "v"}},
        },
        "verifyImages": [{"imageReferences": ["*"], "attestors": []}],
    }
    return {
        "name": "r",
        "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
        rule_type: bodies[rule_type],
    }


@pytest.mark.parametrize(
    ("rule_type", "status"),
    [("validate", "pass"), ("mutate", "pass"), ("generate", "pass"), ("verifyImages", "error")],
)
def test_every_rule_type(rule_type, status):
    assert set(RULE_TYPES) == {"validate", "mutate", "generate", "verifyImages"}
    doc = policy(_rule_of_type(rule_type))
    assert validate_crd(doc) == []
    assert unknown_fields(doc) == []
    results = apply([doc], [POD], Context())
    assert [r.status for r in results] == [status], results
    if status == "error":
        assert results[0].message.startswith("unsupported: verifyImages")


# every validate key, as a minimal block using it: what the engine does with it
VALIDATE_BLOCKS = {
    "message": ({"message": "m", "pattern": {"kind": "Pod"}}, "pass"),
    "pattern": ({"pattern": {"kind": "Pod"}}, "pass"),
    "anyPattern": ({"anyPattern": [{"kind": "Deployment"}, {"kind": "Pod"}]}, "pass"),
    "deny": (
        {"deny": {"conditions": {"any": [{"key": 1, "operator": "Equals", "value": 2}]}}},
        "pass",
    ),
    "foreach": (
        {"foreach": [{"list": "request.object.spec.containers", "pattern": {"name": "c"}}]},
        "pass",
    ),
    "podSecurity": ({"podSecurity": {"level": "baseline", "version": "latest"}}, "pass"),
    "failureAction": ({"failureAction": "Enforce", "pattern": {"kind": "Pod"}}, "pass"),
    "failureActionOverrides": (
        {
            "failureActionOverrides": [{"action": "Audit", "namespaces": ["x"]}],
            "pattern": {"kind": "Pod"},
        },
        "pass",
    ),
    "allowExistingViolations": (
        {"allowExistingViolations": False, "pattern": {"kind": "Pod"}},
        "pass",
    ),
    "cel": ({"cel": {"expressions": [{"expression": "true"}]}}, "pass"),
    "manifests": ({"manifests": {"attestors": []}}, "error"),
    "assert": ({"assert": {"object": {"kind": "Pod"}}}, "error"),
}


def test_validate_blocks_cover_every_validate_key():
    assert set(VALIDATE_BLOCKS) == set(VALIDATE_KEYS)


@pytest.mark.parametrize("key", sorted(VALIDATE_BLOCKS))
def test_every_validate_key(key, tmp_path):
    block, status = VALIDATE_BLOCKS[key]
    rule = {"name": "r", "match": {"any": [{"resources": {"kinds": ["Pod"]}}]}, "validate": block}
    doc = policy(rule)
    assert validate_crd(doc) == []
    assert unknown_fields(doc) == []
    results = apply([doc], [POD], Context())
    assert [r.status for r in results] == [status], results
    if status == "error":
        assert results[0].message.startswith(f"unsupported: validate.{key}")
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(doc))
    proc = run_cli(["lint", "-q", "--format", "json", str(path)])
    structure = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "KYV001"]
    assert structure == []


def test_misspelled_validate_key(tmp_path):
    rule = {
        "name": "r",
        "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
        "validate": {"message": "m", "patern": {"kind": "Pod"}},
    }
    doc = policy(rule)
    # the API server prunes it silently, or refuses it with strict field validation
    assert validate_crd(doc) == []
    assert unknown_fields(doc) == ['unknown field "spec.rules[0].validate.patern"']
    results = apply([doc], [POD], Context())
    assert [r.status for r in results] == ["error"]
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump(doc))
    proc = run_cli(["lint", "-q", "--format", "json", str(path)])
    messages = [f["message"] for f in json.loads(proc.stdout)["findings"] if f["rule"] == "KYV001"]
    assert any("unknown key 'patern' (did you mean 'pattern'?)" in m for m in messages), messages


def _valid() -> dict:
    return policy(deny_rule("Equals"))


def _edit(change) -> dict:
    doc = copy.deepcopy(_valid())
    change(doc)
    return doc


INVALID = {
    "validation-failure-action": (
        lambda d: d["spec"].update(validationFailureAction="Block"),
        'spec.validationFailureAction: Unsupported value: "Block": supported values: '
        '"audit", "enforce", "Audit", "Enforce"',
    ),
    "rule-failure-action-lowercase": (
        lambda d: d["spec"]["rules"][0]["validate"].update(failureAction="enforce"),
        'spec.rules[0].validate.failureAction: Unsupported value: "enforce": supported values: '
        '"Audit", "Enforce"',
    ),
    "missing-rule-name": (
        lambda d: d["spec"]["rules"][0].pop("name"),
        "spec.rules[0].name: Required value",
    ),
    "missing-match": (
        lambda d: d["spec"]["rules"][0].pop("match"),
        "spec.rules[0].match: Required value",
    ),
    "missing-spec": (lambda d: d.pop("spec"), "spec: Required value"),
    "background-not-boolean": (
        lambda d: d["spec"].update(background="yes"),
        'spec.background: Invalid value: "string": spec.background in body must be of type '
        'boolean: "string"',
    ),
    "rules-not-a-list": (
        lambda d: d["spec"].update(rules={"name": "r"}),
        'spec.rules: Invalid value: "object": spec.rules in body must be of type array: "object"',
    ),
    "kinds-not-a-list": (
        lambda d: d["spec"]["rules"][0]["match"]["any"][0]["resources"].update(kinds="Pod"),
        'spec.rules[0].match.any[0].resources.kinds: Invalid value: "string": '
        'spec.rules[0].match.any[0].resources.kinds in body must be of type array: "string"',
    ),
    "rule-name-too-long": (
        lambda d: d["spec"]["rules"][0].update(name="r" * 64),
        "spec.rules[0].name: Too long: may not be more than 63 bytes",
    ),
    "operation-lowercase": (
        lambda d: d["spec"]["rules"][0]["match"]["any"][0]["resources"].update(
            operations=["create"]
        ),
        'spec.rules[0].match.any[0].resources.operations[0]: Unsupported value: "create": '
        'supported values: "CREATE", "CONNECT", "UPDATE", "DELETE"',
    ),
    "timeout-not-integer": (
        lambda d: d["spec"].update(webhookTimeoutSeconds=1.5),
        'spec.webhookTimeoutSeconds: Invalid value: "number": spec.webhookTimeoutSeconds in body '
        'must be of type integer: "number"',
    ),
    "context-entry-without-name": (
        lambda d: d["spec"]["rules"][0].update(context=[{"variable": {"value": 1}}]),
        "spec.rules[0].context[0].name: Required value",
    ),
    "condition-without-value": (
        lambda d: d["spec"]["rules"][0]["validate"]["deny"]["conditions"]["any"][0].pop("value"),
        "spec.rules[0].validate.deny.conditions.any[0].value: Required value "
        "(Kyverno's policy validation webhook)",
    ),
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_policy_message_and_path(name):
    change, message = INVALID[name]
    assert validate_crd(_valid()) == []
    assert validate_crd(_edit(change)) == [message]


def test_pod_security_level_enum():
    rule = {
        "name": "r",
        "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
        "validate": {"podSecurity": {"level": "Baseline", "exclude": [{"images": ["x"]}]}},
    }
    assert validate_crd(policy(rule)) == [
        'spec.rules[0].validate.podSecurity.level: Unsupported value: "Baseline": supported '
        'values: "privileged", "baseline", "restricted"',
        "spec.rules[0].validate.podSecurity.exclude[0].controlName: Required value",
    ]


def test_patterns_and_overlays_are_not_over_validated():
    # x-kubernetes-preserve-unknown-fields: anything goes inside patterns, data and overlays
    rule = {
        "name": "r",
        "match": {"resources": {"kinds": ["Pod"]}},
        "validate": {"pattern": {"spec": {"=(hostNetwork)": "false", "x": [1, {"y": None}]}}},
    }
    assert validate_crd(policy(rule)) == []
    assert unknown_fields(policy(rule)) == []


def test_a_null_optional_field_is_not_an_error():
    # the API server prunes nulls of non-nullable fields before validating
    assert validate_crd(_edit(lambda d: d["spec"].update(background=None))) == []


@pytest.mark.skipif(not SHARED.exists(), reason="needs ../shared (the Kyverno policy corpus)")
def test_every_corpus_policy_is_accepted_by_the_cluster_schema():
    corpus = SHARED / "corpora" / "kyverno-policies"
    checked = 0
    for path in sorted(corpus.rglob("*.yaml")):
        if any(part.startswith(".") for part in path.relative_to(corpus).parts):
            continue  # tests and chainsaw folders hold resources, not the library's policies
        try:
            docs = list(yaml.safe_load_all(path.read_text()))
        except yaml.YAMLError:
            continue
        for doc in docs:
            if is_policy(doc):
                checked += 1
                assert validate_crd(doc) == [], path
                assert unknown_fields(doc) == [], path
    assert checked > 200
