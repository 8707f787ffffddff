"""The session hooks of ``itbench sre run`` besides scoring (``sre/session.py`` binds them into
the run's ``DomainRun``): the output validator of the ``llm`` agent's reflection loop and the
``oracle``'s reference answer."""

from __future__ import annotations

import json
import re
from pathlib import Path

from itbench.errors import InputError
from itbench.fsutil import atomic_write_text, read_agent_text
from itbench.models import PublicScenario, Scenario
from itbench.runner.layout import find_agent_output
from sre.generator.ground_truth import GroundTruth, Group

OUTPUT_FILE = "agent_output.json"


def validate_output(scenario: PublicScenario, workspace: Path) -> list[str]:
    """What is wrong with the answer in the workspace, as feedback a model can act on."""
    from sre.outputs import parse_text

    try:
        path = find_agent_output(workspace)
        if path is None:
            return [f"{OUTPUT_FILE} is missing: write it in the working directory"]
        doc, repairs = parse_text(read_agent_text(path), OUTPUT_FILE)
    except (InputError, UnicodeDecodeError) as exc:
        return [str(exc)]
    problems = [f"{OUTPUT_FILE}: not plain JSON ({r}); write the object alone" for r in repairs]
    entities = doc.get("entities")
    if not isinstance(entities, list) or not entities:
        return [*problems, f"{OUTPUT_FILE}: 'entities' must be a non-empty list"]
    if not any(isinstance(e, dict) and e.get("contributing_factor") is True for e in entities):
        problems.append(f'{OUTPUT_FILE}: no entity has "contributing_factor": true')
    for i, e in enumerate(entities):
        name = e.get("name") if isinstance(e, dict) else None
        if not isinstance(name, str) or len(name.split("/")) < 2:
            problems.append(
                f"{OUTPUT_FILE}: entities[{i}].name {name!r} is not namespace/Kind/name"
            )
    for key in ("propagations", "alerts_explained"):
        if key in doc and not isinstance(doc[key], list):
            problems.append(f"{OUTPUT_FILE}: '{key}' must be a list")
    for i, p in enumerate(doc.get("propagations") or []):
        if not isinstance(p, dict) or not p.get("source") or not p.get("target"):
            problems.append(f"{OUTPUT_FILE}: propagations[{i}] needs 'source' and 'target'")
    return problems


# A pattern's literal characters: an escaped punctuation mark (``\\-``) or any character that is
# no metacharacter. An escaped letter or digit is a class or an anchor (``\\b``, ``\\d``), not a
# letter of the name, and ends the head as ``[`` or ``.`` do.
_LITERAL_HEAD = re.compile(r"\^?((?:\\[^A-Za-z0-9]|[^\\\[\](){}.*+?|$^])*)([?*{]?)")


def _literal_head(pattern: str) -> str:
    """The literal text a filter's matches all start with (``recommendation\\b`` ->
    ``recommendation``; ``cartx?`` -> ``cart``: a quantified last character may be absent)."""
    head = _LITERAL_HEAD.match(pattern)
    assert head is not None  # every part of the pattern is optional
    literal, quantifier = head.group(1), head.group(2)
    if quantifier and literal:  # the quantifier applies to the last character (or escape) only
        literal = literal[:-2] if len(literal) > 1 and literal[-2] == "\\" else literal[:-1]
    return re.sub(r"\\(.)", r"\1", literal)


def _literal_name(group: Group) -> str | None:
    """A name for a group: its ``name``, or the literal head of its first filter
    (``^frontend\\-proxy-[a-z0-9]{6,10}...`` -> ``frontend-proxy``)."""
    if group.name:
        return group.name
    for pattern in group.filter or ():
        literal = _literal_head(pattern).rstrip("-")
        if literal:
            return literal
    return None


def _entity(group: Group) -> str | None:
    name = _literal_name(group)
    if name is None:
        return None
    kind = group.kind
    if kind == "Pod" and not group.name:  # a pod is named by a filter: name its Service instead
        kind = "Service"
    return f"{group.namespace}/{kind}/{name}" if group.namespace else f"{kind}/{name}"


def write_reference(scenario: Scenario, workspace: Path) -> None:
    """The ground truth restated as an answer (the ``oracle``, the harness's self-check)."""
    truth = scenario.reference
    if not isinstance(truth, GroundTruth):
        raise InputError(f"scenario {scenario.id} has no reference answer")
    groups = {g.id: g for g in truth.groups}
    entities = [
        {"name": _entity(g), "contributing_factor": True, "reasoning": "ground truth",
         "evidence": "ground truth"}
        for g in truth.groups if g.root_cause and _entity(g)
    ]  # fmt: skip
    propagations = []
    for p in truth.propagations:
        source, target = groups.get(p.source), groups.get(p.target)
        if source and target and _entity(source) and _entity(target):
            propagations.append(
                {"source": _entity(source), "target": _entity(target),
                 "condition": p.condition, "effect": p.effect}
            )  # fmt: skip
    document = {
        "entities": entities,
        "propagations": propagations,
        "alerts_explained": [
            {"alert": a.id, "explanation": "ground truth", "explained": True} for a in truth.alerts
        ],
    }
    atomic_write_text(workspace / OUTPUT_FILE, json.dumps(document, indent=2) + "\n")


def prompt_template() -> str:
    """The ``llm`` agent's system prompt for SRE."""
    return (
        "{% if scenario.scenario_class == 'sre-mitigation' %}"
        "You are an SRE repairing an incident on a live Kubernetes cluster. Investigate with "
        "the tools ({{ tools | join(', ') }}): the snapshot in your workspace shows the past, "
        "the kubectl tool the present. Find the root cause and repair it with the smallest "
        "change that clears the alerts; do not delete pods, restart or scale healthy workloads. "
        "Then write your diagnosis to agent_output.json with the workspace write tool (it is "
        "checked, up to {{ reflection_rounds }} rounds of feedback) and reply with a short "
        "summary and no tool call."
        "{% else %}"
        "You are an SRE diagnosing an incident from an offline snapshot in your workspace. Use "
        "the investigation tools ({{ tools | join(', ') }}) to find the root cause, then write "
        "agent_output.json with the workspace write tool. Your answer is checked and you get "
        "up to {{ reflection_rounds }} rounds of feedback. When the file is written, reply with "
        "a short summary and no tool call."
        "{% endif %}"
    )
