"""The baseline's translators write their CEL literals and field selections one way
(``ciso/agents/baseline/migrate/cel_text.py``): a field named by a CEL reserved word is indexed,
never selected with a dot, and a string with a line break, a control character or a character
past the Basic Multilingual Plane is escaped as CEL reads it. Each policy here goes through the
translator and our CEL engine, and must fail the same resources as its source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from ciso.agents.baseline.migrate import cel_text
from ciso.agents.baseline.migrate.from_rego import from_rego
from ciso.agents.baseline.migrate.source import translate_documents
from ciso.engines.kyverno.cel import program as cel_program
from ciso.evaluation import rego_source
from ciso.evaluation.kyverno_engines import select_scanner
from ciso.evaluation.kyverno_migrate import _flagged

#: reserved words our CEL engine rejects after a dot, and ones it accepts (cel-go does not)
RESERVED_KEYS = ["in", "true", "null", "namespace", "if", "import"]
TWO_LINES = "line one\nline two"


def _config_map(name: str, data: dict[str, str]) -> dict:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": "shop"},
        "data": data,
    }


def _objects(key: str) -> list[dict]:
    return [
        _config_map("key-safe", {key: "safe-1"}),
        _config_map("key-bad", {key: "bad"}),
        _config_map("key-absent", {"other": "x"}),
        _config_map("note-two-lines", {"note": TWO_LINES}),
        _config_map("note-other", {"note": "line one"}),
        _config_map("denied", {key: "forbidden", "other": "x"}),
    ]


def _cluster_policy(key: str) -> list[dict]:
    """A pattern whose keys are ``key`` and ``note`` (one value with a line break), and a deny
    condition reading ``request.object.data.<key>`` through JMESPath."""
    text = f"""
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {{name: reserved-keys}}
spec:
  validationFailureAction: Audit
  background: true
  rules:
    - name: pattern
      match: {{any: [{{resources: {{kinds: [ConfigMap]}}}}]}}
      validate:
        message: checked
        pattern:
          data:
            "=({key})": "safe-*"
            "=(note)": {json.dumps(TWO_LINES)}
    - name: deny
      match: {{any: [{{resources: {{kinds: [ConfigMap]}}}}]}}
      validate:
        message: denied
        deny:
          conditions:
            any:
              - key: "{{{{ request.object.data.{key} || '' }}}}"
                operator: Equals
                value: forbidden
"""
    return [d for d in yaml.safe_load_all(text) if d]


@pytest.mark.parametrize("key", RESERVED_KEYS)
def test_a_reserved_word_key_and_a_two_line_value_keep_their_verdicts(key: str) -> None:
    source = _cluster_policy(key)
    assert source[0]["spec"]["rules"][0]["validate"]["pattern"]["data"]["=(note)"] == TWO_LINES
    _, target, answer = translate_documents(source)
    assert target == "validating-policy"
    expressions = [v["expression"] for p in answer for v in p["spec"]["validations"]]
    for expression in expressions:
        cel_program.compile_expression(expression)  # CelError when it is not CEL
        assert f"data.{key}" not in expression and f"data.?{key}" not in expression, expression
    scanner = select_scanner("itbench")
    objects = _objects(key)
    want = _flagged(scanner, source, objects)
    assert {r.name for r in want} == {"key-bad", "note-other", "denied"}, key
    assert _flagged(scanner, answer, objects) == want, key


REGO = """package check

import rego.v1

default result := true

result := false if input.data["KEY"] == "forbidden"

result := false if input.data.note == "TEXT"
"""


@pytest.mark.parametrize("key", RESERVED_KEYS)
@pytest.mark.parametrize("text", [TWO_LINES, "tab\there", "emoji \U0001f600", 'quote " and \\'])
def test_rego_reading_a_reserved_word_field_and_an_odd_string_keeps_its_verdicts(
    key: str, text: str
) -> None:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    rego = REGO.replace("KEY", key).replace("TEXT", escaped.replace("\t", "\\t"))
    answer = from_rego(Path("check.rego"), rego, "validating-policy")
    (validation,) = answer[0]["spec"]["validations"]
    cel_program.compile_expression(validation["expression"])
    objects = [
        _config_map("forbidden", {key: "forbidden"}),
        _config_map("allowed", {key: "fine"}),
        _config_map("odd-note", {"note": text}),
        _config_map("plain-note", {"note": "plain"}),
    ]
    want = rego_source.violations(rego, objects)
    assert {r.name for r in want} == {"forbidden", "odd-note"}, (key, text)
    assert _flagged(select_scanner("itbench"), answer, objects) == want, (key, text)


@pytest.mark.parametrize(
    "value",
    ["a\nb", "\x00\x01\x1f\x7f\x85", "\u2028", "\U0001f600", '"\\', "é", "", "'"],
)
def test_every_string_literal_reads_back_as_itself(value: str) -> None:
    assert cel_program.evaluate(cel_text.literal(value), {}) == value


@pytest.mark.parametrize("name", sorted(cel_text.RESERVED) + ["app.kubernetes.io/name", "x"])
def test_every_field_selection_is_cel(name: str) -> None:
    obj = {name: 7}
    assert cel_program.evaluate(cel_text.has("o", name), {"o": obj}) is True
    assert cel_program.evaluate(cel_text.field("o", name), {"o": obj}) == 7
    got = cel_program.evaluate(f"{cel_text.optional_field('o', name)}.orValue(0)", {"o": obj})
    assert got == 7
    assert cel_program.evaluate(cel_text.has("o", name), {"o": {}}) is False


# -- sprintf: a message's text only ----------------------------------------------------------

TEMPLATE = """
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: k8snoteset}
spec:
  crd: {spec: {names: {kind: K8sNoteSet}}}
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package k8snoteset

        violation[{"msg": msg}] {
          note := input.review.object.data.note
          BODY
        }
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sNoteSet
metadata: {name: note-set}
spec:
  match: {kinds: [{apiGroups: [""], kinds: [ConfigMap]}]}
