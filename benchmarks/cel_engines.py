"""The two CEL evaluators on the corpus's CEL expressions: the Rust-backed
``common-expression-language`` (module ``cel``) and the pure-Python ``cel-python`` (``celpy``).

Every expression of the ``*-cel`` (validate.cel rules, celPreconditions) and ``*-vpol``
(ValidatingPolicy) policies of ../shared/corpora/kyverno-policies is parsed by each engine as
written, then after our rewrite of the optional syntax (``.?f``, ``[?k]``) that neither parser
takes. Each rule's expressions are then evaluated on the test resources of the kinds it matches,
with ``object`` and ``variables`` bound and only the optional helpers added (no extension
library), so the evaluation rate shows what each engine does on its own. Prints one JSON document.
Needs both packages: .venv/bin/pip install cel-python common-expression-language
Run: .venv/bin/python benchmarks/cel_engines.py
"""

from __future__ import annotations

import contextlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from ciso.engines.kyverno.cel.syntax import OPT_INDEX, OPT_SELECT, rewrite_optional_syntax

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "kyverno-policies"
CATEGORIES = (
    "pod-security-cel",
    "best-practices-cel",
    "other-cel",
    "pod-security-vpol",
    "best-practices-vpol",
    "other-vpol",
)


def _rules(policy: dict[str, Any]) -> list[tuple[list[Any], list[str], set[str]]]:
    """(variables, expressions, matched kinds) per CEL rule of a policy."""
    spec = policy.get("spec") or {}
    out = []
    if policy.get("kind") in ("ClusterPolicy", "Policy"):
        for rule in spec.get("rules") or []:
            cel = (rule.get("validate") or {}).get("cel")
            if not isinstance(cel, dict):
                continue
            kinds = {
                k.rpartition("/")[2]
                for f in ((rule.get("match") or {}).get("any") or [])
                for k in ((f.get("resources") or {}).get("kinds") or [])
            }
            exprs = [c["expression"] for c in rule.get("celPreconditions") or []]
            exprs += [e["expression"] for e in cel.get("expressions") or []]
            out.append((cel.get("variables") or [], exprs, kinds))
    elif policy.get("kind") == "ValidatingPolicy":
        kinds = {
            r.capitalize().rstrip("s")
            for rule in (spec.get("matchConstraints") or {}).get("resourceRules") or []
            for r in rule.get("resources") or []
        }
        exprs = [c["expression"] for c in spec.get("matchConditions") or []]
        exprs += [v["expression"] for v in spec.get("validations") or []]
        out.append((spec.get("variables") or [], exprs, kinds))
    return out


def _corpus() -> list[tuple[str, list[Any], list[str], list[dict[str, Any]]]]:
    items = []
    for category in CATEGORIES:
        for test in sorted((CORPUS / category).rglob(".kyverno-test/kyverno-test.yaml")):
            doc = yaml.safe_load(test.read_text())
            policies, resources = [], []
            for rel in doc.get("policies") or []:
                policies += list(yaml.safe_load_all((test.parent / rel).read_text()))
            for rel in doc.get("resources") or []:
                resources += list(yaml.safe_load_all((test.parent / rel).read_text()))
            for policy in policies:
                if not isinstance(policy, dict):
                    continue
                for variables, exprs, kinds in _rules(policy):
                    matched = [
                        r for r in resources if isinstance(r, dict) and r.get("kind") in kinds
                    ]
                    items.append((category, variables, exprs, matched))
    return items


class RustEngine:
    name = "common-expression-language"

    def __init__(self) -> None:
        import cel

        self.cel = cel

        def select(value: Any, key: Any) -> Any:
            if isinstance(value, cel.OptionalValue):
                if not value.has_value():
                    return value
                value = value.value()
            if isinstance(value, dict) and key in value:
                return cel.OptionalValue.of(value[key])
            return cel.OptionalValue.none()

        self.functions = {OPT_SELECT: select, OPT_INDEX: select}

    def compile(self, source: str) -> Any:
        return self.cel.compile(source)

    def run(self, program: Any, bindings: dict[str, Any]) -> Any:
        return program.execute(self.cel.Context(variables=bindings, functions=self.functions))


class PythonEngine:
    name = "cel-python"

    def __init__(self) -> None:
        import logging

        import celpy

        logging.getLogger("celpy").setLevel(logging.CRITICAL)
        self.celpy = celpy
        self.env = celpy.Environment()
        none = object()

        def select(value: Any, key: Any) -> Any:
            if isinstance(value, tuple) and len(value) == 1:
                value = value[0]
            elif value is none:
                return none
            return (value[key],) if hasattr(value, "keys") and key in value else none

        def or_value(opt: Any, default: Any) -> Any:
            return opt[0] if isinstance(opt, tuple) else default

        self.functions: dict[str, Callable[..., Any]] = {
            OPT_SELECT: select,
            OPT_INDEX: select,
            "orValue": or_value,
            "hasValue": lambda opt: celpy.celtypes.BoolType(isinstance(opt, tuple)),
            "value": lambda opt: opt[0],
        }

    def compile(self, source: str) -> Any:
        return self.env.program(self.env.compile(source), functions=self.functions)

    def run(self, program: Any, bindings: dict[str, Any]) -> Any:
        result = program.evaluate({k: self.celpy.json_to_cel(v) for k, v in bindings.items()})
        if isinstance(result, self.celpy.CELEvalError):
            raise result
        return result


def measure(engine: Any, items: list[Any]) -> dict[str, Any]:
    parsed_raw = parsed = total = 0
    evaluations = ok = 0
    times: list[float] = []
    for _category, variables, exprs, resources in items:
        sources = [v["expression"] for v in variables] + exprs
        programs: dict[str, Any] = {}
        for source in sources:
            total += 1
            try:
                engine.compile(source)
                parsed_raw += 1
            except Exception:  # noqa: BLE001 - each engine raises its own types
                pass
            try:
                programs[source] = engine.compile(rewrite_optional_syntax(source))
                parsed += 1
            except Exception:
                pass
        for resource in resources:
            bindings: dict[str, Any] = {"object": resource, "oldObject": None, "variables": {}}
            for var in variables:
                program = programs.get(var["expression"])
                with contextlib.suppress(Exception):
                    bindings["variables"][var["name"]] = engine.run(program, bindings)
            for source in exprs:
                program = programs.get(source)
                if program is None:
                    continue
                evaluations += 1
                start = time.perf_counter()
                try:
                    engine.run(program, bindings)
                    ok += 1
                except Exception:
                    pass
                times.append(time.perf_counter() - start)
    return {
        "expressions": total,
        "parse_rate_as_written": round(parsed_raw / total, 4),
        "parse_rate_after_optional_rewrite": round(parsed / total, 4),
        "evaluations": evaluations,
        "evaluation_rate": round(ok / evaluations, 4) if evaluations else None,
        "per_evaluation_us": {
            "median": round(statistics.median(times) * 1e6, 1),
            "p95": round(statistics.quantiles(times, n=20)[-1] * 1e6, 1),
            "mean": round(statistics.fmean(times) * 1e6, 1),
        },
    }


def main() -> int:
    if not CORPUS.is_dir():
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 3
    items = _corpus()
    report = {}
    for factory in (RustEngine, PythonEngine):
        try:
            engine = factory()
        except ImportError as exc:
            report[factory.name] = {"error": f"not installed: {exc}"}
            continue
        report[engine.name] = measure(engine, items)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
