"""A GeneratingPolicy's ``generate[].template``: the objects to create written as YAML (one or more
documents) instead of a ``generator.Apply`` expression.

With ``interpolate: cel``, ``(( expression ))`` placeholders are CEL over the same bindings as a
generate expression (``object``, ``variables``, ...):
- a placeholder that is a whole scalar is replaced by its value, whatever its type (a map of
  labels, a list, a number);
- placeholders inside a longer string are written into it and must be scalars (a bool is written
  ``true``/``false``);
- ``\\((`` writes a literal ``((``; placeholders in mapping keys are an error.
Without interpolation the template is plain YAML. Each document must be a mapping (an object).
The rendered objects are created in their ``metadata.namespace``; a namespaced policy puts objects
without one in its own namespace and may not create them elsewhere."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from ciso.engines.kyverno.cel import bindings as cel_bindings
from ciso.engines.kyverno.cel.libraries import generator
from ciso.engines.kyverno.errors import RuleError
from itbench.errors import parse_problem
from itbench.yamlsafe import load_all

_OPEN, _CLOSE, _ESCAPE = "((", "))", "\\(("


@dataclass(frozen=True)
class Segment:
    """A piece of a scalar: literal text, or the CEL expression of a placeholder."""

    text: str
    is_expression: bool = False


def scan(value: str) -> list[Segment]:
    """``value`` split into literal text and placeholders. Parentheses nest inside a placeholder
    and CEL string literals may hold ``))``; ValueError names what is unbalanced."""
    segments: list[Segment] = []
    literal: list[str] = []
    i = 0
    while i < len(value):
        if value.startswith(_ESCAPE, i):
            literal.append(_OPEN)
            i += len(_ESCAPE)
        elif value.startswith(_OPEN, i):
            expression, i = _placeholder(value, i)
            if literal:
                segments.append(Segment("".join(literal)))
                literal = []
            segments.append(Segment(expression, True))
        else:
            literal.append(value[i])
            i += 1
    if literal:
        segments.append(Segment("".join(literal)))
    return segments


def _placeholder(value: str, start: int) -> tuple[str, int]:
    """The expression of the placeholder opening at ``start`` and the index after its ``))``."""
    depth, quote, i = 0, "", start + len(_OPEN)
    while i < len(value):
        char = value[i]
        if quote:
            if char == "\\":
                i += 2
                continue
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            if depth:
                depth -= 1
            elif value.startswith(_CLOSE, i):
                expression = value[start + len(_OPEN) : i].strip()
                if not expression:
                    raise ValueError(f"empty placeholder at offset {start}")
                return expression, i + len(_CLOSE)
            else:
                raise ValueError(f"unbalanced parenthesis in the placeholder at offset {start}")
        i += 1
    if quote:
        raise ValueError(f"unterminated string literal in the placeholder at offset {start}")
    raise ValueError(f"unterminated placeholder at offset {start}: no closing '))'")


def _has_placeholder(text: str) -> bool:
    return _OPEN in text.replace(_ESCAPE, "")


def documents(template: Any, where: Sequence[Any]) -> list[dict[str, Any]]:
    """The template's documents as written (placeholders not yet evaluated); RuleError at
    ``where`` (``spec.generate[i].template``) for what Kyverno refuses when compiling."""
    if not isinstance(template, dict) or not isinstance(template.get("value"), str):
        raise RuleError("a template needs a value (YAML text)").at(*where)
    try:
        docs = [d for d in load_all(template["value"]) if d is not None]
    except yaml.YAMLError as exc:
        raise RuleError(f"failed to parse YAML: {parse_problem(exc)}").at(*where, "value") from None
    if not docs:
        raise RuleError("a template must hold at least one YAML document").at(*where, "value")
    interpolated = template.get("interpolate") == "cel"
    for number, doc in enumerate(docs, 1):
        if not isinstance(doc, dict) and not (interpolated and _whole_placeholder(doc)):
            raise RuleError(f"document {number} must be a mapping describing a resource").at(
                *where, "value"
            )
    if interpolated:
        for doc in docs:
            _check_keys(doc, where)
    return docs


def _whole_placeholder(doc: Any) -> bool:
    """A document that is one placeholder (its value, checked when rendered, is the object)."""
    try:
        segments = scan(doc) if isinstance(doc, str) else []
    except ValueError:
        return False
    return len(segments) == 1 and segments[0].is_expression


def _check_keys(node: Any, where: Sequence[Any]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(key, str) and _has_placeholder(key):
                raise RuleError(
                    f"placeholders are not allowed in mapping keys ({key!r}); use a whole-value "
                    "placeholder on the parent field instead"
                ).at(*where, "value")
            _check_keys(value, where)
    elif isinstance(node, list):
        for item in node:
            _check_keys(item, where)


def placeholders(template: Any, where: Sequence[Any]) -> tuple[list[str], list[RuleError]]:
    """The CEL expressions of the template's placeholders, for checking without evaluating, and
    the placeholders that do not scan; RuleError for a template ``render`` refuses whole."""
    docs = documents(template, where)
    if template.get("interpolate") != "cel":
        return [], []
    found: list[str] = []
    problems: list[RuleError] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, str) and _OPEN in node:
            try:
                found.extend(s.text for s in scan(node) if s.is_expression)
            except ValueError as exc:
                problems.append(RuleError(f"{node!r}: {exc}").at(*where, "value"))

    for doc in docs:
        walk(doc)
    return found, problems


def render(template: dict[str, Any], bound: dict[str, Any], where: Sequence[Any]) -> list[dict]:
    """The template's objects with every placeholder evaluated over ``bound``."""
    docs = documents(template, where)
    if template.get("interpolate") != "cel":
        return docs
    rendered = []
    for number, doc in enumerate(docs, 1):
        value = _rendered(doc, bound, (*where, "value"), f"document {number}")
        if not isinstance(value, dict):
            raise RuleError(
                f"document {number}: expected a mapping describing a resource, got {value!r}"
            ).at(*where, "value")
        rendered.append(value)
    return rendered


