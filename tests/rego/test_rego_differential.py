"""Differential fidelity: every Rego file the project ships, plus random inputs, through both
embedded backends; any disagreement fails. (Derandomized hypothesis; the shipped policies use no
builtin regorus lacks, which the first test checks.)

An error is an outcome like a value: two backends agree on it only when both report the same
class of error (parse, unsafe, recursion, type, conflict, eval; ``model.error_class``) at the same
file and row — "both failed" is not agreement."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ciso.engines.rego.backends.opa_golib import available as golib_available
from ciso.engines.rego.backends.regorus_backend import MISSING_BUILTINS
from ciso.engines.rego.model import Diagnostic, RegoError, error_class, parse_opa_errors
from tests._support.cli import REPO

pytestmark = pytest.mark.skipif(
    not golib_available(), reason="needs both embedded backends (opa-golib is x86-64 Linux only)"
)

# reference policies: Kubernetes ones under policies/, RHEL ones beside their playbooks
SHIPPED = sorted(p for root in ("policies", "playbooks") for p in (REPO / root).rglob("*.rego"))
POLICY_DIRS = sorted({p.parent for p in SHIPPED})


def _modules(folder: Path) -> dict[str, str]:
    return {str(p): p.read_text() for p in sorted(folder.glob("*.rego"))}


def _backends():
    from ciso.engines.rego.backends.opa_golib import OpaGolib
    from ciso.engines.rego.backends.regorus_backend import Regorus

    return OpaGolib(), Regorus()


def test_shipped_policies_avoid_builtins_regorus_lacks():
    assert SHIPPED, "the project ships Rego policies"
    for path in SHIPPED:
        text = path.read_text()
        assert not [b for b in MISSING_BUILTINS if b in text], path


@pytest.mark.parametrize("folder", POLICY_DIRS, ids=lambda p: p.name)
def test_every_test_rule_agrees(folder):
    from ciso.engines.rego.testing import run_tests

    golib, regorus = _backends()
    modules = _modules(folder)
    a, b = run_tests(golib, modules), run_tests(regorus, modules)
    assert [_case(c) for c in a.cases] == [_case(c) for c in b.cases]


def _case(case) -> tuple:  # noqa: ANN001 - a TestCase
    """A test's outcome; an error with its class and place (its message is "file:row:col: ...")."""
    if case.status != "error":
        return (case.name, case.status)
    return (case.name, "error", *_where(parse_opa_errors(case.message)[0]))


def _where(diagnostic: Diagnostic) -> tuple[str, str, int | None]:
    return (error_class(diagnostic), Path(diagnostic.file).name, diagnostic.line)


def _outcome(backend, modules: dict[str, str], query: str, value=None) -> tuple:
    try:
        return ("value", backend.evaluate(modules, query, value).value)
    except RegoError as exc:
        return ("error", *_where(exc.diagnostics[0]))


container = st.fixed_dictionaries(
    {"name": st.text(alphabet="abc", min_size=1, max_size=3)},
    optional={
        "image": st.sampled_from(["nginx", "registry.io/app:1", ""]),
        "securityContext": st.fixed_dictionaries(
            {}, optional={"privileged": st.one_of(st.booleans(), st.none(), st.just("true"))}
        ),
    },
)
pod_spec = st.fixed_dictionaries(
    {"containers": st.lists(container, max_size=3)},
    optional={
        "hostNetwork": st.one_of(st.booleans(), st.none(), st.just(1)),
        "initContainers": st.lists(container, max_size=2),
    },
)
workload = st.one_of(
    st.builds(lambda spec: {"kind": "Pod", "spec": spec}, pod_spec),
    st.builds(lambda spec: {"kind": "Deployment", "spec": {"template": {"spec": spec}}}, pod_spec),
    st.builds(
        lambda spec: {
            "kind": "CronJob",
            "spec": {"jobTemplate": {"spec": {"template": {"spec": spec}}}},
        },
        pod_spec,
    ),
)
k8s_input = st.one_of(
    workload,
    st.builds(lambda items: {"kind": "List", "items": items}, st.lists(workload, max_size=4)),
)
sshd_input = st.one_of(
    st.builds(
        lambda v: {"x11_forwarding": v},
        st.sampled_from(
            [
                "X11Forwarding yes",
                "X11Forwarding no",
                "X11Forwarding not set",
                "  x11forwarding YES ",
                "",
                "PermitRootLogin yes",
            ]
        ),
    ),
    st.just({}),
    st.builds(lambda v: {"x11_forwarding": v}, st.integers()),
)


