"""Reading an SRE agent's ``agent_output.json``: both schemas, and the damage agents do to JSON.

New schema: ``entities[{name: "namespace/Kind/name", contributing_factor, reasoning, evidence}]``
ordered by importance, ``propagations[{source, target, condition, effect}]``,
``alerts_explained[...]``. Old schema (``evaluations_sample/data``): entities carry an opaque ``id``
and a ``name`` such as ``"flagd-config ConfigMap"``; propagations name their ends by id and add
``source_name``/``target_name``. Text that is not JSON as written is repaired when the intent is
unambiguous (a JSON string holding the document, a fenced block, prose around the object, trailing
commas, unclosed brackets at the end); anything else is an :class:`InputError`, which the runner
records as a bad run.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from itbench import jsonsafe
from itbench.errors import InputError, parse_problem
from itbench.fsutil import read_agent_text

#: Kinds by their lower-case spelling, so ``service/flagd`` and ``Service/flagd`` agree.
KNOWN_KINDS = {
    k.lower(): k
    for k in [
        "Pod",
        "Service",
        "Deployment",
        "ReplicaSet",
        "StatefulSet",
        "DaemonSet",
        "Job",
        "CronJob",
        "ConfigMap",
        "Secret",
        "Namespace",
        "Node",
        "HorizontalPodAutoscaler",
        "NetworkPolicy",
        "ResourceQuota",
        "LimitRange",
        "PersistentVolumeClaim",
        "PersistentVolume",
        "PodDisruptionBudget",
        "Ingress",
        "Gateway",
        "VirtualService",
        "AuthorizationPolicy",
        "PeerAuthentication",
        "ServiceAccount",
        "Endpoints",
        "Schedule",
        "NetworkChaos",
        "PodChaos",
        "StressChaos",
        "HttpChaos",
        "IOChaos",
        "JVMChaos",
        "DNSChaos",
        "TimeChaos",
        "KernelChaos",
        "ServiceOperation",
        "Port",
    ]
}
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_OPEN_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*)", re.DOTALL)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")
_NAME_THEN_KIND = re.compile(r"^(?P<name>\S+)\s+\(?(?P<kind>[A-Za-z]+)\)?$")


@dataclass(frozen=True)
class EntityRef:
    """A predicted entity as ``namespace/Kind/name``; parts an old output leaves out are None."""

    namespace: str | None
    kind: str | None
    name: str
    raw: str

    @property
    def key(self) -> str:
        """Identity for de-duplication: case-insensitive, missing parts kept apart."""
        return f"{self.namespace or '?'}/{(self.kind or '?').lower()}/{self.name.lower()}"


@dataclass(frozen=True)
class PredictedEntity:
    ref: EntityRef
    contributing_factor: bool
    reasoning: str
    evidence: str


@dataclass(frozen=True)
class PredictedPropagation:
    source: EntityRef
    target: EntityRef
    condition: str
    effect: str


@dataclass(frozen=True)
class AgentDiagnosis:
    entities: tuple[PredictedEntity, ...]
    propagations: tuple[PredictedPropagation, ...]
    #: What had to be done to read the file (repairs, schema); recorded in the evaluation.
    notes: tuple[str, ...] = ()


def _canonical_kind(kind: str) -> str:
    return KNOWN_KINDS.get(kind.lower(), kind)


def parse_entity(text: str) -> EntityRef:
    """``ns/Kind/name``, ``Kind/name``, ``name Kind``, ``name (Kind)`` or a bare ``name``."""
    raw = text.strip()
    parts = raw.split("/")
    if len(parts) >= 3:
        ns, kind, name = parts[0], parts[1], "/".join(parts[2:])
        # the judge's own outputs show agents writing "unknown" when they lacked the namespace
        return EntityRef(
            None if ns.lower() in ("", "unknown", "?") else ns, _canonical_kind(kind), name, raw
        )
    if len(parts) == 2:
        first, second = parts
        if first.lower() in KNOWN_KINDS:
            return EntityRef(None, _canonical_kind(first), second, raw)
        return EntityRef(first or None, None, second, raw)
    m = _NAME_THEN_KIND.match(raw)
    if m and m["kind"].lower() in KNOWN_KINDS:
        return EntityRef(None, _canonical_kind(m["kind"]), m["name"], raw)
    return EntityRef(None, None, raw, raw)


def _close_brackets(text: str) -> str:
    """Close the strings and brackets an output cut off at the end (a truncated reply)."""
    stack: list[str] = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]" and stack:
            stack.pop()
    tail = '"' if in_string else ""
    return text.rstrip().rstrip(",") + tail + "".join(reversed(stack))


def _unfenced(text: str) -> str:
    """The content of the first fenced block; of an unclosed one (a truncated reply) all of it."""
    fenced = _FENCE.search(text) or _OPEN_FENCE.search(text)
    return fenced.group(1) if fenced else text


def _object_onwards(text: str) -> str:
    start = text.find("{")
    return text[start:] if start >= 0 else text


def _without_trailing_prose(text: str) -> str:
    end = text.rfind("}")
    return text[: end + 1] if end >= 0 else text


def _without_trailing_commas(text: str) -> str:
    return _TRAILING_COMMA.sub(r"\1", text)


#: The repairs, applied one after the other, each to what the previous ones left: an output can
#: carry several kinds of damage at once (a fenced block with a trailing comma, cut off).
_REPAIRS = (
    ("fenced block", _unfenced),
    ("prose around the object", _object_onwards),
    ("trailing commas", _without_trailing_commas),
    ("unclosed brackets", _close_brackets),
)


def _candidates(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """(text, repairs applied) to try in order: as written first, then with each further repair
    applied on top of the ones before; beside each, the same without prose after the object."""
    out: list[tuple[str, tuple[str, ...]]] = [(text, ())]
    notes: tuple[str, ...] = ()
    for note, repair in _REPAIRS:
        repaired = repair(text)
        if repaired != text:
            text, notes = repaired, (*notes, note)
            out.append((text, notes))
        trimmed = _without_trailing_prose(text)
        if trimmed != text:
            out.append((trimmed, (*notes, "prose around the object")))
    return out


def parse_text(text: str, source: str) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The output document and the repairs it needed; InputError when nothing recovers it."""
    first_error: Exception | None = None
    where = source
    for _ in range(2):  # a JSON string holding the document is unwrapped once
        for candidate, notes in _candidates(text):
            # each candidate on its own: a string's content, a fenced block or the brackets a
            # repair closed are text the check of the whole file did not count
            jsonsafe.check(candidate, where)
            try:
                doc = json.loads(candidate)
            except ValueError as exc:  # JSONDecodeError, or a number longer than int() takes
                first_error = first_error or exc
                continue
            if isinstance(doc, str):
                text = doc
                where = f"{source} (the JSON string it holds)"
                break
            if isinstance(doc, dict):
                unique = dict.fromkeys(notes)
                return doc, tuple(f"repaired: {note}" for note in unique)
        else:
            break
    problem = parse_problem(first_error) if first_error else "not a JSON object"
    raise InputError(
        f"{source}: agent output is not a JSON object and cannot be repaired: {problem}"
    )


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _entity_name(item: dict[str, Any]) -> str | None:
    for key in ("name", "entity", "id"):
        if isinstance(item.get(key), str) and item[key].strip():
            return item[key]
    return None


