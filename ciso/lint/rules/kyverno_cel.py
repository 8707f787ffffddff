"""KYV007: CEL in Kyverno policies. Every CEL expression (``validate.cel`` and
``celPreconditions`` in a ClusterPolicy/Policy; ``expression``, ``messageExpression`` and
``valueExpression`` anywhere in a policies.kyverno.io policy) must compile and type-check:

- a syntax error (from the evaluator's own parser) names the position in the expression;
- a type error (``ciso.lint.cel_types``): a name the policy kind does not bind, a
  ``variables.x`` the policy does not declare, an unknown function or a wrong argument count,
  an operator on types it has no overload for, a condition that is not a bool or a message
  that is not a string. Types the checker cannot know (``object.*``) are ``dyn`` and never
  give a finding.

Each finding carries the file line of the expression (the line inside a ``|`` block scalar).
policies.kyverno.io kinds also get their structural checks (missing required fields, the
evaluators' own structure checks)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import yaml

from ciso.engines.kyverno.cel import dpol as cel_dpol
from ciso.engines.kyverno.cel import gpol as cel_gpol
from ciso.engines.kyverno.cel import gpol_template
from ciso.engines.kyverno.cel import ivpol as cel_ivpol
from ciso.engines.kyverno.cel.program import CelError, compile_expression
from ciso.engines.kyverno.errors import RuleError
from ciso.lint.cel_types import Declarations, check_expression, expected_type, identifiers_for
from ciso.lint.cel_types.types import DYN, CelType
from ciso.lint.model import (
    Finding,
    LintTarget,
    Options,
    RuleContext,
    RuleInfo,
    Severity,
    TargetKind,
)
from ciso.lint.yaml_lines import line_of

INFO = RuleInfo(
    "KYV007",
    Severity.ERROR,
    "CEL in a Kyverno policy: syntax and type errors",
    "Fix the CEL expression at the position named: use the variables the policy kind binds and "
    "the variables it declares, known functions with their argument counts, operands of "
    "matching types; conditions must be bool and messages string.",
)
KINDS = frozenset({TargetKind.KYVERNO_POLICY})
REQUIRED = {
    "ValidatingPolicy": ("validations",),
    "MutatingPolicy": ("mutations",),
    "GeneratingPolicy": ("generate",),
    # as their CRDs require (a DeletingPolicy without conditions deletes all it matches)
    "DeletingPolicy": ("schedule",),
    "NamespacedDeletingPolicy": ("schedule",),
    "ImageValidatingPolicy": ("attestors", "validations"),
    "NamespacedImageValidatingPolicy": ("attestors", "validations"),
}
#: the kinds whose evaluator also names structural problems of present fields
STRUCTURE = {kind: module for module in (cel_dpol, cel_ivpol) for kind in module.KINDS}
EXPRESSION_KEYS = ("expression", "messageExpression", "valueExpression")
AUTHZ_MODES = ("Envoy", "HTTP")

Path = tuple[str | int, ...]


def _expressions(node: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """(path, source) of every CEL expression under ``node`` (a GeneratingPolicy template's
    placeholders at the path of its ``value``)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in EXPRESSION_KEYS and isinstance(value, str):
                yield (*path, key), value
            elif key == "template" and path[-2:-1] == ("generate",) and isinstance(value, dict):
                try:
                    found, _ = gpol_template.placeholders(value, ())
                except RuleError:
                    continue  # reported by the structure check
                yield from (((*path, key, "value"), source) for source in found)
            else:
                yield from _expressions(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _expressions(value, (*path, index))


def _cel_parts(doc: dict[str, Any]) -> Iterator[tuple[Path, Any, Path | None]]:
    """(path, node, path of the variables its expressions see) of each CEL-holding part."""
    spec = doc.get("spec")
    if not isinstance(spec, dict):
        return
    if str(doc.get("apiVersion", "")).startswith("policies.kyverno.io"):
        yield ("spec",), spec, ("spec", "variables")
        return
    for index, rule in enumerate(spec.get("rules") or []):
        if not isinstance(rule, dict):
            continue
        path = ("spec", "rules", index)
        variables = (*path, "validate", "cel", "variables")
        if rule.get("celPreconditions"):
            yield (*path, "celPreconditions"), rule["celPreconditions"], variables
        validate = rule.get("validate")
        if isinstance(validate, dict) and validate.get("cel"):
            yield (*path, "validate", "cel"), validate["cel"], variables


def _where(path: Path) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _at(node: Any, path: Path) -> Any:
    for step in path:
        if isinstance(node, dict) and isinstance(step, str):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
        else:
            return None
    return node


@functools.lru_cache(maxsize=8)
def _compose(text: str) -> tuple[Any, ...]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return tuple(yaml.compose_all(text, Loader=loader))
    except yaml.YAMLError:
        return ()


def _expression_line(
    text: str, document: int, path: Path, line_in_expression: int, source: str = ""
) -> int | None:
    """The file line of ``line_in_expression`` (from 1) of the expression at ``path``: inside a
    literal block scalar (``|``) lines map one to one (a template's placeholder is found in its
    template first); otherwise the key's line."""
    key_line = line_of(text, document, path)
    nodes = _compose(text)
    node = nodes[document] if document < len(nodes) else None
    for step in path:
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if getattr(k, "value", None) == step), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            node = node.value[step] if step < len(node.value) else None
        else:
            node = None
    if isinstance(node, yaml.ScalarNode) and node.style == "|":
        before = 0
        if path[-2:] == ("template", "value") and source and source in node.value:
            before = node.value[: node.value.index(source)].count("\n")
        return node.start_mark.line + 1 + before + line_in_expression
    return key_line


