"""Documents for ``itbench kyverno test``: JUnit (what Kyverno's CLI offers) and SARIF.

One JUnit test suite per kyverno-test.yaml, one test case per expectation; SARIF carries the
expectations that did not hold, located at their test file. File names are shown relative to the
argument that found them, as the table does.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from ciso.engines.kyverno.testrunner import Expectation, TestReport
from itbench import __version__


def shown_file(file: str, arguments: Sequence[Path]) -> str:
    """``file`` relative to the argument it was found under; a file argument is shown as given."""
    path = Path(file)
    for argument in arguments:
        if path == argument:
            return str(argument)
        try:
            return str(path.relative_to(argument))
        except ValueError:
            continue
    return file


def _case_name(e: Expectation) -> str:
    return f"{e.policy}/{e.rule} {e.kind}/{e.resource}"


def _detail(e: Expectation) -> str:
    return f"expected {e.expected}, got {e.actual or 'no result'}" + (
        f": {e.reason}" if e.reason else ""
    )


def junit(report: TestReport, arguments: Sequence[Path]) -> str:
    root = ET.Element("testsuites", name="itbench-kyverno-test")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for f in report.files:
        name = shown_file(f.file, arguments)
        suite = ET.SubElement(root, "testsuite", name=name, file=name)
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        if f.error:
            case = ET.SubElement(suite, "testcase", classname=name, name="load")
            ET.SubElement(case, "error", message=f.error[:200]).text = f.error
            counts["tests"] += 1
            counts["errors"] += 1
        for e in f.expectations:
            case = ET.SubElement(suite, "testcase", classname=e.policy, name=_case_name(e))
            counts["tests"] += 1
            if e.outcome == "failed":
                ET.SubElement(case, "failure", message=_detail(e), type="failed")
                counts["failures"] += 1
            elif e.outcome == "errors":
                ET.SubElement(case, "error", message=_detail(e), type="error")
                counts["errors"] += 1
            elif e.outcome in ("skipped", "excluded"):
                # excluded: no rule response where one was expected; Kyverno counts it as a pass,
                # we report it as skipped so that it is visible (--strict makes it fail)
                ET.SubElement(case, "skipped", message=f"{e.outcome}: {_detail(e)}")
                counts["skipped"] += 1
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


_SARIF_LEVEL = {"failed": "error", "errors": "error", "excluded": "warning"}


def sarif(report: TestReport, arguments: Sequence[Path]) -> str:
    rules: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    for f in report.files:
        location = {
            "physicalLocation": {"artifactLocation": {"uri": shown_file(f.file, arguments)}}
        }
        if f.error:
            results.append(
                {
                    "ruleId": "test-file-error",
                    "level": "error",
                    "message": {"text": f.error},
                    "locations": [location],
                }
            )
            rules.setdefault("test-file-error", len(rules))
        for e in f.expectations:
            if e.outcome not in _SARIF_LEVEL:
                continue
            rule_id = f"{e.policy}/{e.rule}"
            rules.setdefault(rule_id, len(rules))
            results.append(
                {
                    "ruleId": rule_id,
                    "ruleIndex": rules[rule_id],
                    "level": _SARIF_LEVEL[e.outcome],
                    "message": {"text": f"{e.kind}/{e.resource}: {e.outcome}: {_detail(e)}"},
                    "locations": [location],
                }
            )
    for result in results:
        result.setdefault("ruleIndex", rules[result["ruleId"]])
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "itbench-kyverno-test",
                        "version": __version__,
                        "rules": [
                            {"id": rule_id, "shortDescription": {"text": rule_id}}
                            for rule_id in rules
                        ],
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(document, indent=2) + "\n"