def diagnosis_from(doc: dict[str, Any], source: str) -> AgentDiagnosis:
    entities_raw = doc.get("entities")
    if entities_raw is None:
        entities_raw = []
    if not isinstance(entities_raw, list):
        raise InputError(f"{source}: 'entities' must be a list, got {type(entities_raw).__name__}")
    notes: list[str] = []
    by_id: dict[str, EntityRef] = {}
    entities = []
    for i, item in enumerate(entities_raw):
        if not isinstance(item, dict):
            raise InputError(f"{source}: entities[{i}] must be an object")
        name = _entity_name(item)
        if name is None:
            raise InputError(f"{source}: entities[{i}]: no 'name'")
        ref = parse_entity(name)
        if "id" in item and "name" in item:  # old schema: propagations refer to the opaque id
            by_id[str(item["id"])] = ref
        entities.append(
            PredictedEntity(
                ref,
                item.get("contributing_factor") is True,
                _text(item.get("reasoning")),
                _text(item.get("evidence")),
            )
        )
    if by_id:
        notes.append("old schema: entities named by opaque id plus name")
    propagations = []
    raw_props = doc.get("propagations") or []
    if not isinstance(raw_props, list):
        raise InputError(f"{source}: 'propagations' must be a list")
    for i, p in enumerate(raw_props):
        if not isinstance(p, dict):
            raise InputError(f"{source}: propagations[{i}] must be an object")
        ends = []
        for end in ("source", "target"):
            named = p.get(f"{end}_name")
            value = p.get(end)
            if isinstance(named, str) and named.strip():
                ends.append(parse_entity(named))
            elif isinstance(value, str) and value in by_id:
                ends.append(by_id[value])
            elif isinstance(value, str) and value.strip():
                ends.append(parse_entity(value))
            else:
                raise InputError(f"{source}: propagations[{i}].{end}: missing")
        propagations.append(
            PredictedPropagation(
                ends[0], ends[1], _text(p.get("condition")), _text(p.get("effect"))
            )
        )
    return AgentDiagnosis(tuple(entities), tuple(propagations), tuple(notes))


def read_diagnosis(path: Path) -> AgentDiagnosis:
    try:
        text = read_agent_text(path)
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from exc
    jsonsafe.check(text, str(path))
    doc, repairs = parse_text(text, str(path))
    diagnosis = diagnosis_from(doc, str(path))
    return AgentDiagnosis(diagnosis.entities, diagnosis.propagations, repairs + diagnosis.notes)