def _rendered(node: Any, bound: dict[str, Any], where: Sequence[Any], path: str) -> Any:
    if isinstance(node, dict):
        return {k: _rendered(v, bound, where, f"{path}, field {k!r}") for k, v in node.items()}
    if isinstance(node, list):
        return [_rendered(v, bound, where, f"{path}, item {i}") for i, v in enumerate(node)]
    if not isinstance(node, str) or (_OPEN not in node):
        return node
    try:
        segments = scan(node)
    except ValueError as exc:
        raise RuleError(f"{path}: {exc}").at(*where) from None
    if len(segments) == 1 and segments[0].is_expression:
        return _value(segments[0].text, bound, where, path)
    out = []
    for segment in segments:
        if not segment.is_expression:
            out.append(segment.text)
            continue
        value = _value(segment.text, bound, where, path)
        if isinstance(value, bool):
            out.append("true" if value else "false")
        elif isinstance(value, (str, int, float)):
            out.append(str(value))
        else:
            raise RuleError(
                f"{path}: placeholder {segment.text!r} inside a string must be a scalar, got "
                f"{type(value).__name__}; use a whole-value placeholder for structured values"
            ).at(*where)
    return "".join(out)


def _value(expression: str, bound: dict[str, Any], where: Sequence[Any], path: str) -> Any:
    try:
        return cel_bindings.run(expression, bound, where)
    except RuleError as exc:
        raise RuleError(f"{path}: placeholder {expression!r}: {exc.message}").at(*where) from None


def create(objects: list[dict[str, Any]], policy_namespace: str, where: Sequence[Any]) -> None:
    """Record ``objects`` as ``generator.Apply`` does, each in its own namespace."""
    for obj in objects:
        raw_meta = obj.get("metadata")
        meta = raw_meta if isinstance(raw_meta, dict) else {}
        namespace = str(meta.get("namespace") or "")
        if policy_namespace:
            if namespace and namespace != policy_namespace:
                raise RuleError(
                    f"cross-namespace generation denied: a policy in namespace "
                    f"{policy_namespace!r} cannot generate resources into {namespace!r}"
                ).at(*where)
            namespace = policy_namespace
        try:
            generator.apply(namespace, [obj])
        except ValueError as exc:
            raise RuleError(str(exc)).at(*where) from None
