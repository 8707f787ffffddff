"""Both embedded backends, the opa CLI backend (through a fake executable), v0 handling and the
killable pool."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from ciso.engines.rego import UNDEFINED, RegoError
from ciso.engines.rego.backends.opa_golib import OpaGolib
from ciso.engines.rego.backends.opa_golib import available as golib_available
from ciso.engines.rego.backends.regorus_backend import Regorus
from ciso.engines.rego.pool import RegoPool
from ciso.engines.rego.select import V0Rewriting
from ciso.engines.rego.v0 import rewrite_v0
from tests._support.cli import SHARED, run_cli

FIXTURES = Path(__file__).parent / "fixtures"
needs_golib = pytest.mark.skipif(
    not golib_available(), reason="opa-golib-python-bindings is not installed (x86-64 Linux only)"
)
RHEL = SHARED / "corpora" / "itbench" / "ciso" / "3.gen-cis-b-rhel9-ansible-opa" / "examples"

V1 = {
    "p.rego": "package check\nimport rego.v1\ndefault result := true\nresult := false if input.bad\n"
}


def _backends():
    out = [Regorus()]
    if golib_available():
        out.append(OpaGolib())
    return out


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: b.name)
def test_false_true_and_undefined_are_distinct(backend):
    assert backend.evaluate(V1, "data.check.result", {"bad": True}).value is False
    assert backend.evaluate(V1, "data.check.result", {}).value is True
    missing = backend.evaluate(V1, "data.check.nothing", {})
    assert missing.value is UNDEFINED and not missing.defined and missing.results == []


@pytest.mark.parametrize("backend", _backends(), ids=lambda b: b.name)
def test_parse_errors_carry_file_and_line(backend):
    with pytest.raises(RegoError) as info:
        backend.evaluate({"broken.rego": "package x\n\nfoo := \n"}, "data.x.foo")
    first = info.value.diagnostics[0]
    assert first.file.endswith("broken.rego") and first.line in (3, 4)
    assert first.code == "rego_parse_error"


@needs_golib
def test_type_errors_surface_on_compile_with_file_and_line():
    diagnostics = OpaGolib().check(
        {"t.rego": 'package y\nimport rego.v1\np := x if { x := 1 + "a" }\n'}
    )
    assert [(d.file, d.line, d.code) for d in diagnostics] == [("t.rego", 3, "rego_type_error")]


def test_regorus_v0_mode_and_opa_v1_rejection():
    v0 = {"v0.rego": "package z\np { input.x == 1 }\n"}
    assert Regorus(v0=True).evaluate(v0, "data.z.p", {"x": 1}).value is True
    with pytest.raises(RegoError):
        Regorus().evaluate(v0, "data.z.p", {"x": 1})


def _gatekeeper_modules() -> dict[str, str]:
    return {str(p): p.read_text() for p in sorted((FIXTURES / "v0").glob("*.rego"))}


REVIEW = {
    "review": {
        "object": {
            "metadata": {"labels": {"team": "a"}},
            "spec": {
                "containers": [{"name": "ok", "image": "good.io/x"}],
                "initContainers": [{"name": "init", "image": "evil.io/y"}],
            },
        }
    }
}


@needs_golib
@pytest.mark.parametrize(
    ("query", "input", "expected"),
    [
        (
            "data.k8srequiredlabels.violation",
            {**REVIEW, "parameters": {"labels": ["team", "owner"]}},
            [
                {
                    "msg": 'you must provide labels: {"owner"}',
                    "details": {"missing_labels": ["owner"]},
                }
            ],
        ),
        ("data.k8srequiredlabels.violation", {**REVIEW, "parameters": {"labels": ["team"]}}, []),
        (
            "data.k8sallowedrepos.violation",
            {**REVIEW, "parameters": {"repos": ["good.io/"]}},
            [{"msg": "container <init> has an invalid image repo <evil.io/y>"}],
        ),
        ("data.multibody.risky", {"hostPID": True}, True),
        ("data.multibody.risky", {"privileged": True}, True),
        ("data.multibody.risky", {}, UNDEFINED),
        # OPA evaluates the undefined argument outside the negation: the rule is undefined
        ("data.multibody.unlabelled", {"labels": {"a": "b"}}, UNDEFINED),
    ],
    ids=[
        "labels-missing",
        "labels-ok",
        "repos-lib",
        "multibody-2",
        "multibody-3",
        "multibody-none",
        "not-undefined-arg",
    ],
)
def test_gatekeeper_style_v0_evaluates_as_opa_does(query, input, expected):
    result = V0Rewriting(OpaGolib()).evaluate(_gatekeeper_modules(), query, input)
    assert result.value == expected if expected is not UNDEFINED else result.value is UNDEFINED


def test_regorus_deviates_on_not_with_an_undefined_argument():
    """Why v0 goes through the rewriter and real OPA: regorus answers true where OPA is undefined."""
    modules = {"m.rego": (FIXTURES / "v0" / "multi_body.rego").read_text()}
    assert (
        Regorus(v0=True).evaluate(modules, "data.multibody.unlabelled", {"labels": {}}).value
        is True
    )


def test_v0_rewrite_shapes():
    rewritten = rewrite_v0(
        'package a\np { false } { true }\ns[x] { x := 1 }\no[k] = v { v := 1; k := "a" }\nq = 1 { true } else = 2 { true }\n'
    )
    # the second body becomes a second rule on the same row, so rows keep pointing at the source
    assert "\np if { false } p if { true }\n" in rewritten
    assert rewritten.count("\n") == 5
    assert "s contains x if {" in rewritten
    assert "o[k] = v if {" in rewritten
    assert "else = 2 if {" in rewritten


def test_itbench_v0_example_evaluates_with_v0_compatible():
    if not RHEL.exists():
        pytest.skip("../shared is absent")
    args = [
        "rego",
        "eval",
        "-d",
        str(RHEL / "example_policy.rego"),
        "-i",
        str(RHEL / "example_collected_data.json"),
        "data.check.result",
        "--format",
        "raw",
    ]
    plain = run_cli(args)
    assert plain.returncode == 3 and "example_policy.rego:5" in plain.stderr
    v0 = run_cli([*args, "--v0-compatible"])
    assert v0.returncode == 0 and v0.stdout.strip() == "false"


def test_a_policy_that_never_finishes_is_an_error_within_the_limit():
    slow = {
        "slow.rego": "package x\nimport rego.v1\np if { every i in numbers.range(1, 100000) { every j in numbers.range(1, 100000) { i + j > 0 } } }\n"
    }
    with RegoPool(timeout_s=1.5) as pool:
        started = time.monotonic()
        with pytest.raises(RegoError, match="rego_timeout"):
            pool.evaluate(slow, "data.x.p", engine="regorus")
        assert time.monotonic() - started < 10
        # the pool replaced the killed worker
        assert (
            pool.evaluate(V1, "data.check.result", {"bad": True}, engine="regorus").value is False
        )


def test_memory_hungry_policy_is_an_error():
    hungry = {
        "big.rego": "package x\nimport rego.v1\np := count([i | some i in numbers.range(1, 1000000000)])\n"
    }
    with RegoPool(timeout_s=20, memory_bytes=1 * 2**30) as pool:
        # the limit leaves room for ordinary policies: the failure below is the policy's own
        assert (
            pool.evaluate(V1, "data.check.result", {"bad": True}, engine="regorus").value is False
        )
        with pytest.raises(RegoError, match="rego_resource_error|rego_eval_error"):
            pool.evaluate(hungry, "data.x.p", engine="regorus")


# The opa CLI backend is tested in test_rego_opa_cli.py against recorded answers.
