"""The shape of a ``kyverno-test.yaml`` (``cli.kyverno.io/v1alpha1`` Test), as the Kyverno CLI
reads it: strictly. Its loader rejects a field the Test type does not declare (Go's decoder,
which matches field names ignoring case, so ``isMUtatingPolicy`` is ``isMutatingPolicy``) and a
value of the wrong type; the whole file is then an error. A misspelt ``resource:`` at the top
would otherwise leave the test with no resources and every expectation "not found"."""

from __future__ import annotations

import difflib
from typing import Any

#: the Test type's fields (cmd/cli/kubectl-kyverno/apis/v1alpha1/test.go), with the JSON type
#: each must have: "list" of strings, "str", "list-of-maps", "map"
TEST_FIELDS: dict[str, str] = {
    "apiVersion": "str",
    "kind": "str",
    "metadata": "map",
    "name": "str",
    "policies": "list",
    "resources": "list",
    "jsonPayload": "str",
    "jsonPayloads": "list",
    "httpPayloads": "list",
    "envoyPayloads": "list",
    "targetResources": "list",
    "variables": "str",
    "paramResources": "list",
    "userinfo": "str",
    "results": "list-of-maps",
    "values": "map",
    "exceptions": "list",
    "context": "str",
    "clusterResources": "list",
    "apiCallResponses": "list-of-maps",
    "globalContextEntries": "list-of-maps",
}

#: one ``results`` entry (test_result.go: TestResultBase and TestResultData, inlined); the
#: singular ``resource`` is what CLIs before 1.11 wrote, still read here
RESULT_FIELDS: dict[str, str] = {
    "policy": "str",
    "rule": "str",
    "isValidatingAdmissionPolicy": "bool",
    "isMutatingAdmissionPolicy": "bool",
    "isValidatingPolicy": "bool",
    "isDeletingPolicy": "bool",
    "isImageValidatingPolicy": "bool",
    "isGeneratingPolicy": "bool",
    "isMutatingPolicy": "bool",
    "result": "str",
    "kind": "str",
    "operation": "str",
    "patchedResources": "str",
    "generatedResource": "str",
    "cloneSourceResource": "str",
    "failOnMissingResources": "bool",
    "resources": "list",
    "resourceSpecs": "list-of-maps",
    "generatedResources": "list",
    "resource": "str",
}

_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "bool": (bool,),
    "map": (dict,),
    "list": (list,),
    "list-of-maps": (list,),
}


Problem = tuple[tuple[str | int, ...], str]


def _problems(mapping: dict[str, Any], fields: dict[str, str], where: tuple) -> list[Problem]:
    by_lower = {name.lower(): name for name in fields}
    problems: list[Problem] = []
    for key, value in mapping.items():
        at = (*where, str(key))
        declared = by_lower.get(str(key).lower())
        if declared is None:
            close = difflib.get_close_matches(str(key), list(fields), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append((at, f"unknown field {key!r}{hint}"))
            continue
        kind = fields[declared]
        if value is None:
            continue  # an empty field is the zero value, as in Go
        if not isinstance(value, _TYPES[kind]) or (kind == "str" and isinstance(value, bool)):
            problems.append((at, f"expected {kind.replace('-', ' ')}, got {value!r:.60}"))
        elif (
            kind == "list"
            and isinstance(value, list)
            and not all(isinstance(v, str) for v in value)
        ):
            problems.append((at, "expected a list of strings"))
        elif (
            kind == "list-of-maps"
            and isinstance(value, list)
            and not all(isinstance(v, dict) for v in value)
        ):
            problems.append((at, "expected a list of objects"))
    return problems


def shape_problems(test: dict[str, Any]) -> list[Problem]:
    """What the Kyverno CLI's strict loader rejects in this Test document: (path, message)."""
    problems = _problems(test, TEST_FIELDS, ())
    results = test.get("results")
    if isinstance(results, list):
        for i, entry in enumerate(results):
            if isinstance(entry, dict):
                problems += _problems(entry, RESULT_FIELDS, ("results", i))
    return problems


def describe(path: tuple[str | int, ...], message: str) -> str:
    """``results[0].reslt: unknown field 'reslt' (did you mean 'result'?)``"""
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    return f"{where}: {message}"
