"""Reading PolicyReports back as per-resource outcomes, in both shapes Kyverno writes: one report
per resource with a ``scope`` (background scan), or one report whose results each list their
``resources`` (the CLI's ``--policy-report``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ciso.scenarios.model import ResourceRef


@dataclass(frozen=True)
class ResourceResult:
    resource: ResourceRef
    api_version: str
    policy: str
    rule: str
    result: str
    message: str


def _ref(entry: dict[str, Any]) -> ResourceRef:
    return ResourceRef(
        str(entry.get("kind", "")), str(entry.get("namespace") or ""), str(entry.get("name", ""))
    )


def resource_results(reports: Sequence[dict[str, Any]]) -> Iterator[ResourceResult]:
    for report in reports:
        scope = report.get("scope") if isinstance(report.get("scope"), dict) else None
        for result in report.get("results") or []:
            if not isinstance(result, dict):
                continue
            targets = (
                [scope]
                if scope
                else [r for r in result.get("resources") or [] if isinstance(r, dict)]
            )
            for target in targets:
                yield ResourceResult(
                    _ref(target),
                    str(target.get("apiVersion", "")),
                    str(result.get("policy", "")),
                    str(result.get("rule", "")),
                    str(result.get("result", "")),
                    str(result.get("message", "")),
                )


def failed(reports: Sequence[dict[str, Any]]) -> set[ResourceRef]:
    return {r.resource for r in resource_results(reports) if r.result == "fail"}


def rule_errors(reports: Sequence[dict[str, Any]], limit: int = 5) -> list[str]:
    seen: list[str] = []
    for r in resource_results(reports):
        if r.result == "error":
            line = f"{r.policy}/{r.rule} on {r.resource}: {r.message}"
            if line not in seen:
                seen.append(line)
    return seen[:limit]
