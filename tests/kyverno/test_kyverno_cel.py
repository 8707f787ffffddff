"""Kyverno CEL: the optional-syntax rewrite, each extension library, the compile cache and the
cost/time limits, the bindings, and validate.cel rules through the engine (autogen included)."""

from __future__ import annotations

import time

import pytest

from ciso.engines.kyverno.autogen import autogen_rules
from ciso.engines.kyverno.cel.program import CelError, compile_expression, evaluate
from ciso.engines.kyverno.cel.syntax import comprehension_depth, rewrite_optional_syntax
from ciso.engines.kyverno.engine import Context, apply

POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "web", "namespace": "team-a", "labels": {"app": "web"}},
    "spec": {
        "containers": [
            {
                "name": "nginx",
                "image": "registry.io/nginx:1.25",
                "resources": {"limits": {"memory": "1Gi", "cpu": "500m"}},
                "volumeMounts": [{"name": "logs", "mountPath": "/var/log", "readOnly": True}],
            }
        ],
        "volumes": [{"name": "logs", "hostPath": {"path": "/var/log"}}],
    },
}


# -- syntax ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "rewritten"),
    [
        ("a.?b.?c", 'a._opt_select("b")._opt_select("c")'),
        ('m[?"k"].orValue(1)', 'm._opt_index("k")._or_value(1)'),
        ("l[?0].hasValue()", "l._opt_index(0).hasValue()"),
        ("'.?x' + \"[?y]\" + a.b", "'.?x' + \"[?y]\" + a.b"),  # strings untouched
        ("a[b[?c]]", "a[b._opt_index(c)]"),
    ],
)
def test_optional_syntax_is_rewritten_outside_strings(source, rewritten):
    assert rewrite_optional_syntax(source) == rewritten


@pytest.mark.parametrize(
    ("source", "depth"),
    [("a.size() > 1", 0), ("a.all(x, x > 1)", 1), ("a.all(x, x.b.exists(y, y.map(z, z)))", 3)],
)
def test_comprehension_depth(source, depth):
    assert comprehension_depth(source) == depth


# -- libraries, one block each --------------------------------------------------------------------

BINDINGS = {"object": POD}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # optional types
        ("object.?spec.?hostNetwork.orValue(false)", False),
        ("object.?spec.?containers.orValue([]).size()", 1),
        ("object.spec.containers[0].volumeMounts.orValue([]).size()", 1),  # plain receiver
        ('object.metadata.labels[?"app"].orValue("")', "web"),
        ('object.metadata.labels[?"tier"].hasValue()', False),
        ("object.spec.containers[?3].hasValue()", False),
        ("optional.none().orValue(7)", 7),
        # strings
        ('object.spec.containers[0].image.split(":")', ["registry.io/nginx", "1.25"]),
        ('"a:b:c".split(":", 2)', ["a", "b:c"]),
        ('["a", "b"].join("-")', "a-b"),
        ('"Net_Admin".upperAscii()', "NET_ADMIN"),
        ('"hello".substring(1, 3)', "el"),
        ('"hello".indexOf("l")', 2),
        ('"  x ".trim()', "x"),
        ('"a.b.c".replace(".", "/")', "a/b/c"),
        # lists
        ("[1, 2, 3].isSorted()", True),
        ("[3, 1].isSorted()", False),
        ("[4, 9, 2].max()", 9),
        ("[4, 9, 2].min()", 2),
        ("[1, 2, 3].sum()", 6),
        # regex
        ('"image:v1.2".find("v[0-9.]+")', "v1.2"),
        ('"a1b22c333".findAll("[0-9]+")', ["1", "22", "333"]),
        ('"abc".find("z")', ""),
        # quantity
        ('quantity(object.spec.containers[0].resources.limits.memory) == quantity("1024Mi")', True),
        ('quantity("500m").isLessThan(quantity("1"))', True),
        ('quantity("2Gi").isGreaterThan(quantity("3Gi"))', False),
        ('quantity("1k").asInteger()', 1000),
        ('quantity("1.5").isInteger()', False),
        ('isQuantity("12Mi") && !isQuantity("12 Mi")', True),
        ('quantity("1").add(quantity("500m")).compareTo(quantity("1500m"))', 0),
    ],
)
def test_library_functions(source, expected):
    assert evaluate(source, BINDINGS) == expected


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ('quantity("ten")', "quantities must match"),
        ('"x".find("(a)\\\\1")', "invalid escape sequence: `\\1`"),
        ("[].max()", "empty list"),
        ('"abc".substring(2, 9)', "out of range"),
        ("object.spec.nothing", "no such key: nothing"),
        ("object.spec.containers.all(c,", "syntax error at 1:"),
        ("object.?", "'.?' must be followed by a field name"),
    ],
)
def test_errors_name_the_problem(source, problem):
    with pytest.raises(CelError) as info:
        evaluate(source, BINDINGS)
    assert problem in str(info.value)