def _agree(folder: Path, value) -> None:
    golib, regorus = _backends()
    modules = {k: v for k, v in _modules(folder).items() if not k.endswith("_test.rego")}
    outcomes = [_outcome(b, modules, "data.check.result", value) for b in (golib, regorus)]
    assert outcomes[0] == outcomes[1], (folder.name, value, outcomes)


@pytest.mark.parametrize(
    "folder", [d for d in POLICY_DIRS if "k8s" in d.name], ids=lambda p: p.name
)
@settings(derandomize=True, max_examples=60, deadline=None)
@given(value=k8s_input)
def test_k8s_policies_agree_on_random_inputs(folder, value):
    _agree(folder, value)


@pytest.mark.parametrize(
    "folder", [d for d in POLICY_DIRS if "rhel9" in d.name], ids=lambda p: p.name
)
@settings(derandomize=True, max_examples=40, deadline=None)
@given(value=sshd_input)
def test_rhel9_policies_agree_on_random_inputs(folder, value):
    _agree(folder, value)


# -- errors are compared by class and place ----------------------------------------------------

ERRORS = {
    "parse": ("package e\nimport rego.v1\np := \n", "data.e.p", ("parse", "e.rego", 4)),
    "unsafe": ("package e\nimport rego.v1\np if {\n  x\n}\n", "data.e.p", ("unsafe", "e.rego", 4)),
    # OPA finds the bad operand when type checking, regorus when evaluating: same class and row
    "type": (
        'package e\nimport rego.v1\np := x if {\n  x := 1 + "a"\n}\n',
        "data.e.p",
        ("type", "e.rego", 4),
    ),
    "recursion": (
        "package e\nimport rego.v1\np := q\nq := p\n",
        "data.e.p",
        ("recursion", "e.rego", 3),
    ),
    "conflict": (
        "package e\nimport rego.v1\np := 1\np := 2\n",
        "data.e.p",
        ("conflict", "e.rego", 4),
    ),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_both_backends_report_the_same_error_class_and_row(name):
    source, query, expected = ERRORS[name]
    golib, regorus = _backends()
    outcomes = [_outcome(b, {"e.rego": source}, query) for b in (golib, regorus)]
    assert outcomes == [("error", *expected)] * 2


def test_an_error_at_another_place_is_a_disagreement():
    """A function producing two outputs: OPA blames the second definition (row 4), regorus the
    query. Both "errored" with a conflict, which the old comparison took for agreement."""
    golib, regorus = _backends()
    modules = {"e.rego": "package e\nimport rego.v1\nf(_) := 1\nf(_) := 2\n"}
    opa, rust = (_outcome(b, modules, "data.e.f(1)") for b in (golib, regorus))
    assert opa == ("error", "conflict", "e.rego", 4)
    assert rust[:2] == ("error", "conflict") and rust != opa


@pytest.mark.parametrize(
    ("code", "message", "expected"),
    [
        ("rego_parse_error", "unexpected eof token", "parse"),
        ("rego_type_error", "conflicting rules data.x.p found", "conflict"),
        ("eval_conflict_error", "complete rules must not produce multiple outputs", "conflict"),
        ("rego_type_error", "plus: invalid argument(s)", "type"),
        ("eval_type_error", "count: operand 1 must be one of {array, object, set, string}", "type"),
        ("eval_builtin_error", "div: divide by zero", "eval"),
        ("rego_timeout", "evaluation exceeded the 1 s time limit", "timeout"),
    ],
)
def test_error_classes(code, message, expected):
    assert error_class(Diagnostic("p.rego", 1, 1, code, message)) == expected


def test_compile_errors_come_in_source_order_whatever_gos_map_order():
    # OPA reports the cycle p -> q -> p from p or from q depending on Go map iteration (about one
    # run in twenty from q); the first error shown must not change between runs.
    golib, _ = _backends()
    source, query, _ = ERRORS["recursion"]
    seen = {
        tuple((d.line, d.message) for d in _errors(golib, {"e.rego": source}, query))
        for _ in range(60)
    }
    assert len(seen) == 1, seen
    (errors,) = seen
    assert [line for line, _ in errors] == [3, 4]


def _errors(backend, modules: dict[str, str], query: str) -> list[Diagnostic]:
    with pytest.raises(RegoError) as caught:
        backend.evaluate(modules, query)
    return caught.value.diagnostics
