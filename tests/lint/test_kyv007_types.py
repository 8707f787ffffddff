"""KYV007's CEL type checker (ciso/lint/cel_types): per error class a fixture policy and the
exact findings (rule, line, message) it gives; valid constructs give none; the standard library
the checker declares is what the evaluator runs; and every CEL policy of the shared Kyverno
library (all valid) gives no finding at all."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from ciso.engines.kyverno.cel.libraries import FUNCTIONS as ENGINE_FUNCTIONS
from ciso.engines.kyverno.cel.program import evaluate
from ciso.lint.cel_types import Declarations, check_expression
from ciso.lint.cel_types.functions import STANDARD, library
from ciso.lint.cel_types.types import BOOL, DYN, INT, STRING
from ciso.lint.model import Options
from ciso.lint.runner import lint_paths
from tests._support.cli import SHARED

FIXTURES = Path(__file__).parent / "fixtures" / "kyv007"
CORPUS = SHARED / "corpora" / "kyverno-policies"
CEL_CATEGORIES = ("-cel", "-vpol", "-mpol", "-gpol", "-dpol")


def _kyv007(*paths: Path) -> list[tuple[str, int | None, str, str]]:
    run = lint_paths(list(paths), Options(), enable=["KYV007"], progress=False)
    return sorted(
        (Path(f.file).name, f.line, str(f.level), f.message)
        for f in run.findings
        if f.rule.id == "KYV007"
    )


VP = "ValidatingPolicy"
EXPECTED = {
    "unknown-identifier.yaml": [
        (
            7,
            f"{VP} unknown-identifier: spec.validations[0].expression: CEL type error at 1:1: "
            "undeclared reference to 'objct' (did you mean 'object'?)",
        ),
        # a ValidatingPolicy has no paramKind: params is not bound
        (
            8,
            f"{VP} unknown-identifier: spec.validations[1].expression: CEL type error at 1:1: "
            "undeclared reference to 'params'",
        ),
    ],
    "unknown-variable.yaml": [
        (
            10,
            f"{VP} unknown-variable: spec.validations[0].expression: CEL type error at 1:10: "
            "unknown variable 'variables.container' (did you mean 'containers'?)",
        ),
    ],
    "unknown-function.yaml": [
        (
            15,
            "ClusterPolicy unknown-function: spec.rules[0].validate.cel.expressions[0]"
            ".expression: CEL type error at 1:22: unknown function 'lowerAscci' "
            "(did you mean 'lowerAscii'?)",
        ),
        (
            16,
            "ClusterPolicy unknown-function: spec.rules[0].validate.cel.expressions[1]"
            ".expression: CEL type error at 1:22: split() takes 1 to 2 arguments besides its "
            "receiver, not 0",
        ),
        (
            17,
            "ClusterPolicy unknown-function: spec.rules[0].validate.cel.expressions[2]"
            ".expression: CEL type error at 1:10: unknown function 'resource.Gett' "
            "(did you mean 'resource.Get'?)",
        ),
    ],
    "type-mismatch.yaml": [
        (
            7,
            f"{VP} type-mismatch: spec.validations[0].expression: CEL type error at 1:1: "
            "no overload of size() takes (int)",
        ),
        (
            8,
            f"{VP} type-mismatch: spec.validations[1].expression: CEL type error at 1:5: "
            "no '+' between string and int",
        ),
        (
            9,
            f"{VP} type-mismatch: spec.validations[2].expression: CEL type error at 1:3: "
            "'==' compares values of one type, not int and string",
        ),
        (
            10,
            f"{VP} type-mismatch: spec.validations[3].expression: CEL type error at 1:2: "
            "'!' needs a bool, not string",
        ),
        (
            11,
            f"{VP} type-mismatch: spec.validations[4].expression: CEL type error at 1:29: "
            "no '*' between string and int",
        ),
    ],
    "result-type.yaml": [
        (
            8,
            f"{VP} result-type: spec.matchConditions[0].expression: CEL type error at 1:1: "
            "a condition must evaluate to bool, not int",
        ),
        (
            10,
            f"{VP} result-type: spec.validations[0].expression: CEL type error at 1:1: "
            "a condition must evaluate to bool, not string",
        ),
        (
            11,
            f"{VP} result-type: spec.validations[0].messageExpression: CEL type error at 1:1: "
            "a message must evaluate to string, not int",
        ),
        # line 2 of a '|' block scalar is the file's line 14
        (
            14,
            f"{VP} result-type: spec.validations[1].expression: CEL type error at 2:5: "
            "no '+' between string and int",
        ),
    ],
    "request-field.yaml": [
        (
            7,
            f"{VP} request-field: spec.validations[0].expression: CEL type error at 1:8: "
            "kubernetes.AdmissionRequest has no field 'opration' (did you mean 'operation'?)",
        ),
    ],
    "valid-constructs.yaml": [],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_fixture_gives_exactly_its_findings(name):
    expected = sorted((name, line, "error", message) for line, message in EXPECTED[name])
    assert _kyv007(FIXTURES / name) == expected


def test_every_fixture_is_listed():
    assert {p.name for p in FIXTURES.glob("*.yaml")} == set(EXPECTED)


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("size(1) > 0", "no overload of size() takes (int)"),
        ("'a' + 1 == 'a1'", "no '+' between string and int"),
        ("1 == 'a'", "'==' compares values of one type, not int and string"),
        ("!'x'", "'!' needs a bool, not string"),
        ("'a' - 'b' == ''", "no '-' between string and string"),
        ("'x'", "a condition must evaluate to bool, not string"),
        ("size(object.spec)", "a condition must evaluate to bool, not int"),
        ("object.a.contains()", "contains() takes 1 argument besides its receiver, not 0"),
        ("contains('a', 'b')", "'contains' is a method: call x.contains(...)"),
        ("1.int() == 1", "'int' is a function, not a method: call int(x)"),
        ("'abc'[0] == 'a'", "cannot index a string"),
        ("[1, 2].all(x, x)", "the predicate of all() needs a bool, not int"),
        ("'abc'.exists(c, c == 'a')", "exists() ranges over a list or map, not string"),
        ("has(object)", "has() takes one field selection, e.g. has(object.spec)"),
        ("true ? 1 : 'a'", "the branches of '? :' have different types: int and string"),
        ("'a' in 'abc'", "'in' needs a list or map on its right, not string"),
        ("1 in ['a']", "'in' a list(string): its elements are string, not int"),
        ("'a'.size.x == 1", "cannot select field 'size' of a string"),
        # cel-go's math extension has no pow (math.greatest is the engine's: libraries/math.py)
        ("math.pow(2, 2) == 4", "unknown function 'math.pow'"),
        ("cel.bind(n, 'a', n + 1 == 2)", "no '+' between string and int"),
    ],
)
def test_type_errors_by_class(source, problem):
    declarations = Declarations({"object": DYN})
    result = check_expression(source, declarations, BOOL)
    assert result is not None, source
    assert [p.message for p in result[1]] == [problem]


@pytest.mark.parametrize(
    ("source", "declared", "expected"),
    [
        ("object.spec.containers.map(c, c.name)", {}, "list(dyn)"),
        ("[1, 2].map(x, x * 2)", {}, "list(int)"),
        ("[1, 2].map(x, x > 1, string(x))", {}, "list(string)"),
        ("['a'].filter(s, s.startsWith('a'))", {}, "list(string)"),
        ("{'a': 1}.exists(k, k == 'a')", {}, "bool"),
        ("[1].all(i, v, i == 0 && v == 1)", {}, "bool"),
        ("object.?spec.?replicas.orValue(1)", {}, "dyn"),
        ("optional.of('a').orValue('b')", {}, "string"),
        ("variables.n + 1", {"n": INT}, "int"),
        ("variables.s.split(',')", {"s": STRING}, "list(string)"),
        ("has(object.spec) ? object.spec : null", {}, "dyn"),
        ("cel.bind(x, 'a', x + 'b')", {}, "string"),
        ("request.userInfo.groups", {}, "list(string)"),
        ("namespaceObject.metadata.labels", {}, "map(string, string)"),
        ("timestamp('2020-01-01T00:00:00Z') + duration('1h')", {}, "timestamp"),
        ("object.x == null", {}, "bool"),
    ],
)
def test_valid_constructs_have_no_problem_and_their_type(source, declared, expected):
    from ciso.lint.cel_types.declarations import BINDINGS

    result = check_expression(source, Declarations(BINDINGS["ValidatingPolicy"], declared))
    assert result is not None, source
    found, problems = result
    assert problems == [], source
    assert str(found) == expected


def _sample_calls() -> dict[str, str]:
    """One call per standard function, in the style the checker declares for it."""
    ts, d = "timestamp('2020-01-01T00:00:00Z')", "duration('1s')"
    calls = {
        "size": "size('ab')",
        "contains": "'ab'.contains('a')",
        "startsWith": "'ab'.startsWith('a')",
        "endsWith": "'ab'.endsWith('b')",
        "matches": "'ab'.matches('^a')",
        "int": "int('1')",
        "uint": "uint(1)",
        "double": "double(1)",
        "string": "string(1)",
        "bytes": "bytes('a')",
        "timestamp": ts,
        "duration": d,
        "dyn": "dyn(1)",
        "type": "type(1)",
        "optional.of": "optional.of(1)",
        "optional.ofNonZeroValue": "optional.ofNonZeroValue(1)",
        "optional.none": "optional.none()",
        "hasValue": "optional.of(1).hasValue()",
        "value": "optional.of(1).value()",
        "or": "optional.none().or(optional.of(1))",
        "orValue": "optional.none().orValue(1)",
    }
    for getter in ("getFullYear", "getMonth", "getDayOfYear", "getDayOfMonth", "getDate"):
        calls[getter] = f"{ts}.{getter}()"
    for getter in ("getDayOfWeek", "getHours", "getMinutes", "getSeconds", "getMilliseconds"):
        calls[getter] = f"{d}.{getter}()" if getter != "getDayOfWeek" else f"{ts}.{getter}()"
    return calls


def test_the_declared_standard_library_is_what_the_evaluator_runs():
    calls = _sample_calls()
    assert set(calls) == set(STANDARD)  # a new declaration needs a sample here
    for name, source in calls.items():
        evaluate(source, {})  # raises CelError when the evaluator lacks it
        result = check_expression(source, Declarations({}))
        assert result is not None and result[1] == [], (name, result)


def test_every_engine_library_function_is_known_with_its_python_arity():
    known = library()
    for name in ENGINE_FUNCTIONS:
        if not name.startswith("_"):
            assert name in known, name
    # split(text, sep, limit=-1): one or two arguments after the receiver
    assert (known["split"].least, known["split"].most) == (2, 3)
    problems = check_expression("'a,b'.split(',', 1, 2)", Declarations({}))
    assert problems is not None
    assert [p.message for p in problems[1]] == [
        "split() takes 1 to 2 arguments besides its receiver, not 3"
    ]


def test_an_expression_the_checker_cannot_parse_claims_nothing():
    assert check_expression("a.b(", Declarations({})) is None


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"shared Kyverno library not present at {CORPUS}")
def test_every_cel_policy_of_the_shared_library_type_checks_clean():
    """All of them are valid Kyverno policies, so any finding is a false positive."""
    import ciso.lint.rules.kyverno_cel as rule

    files = sorted(
        f
        for category in CORPUS.iterdir()
        if category.name.endswith(CEL_CATEGORIES)
        for f in category.rglob("*")
        if f.suffix in (".yaml", ".yml")
    )
    checked: list[str] = []
    original = rule.check_expression

    def counting(source, declarations, expected=None):
        result = original(source, declarations, expected)
        checked.append("checked" if result is not None else "unparsed")
        return result

    rule.check_expression = counting
    try:
        start = time.perf_counter()
        run = lint_paths(files, Options(), enable=["KYV007"], progress=False)
        elapsed = time.perf_counter() - start
    finally:
        rule.check_expression = original
    per_file = {}
    for finding in run.findings:
        if finding.rule.id == "KYV007":
            per_file.setdefault(finding.file, []).append(finding.message)
    assert per_file == {}
    assert checked.count("unparsed") == 0
    assert checked.count("checked") >= 400, len(checked)  # the library had 485 when written
    print(f"KYV007: {len(checked)} expressions in {len(files)} files, {elapsed:.2f} s")