def test_compile_cache_returns_the_same_program():
    source = "object.spec.containers.size() == 1"
    assert compile_expression(source) is compile_expression(source)
    assert compile_expression(source).nesting == 0


def test_hostile_nesting_is_rejected_before_it_runs():
    inner = "[" + ",".join(str(i) for i in range(50)) + "]"
    source = "".join(f"{inner}.all(x{i}, " for i in range(6)) + "true" + ")" * 6
    start = time.monotonic()
    with pytest.raises(CelError, match="exceeds the cost limit"):
        evaluate(source, BINDINGS)
    assert time.monotonic() - start < 0.5


def test_large_input_counts_in_the_cost():
    big = {"object": {"items": list(range(5000))}}
    assert evaluate("object.items.all(x, x >= 0)", big) is True
    with pytest.raises(CelError, match="5000 elements"):
        evaluate("object.items.all(x, object.items.all(y, x != y || true))", big)


# -- validate.cel rules through the engine ---------------------------------------------------------


def _policy(expressions, variables=None, preconditions=None, annotations=None):
    rule = {
        "name": "check",
        "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
        "validate": {"cel": {"expressions": expressions}},
    }
    if variables:
        rule["validate"]["cel"]["variables"] = variables
    if preconditions:
        rule["celPreconditions"] = preconditions
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "cel-policy", "annotations": annotations or {}},
        "spec": {"rules": [rule]},
    }


def _results(policy, resource=POD, ctx=None):
    return {(r.rule, r.kind): (r.status, r.message) for r in apply([policy], [resource], ctx)}


def test_validate_cel_pass_fail_and_messages():
    ok = _policy([{"expression": "object.spec.containers.all(c, has(c.resources.limits))"}])
    assert _results(ok)[("check", "Pod")][0] == "pass"
    failing = _policy(
        [
            {
                "expression": "object.spec.containers.all(c, !c.image.startsWith('registry.io/'))",
                "messageExpression": "'image ' + object.spec.containers[0].image + ' is denied'",
            }
        ]
    )
    assert _results(failing)[("check", "Pod")] == ("fail", "image registry.io/nginx:1.25 is denied")
    static = _policy([{"expression": "false", "message": "no."}])
    assert _results(static)[("check", "Pod")] == ("fail", "no.")
    default = _policy([{"expression": "1 == 2"}])
    assert _results(default)[("check", "Pod")] == ("fail", "failed expression: 1 == 2")


def test_validate_cel_variables_and_bindings():
    policy = _policy(
        [
            {"expression": "variables.names == ['nginx']"},
            {"expression": "namespaceObject.metadata.name == 'team-a'"},
            {"expression": "request.operation == 'CREATE' && oldObject == null"},
            {"expression": "request.namespace == object.metadata.namespace"},
        ],
        variables=[
            {"name": "ctrs", "expression": "object.spec.containers"},
            {"name": "names", "expression": "variables.ctrs.map(c, c.name)"},
        ],
    )
    assert _results(policy)[("check", "Pod")][0] == "pass"