"""


def _template(body: str) -> list[dict]:
    text = TEMPLATE.replace("BODY", body.replace("\n", "\n          "))
    return [d for d in yaml.safe_load_all(text) if d]


def _notes() -> list[dict]:
    return [
        _config_map("note-bad", {"note": "bad"}),
        _config_map("note-good", {"note": "good"}),
        _config_map("no-note", {"other": "x"}),
    ]


@pytest.mark.parametrize(
    "body",
    [
        'note == "bad"\nmsg := sprintf("the note is %v", [note])',
        'msg := sprintf("the note of %v is %v", [input.review.object.metadata.name, note])\n'
        'note != "good"',
        'note == "bad"\ndetail := sprintf("%v", [note])\nmsg := sprintf("note: %v", [detail])',
    ],
)
def test_sprintf_only_for_the_message_translates_with_the_same_verdicts(body: str) -> None:
    from ciso.agents.baseline.migrate.from_rego import from_gatekeeper

    source = _template(body)
    answer = from_gatekeeper(Path("template.yaml"), source, "validating-policy")
    scanner = select_scanner("itbench")
    want = _flagged(scanner, source, _notes())
    assert {r.name for r in want} == {"note-bad"}, body
    assert _flagged(scanner, answer, _notes()) == want, body


@pytest.mark.parametrize(
    ("body", "use"),
    [
        ('sprintf("%v", [note]) == "bad"\nmsg := "the note is bad"', "compared (==)"),
        ('s := sprintf("%v!", [note])\ns != "good!"\nmsg := s', "compared (!=)"),
        ('contains(sprintf("note=%v", [note]), "bad")\nmsg := "bad"', "passed to contains"),
        ('s := sprintf("%v", [note])\nstartswith(s, "ba")\nmsg := s', "passed to startswith"),
        ('s := sprintf("%v", [note])\n{"bad", "worse"}[s]\nmsg := s', "compared"),
    ],
)
def test_sprintf_text_that_is_tested_stops_the_translation(body: str, use: str) -> None:
    """The source flags note-bad only; a translation reading sprintf's text as a constant would
    flag everything or nothing, so it stops and says why."""
    from ciso.agents.baseline.migrate.from_rego import from_gatekeeper
    from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable

    source = _template(body)
    assert {r.name for r in _flagged(select_scanner("itbench"), source, _notes())} == {"note-bad"}
    with pytest.raises(NotTranslatable, match="the text sprintf builds") as caught:
        from_gatekeeper(Path("template.yaml"), source, "validating-policy")
    assert use in str(caught.value), body


# -- the Rego is parsed by the Rego engine's regorus backend --------------------------------


def test_rego_that_does_not_parse_is_named_by_the_engines_diagnostic() -> None:
    """One line naming file, line and column as ``itbench rego`` does (the backend's diagnostic),
    never regorus's raw text with its source excerpt or a Rust backtrace."""
    from ciso.agents.baseline.migrate.from_rego import from_gatekeeper
    from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable

    with pytest.raises(NotTranslatable) as caught:
        from_rego(Path("check.rego"), "package check\nresult := false if {{", "validating-policy")
    assert str(caught.value) == (
        "check.rego: the Rego does not parse: check.rego:2:22: rego_parse_error: "
        "expecting expression"
    )
    with pytest.raises(NotTranslatable) as caught:
        from_gatekeeper(Path("template.yaml"), _template("msg := {"), "validating-policy")
    assert str(caught.value).startswith(
        "ConstraintTemplate/k8snoteset: the Rego does not parse: k8snoteset/template.rego:"
    ), caught.value
    assert "\n" not in str(caught.value) and "backtrace" not in str(caught.value)