class _Document:
    """One policy document being checked: its findings share the file, kind and name."""

    def __init__(self, target: LintTarget, index: int, doc: dict[str, Any]) -> None:
        self.target, self.index, self.doc = target, index, doc
        self.label = f"{doc.get('kind', '?')} {(doc.get('metadata') or {}).get('name', '?')}"
        self.findings: list[Finding] = []

    def error(self, path: Path, message: str, line: int | None = None) -> None:
        if line is None:
            line = line_of(self.target.text, self.index, path)
        self.findings.append(
            Finding(
                INFO,
                str(self.target.path),
                f"{self.label}: {message}",
                line,
                severity=Severity.ERROR,
            )
        )

    def compiles(self, path: Path, source: str) -> bool:
        try:
            compile_expression(source)
        except CelError as exc:
            self.error(path, f"{_where(path)}: CEL {exc}")
            return False
        return True

    def type_check(self, path: Path, source: str, declarations: Declarations) -> CelType:
        result = check_expression(source, declarations, expected_type(path))
        if result is None:
            return DYN
        found, problems = result
        for problem in problems:
            line = _expression_line(self.target.text, self.index, path, problem.line, source)
            self.error(
                path,
                f"{_where(path)}: CEL type error at {problem.line}:{problem.column}: "
                f"{problem.message}",
                line,
            )
        return found

    def check_part(self, base: Path, part: Any, variables_path: Path | None) -> None:
        kind = str(self.doc.get("kind", ""))
        declared_list = _at(self.doc, variables_path) if variables_path else None
        declared_list = declared_list if isinstance(declared_list, list) else []
        names = [v["name"] for v in declared_list if isinstance(v, dict) and v.get("name")]
        # every declared variable is known (dyn) before its own expression types it: a forward
        # reference is the evaluator's business, not a type error
        variables: dict[str, CelType] = dict.fromkeys(names, DYN)
        own_variables = variables_path is not None and variables_path[: len(base)] == base
        expressions = list(_expressions(part, base))
        if (
            own_variables and variables_path is not None
        ):  # variables first: what reads them sees their types
            first = variables_path
            expressions.sort(key=lambda item: item[0][: len(first)] != first)
        evaluation = (self.doc.get("spec") or {}).get("evaluation") or {}
        # Envoy and HTTP authorization policies bind a request of their own and Kyverno's
        # envoy/http/jwt libraries, which the engine does not provide: syntax only
        authorization = isinstance(evaluation, dict) and evaluation.get("mode") in AUTHZ_MODES
        for path, source in expressions:
            if not self.compiles(path, source) or authorization:
                continue
            declarations = Declarations(identifiers_for(kind, path), dict(variables))
            found = self.type_check(path, source, declarations)
            if (
                own_variables
                and variables_path is not None
                and path[: len(variables_path)] == variables_path
            ):
                variable = _at(self.doc, path[:-1])
                if isinstance(variable, dict) and variable.get("name") in variables:
                    variables[variable["name"]] = found

    def check_structure(self) -> None:
        kind = str(self.doc.get("kind", "?"))
        spec = self.doc.get("spec")
        if not isinstance(spec, dict):
            return  # a partial document (e.g. a test assertion on the policy's status)
        module = STRUCTURE.get(kind)
        for problem in module.check_structure(self.doc) if module else ():
            field, _, _ = problem.partition(":")
            if field.removeprefix("spec.") in REQUIRED.get(kind, ()):
                continue  # reported below as missing
            self.error(("spec",), problem)
        for field in REQUIRED.get(kind, ()):
            if field not in spec:
                self.error(("spec",), f"spec.{field} is missing")
        generate = spec.get("generate") if kind in cel_gpol.KINDS else None
        for index, entry in enumerate(generate if isinstance(generate, list) else []):
            path = ("spec", "generate", index)
            if isinstance(entry, dict) and "template" in entry:
                try:
                    _, problems = gpol_template.placeholders(entry["template"], (*path, "template"))
                except RuleError as exc:
                    problems = [exc]
                for problem in problems:
                    self.error(tuple(problem.path), f"{problem.where()}: {problem.message}")


def check(target: LintTarget, options: Options, ctx: RuleContext) -> list[Finding]:
    findings: list[Finding] = []
    for index, doc in enumerate(target.documents):
        if not isinstance(doc, dict):
            continue
        document = _Document(target, index, doc)
        for base, part, variables_path in _cel_parts(doc):
            document.check_part(base, part, variables_path)
        if str(doc.get("apiVersion", "")).startswith("policies.kyverno.io"):
            document.check_structure()
        findings.extend(document.findings)
    return findings