def test_validate_cel_update_binds_the_old_object():
    policy = _policy([{"expression": "request.operation != 'UPDATE' || oldObject != null"}])
    ctx = Context(operation="UPDATE")
    assert _results(policy, ctx=ctx)[("check", "Pod")][0] == "pass"


def test_cel_preconditions_skip_the_rule():
    policy = _policy(
        [{"expression": "false"}],
        preconditions=[{"name": "only-db", "expression": "object.metadata.labels.app == 'db'"}],
    )
    assert _results(policy)[("check", "Pod")] == ("skip", "cel preconditions not met")


def test_an_evaluation_error_denies_and_names_the_expression():
    # Kyverno evaluates validate.cel as a ValidatingAdmissionPolicy with failurePolicy Fail
    policy = _policy([{"expression": "object.spec.nodeName == 'n1'"}])
    status, message = _results(policy)[("check", "Pod")]
    assert status == "fail"
    assert "validate.cel.expressions[0].expression" in message and "nodeName" in message
    non_bool = _policy([{"expression": "object.metadata.name"}])
    status, message = _results(non_bool)[("check", "Pod")]
    assert status == "fail" and "must evaluate to a bool" in message


def test_a_failed_variable_is_named_when_an_expression_reads_it():
    policy = _policy(
        [{"expression": "variables.broken == 1"}],
        variables=[{"name": "broken", "expression": "object.spec.missing"}],
    )
    status, message = _results(policy)[("check", "Pod")]
    assert status == "fail" and "variable 'broken' failed: no such key: missing" in message


def test_autogen_moves_cel_paths_under_the_pod_template():
    policy = _policy(
        [{"expression": "object.spec.containers.all(c, c.name != 'bad')"}],
        preconditions=[{"name": "p", "expression": "has(object.metadata.labels)"}],
    )
    by_name = {r["name"]: r for r in autogen_rules(policy)}
    controllers = by_name["autogen-check"]["validate"]["cel"]["expressions"][0]["expression"]
    assert controllers == "object.spec.template.spec.containers.all(c, c.name != 'bad')"
    cronjob = by_name["autogen-cronjob-check"]
    assert cronjob["validate"]["cel"]["expressions"][0]["expression"].startswith(
        "object.spec.jobTemplate.spec.template.spec.containers"
    )
    assert cronjob["celPreconditions"][0]["expression"] == (
        "has(object.spec.jobTemplate.spec.template.metadata.labels)"
    )
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "d", "namespace": "team-a", "labels": {"x": "y"}},
        "spec": {
            "template": {
                "metadata": {"labels": {"a": "b"}},
                "spec": {"containers": [{"name": "bad"}]},
            }
        },
    }
    assert _results(policy, deployment)[("autogen-check", "Deployment")][0] == "fail"


def test_lint_kyv007_names_file_line_and_problem(tmp_path):
    from ciso.lint.model import Options  # noqa: PLC0415 - lint is only needed here
    from ciso.lint.runner import lint_paths

    policy = tmp_path / "bad.yaml"
    policy.write_text(
        "apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata:\n  name: bad-cel\nspec:\n"
        "  rules:\n    - name: r\n      match:\n        any:\n        - resources:\n"
        "            kinds: [Pod]\n      validate:\n        cel:\n          expressions:\n"
        '            - expression: "object.spec.containers.all(c, c.name =="\n'
        '            - expression: "object.?spec.?x.orValue(1) == 1"\n'
    )
    run = lint_paths([policy], Options(), enable=["KYV007"], progress=False)
    findings = [f for f in run.findings if f.rule.id == "KYV007"]
    assert len(findings) == 1, findings
    assert findings[0].line == 15 and findings[0].level == "error"
    assert "expressions[0].expression: CEL syntax error at 1:40" in findings[0].message
