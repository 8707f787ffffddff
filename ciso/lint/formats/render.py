"""Render a lint run. stdout gets only the document; the CLI prints progress to stderr."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any
from xml.etree import ElementTree as ET

from ciso.lint.model import EngineUse, Finding, LintRun, RuleInfo, Severity
from itbench import __version__


def _engine(e: EngineUse) -> str:
    return f"{e.name} {e.version}".rstrip()


def not_checked_text(e: EngineUse) -> str:
    """The warning for a backend that could not do all of its reference tool's checks."""
    from ciso.engines.rego.select import not_checked_message

    return f"{not_checked_message(e.name, e.not_checked)}; in {len(e.files)} file(s)"


def _where(f: Finding) -> str:
    return f.file + (f":{f.line}" if f.line else "") + (f":{f.column}" if f.column else "")


def summary(run: LintRun) -> dict[str, int]:
    counts = Counter(f.level for f in run.findings)
    return {
        "files": len(run.files),
        "error": counts[Severity.ERROR],
        "warning": counts[Severity.WARNING],
        "info": counts[Severity.INFO],
        "tool_errors": len(run.tool_errors),
        "not_checked": sum(len(e.files) for e in run.not_checked),
        "skipped": len(run.skipped),
    }


def text(run: LintRun, rules: list[RuleInfo]) -> str:
    lines = [f"{_where(f)}: {f.level}: {f.rule.id} {f.message}" for f in run.findings]
    lines += [f"tool error: {e}" for e in run.tool_errors]
    lines += [f"{e.language} engine: {_engine(e)}" for e in run.engines]
    lines += [f"warning: {not_checked_text(e)}" for e in run.not_checked]
    s = summary(run)
    line = (
        f"{s['files']} file(s): {s['error']} error(s), {s['warning']} warning(s), {s['info']} info"
    )
    if s["not_checked"]:
        line += f", {s['not_checked']} not fully checked"
    if s["skipped"]:
        line += f"; {s['skipped']} skipped (no policy)"
    lines.append(line)
    return "\n".join(lines) + "\n"


def as_json(run: LintRun, rules: list[RuleInfo]) -> str:
    return (
        json.dumps(
            {
                "summary": summary(run),
                "findings": [
                    {
                        "rule": f.rule.id,
                        "severity": f.level,
                        "file": f.file,
                        "line": f.line,
                        "column": f.column,
                        "message": f.message,
                        "help": f.rule.help,
                    }
                    for f in run.findings
                ],
                "tool_errors": run.tool_errors,
                "notes": run.notes,
                "engines": [
                    {
                        "language": e.language,
                        "name": e.name,
                        "version": e.version,
                        "not_checked": list(e.not_checked),
                        "files": list(e.files),
                    }
                    for e in run.engines
                ],
                "skipped": run.skipped,
            },
            indent=2,
        )
        + "\n"
    )


_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def sarif(run: LintRun, rules: list[RuleInfo]) -> str:
    index = {r.id: i for i, r in enumerate(rules)}
    results = []
    for f in run.findings:
        region = {}
        if f.line:
            region["startLine"] = f.line
            if f.column:
                region["startColumn"] = f.column
        location = {
            "physicalLocation": {
                "artifactLocation": {"uri": f.file},
                **({"region": region} if region else {}),
            }
        }
        results.append(
            {
                "ruleId": f.rule.id,
                "ruleIndex": index[f.rule.id],
                "level": _SARIF_LEVEL[f.level],
                "message": {"text": f.message},
                "locations": [location],
            }
        )
    notifications: list[dict[str, Any]] = [
        {"level": "error", "message": {"text": e}} for e in run.tool_errors
    ]
    notifications += [{"level": "note", "message": {"text": n}} for n in run.notes]
    notifications += [
        {
            "level": "warning",
            "message": {"text": not_checked_text(e)},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": f}}} for f in e.files],
        }
        for e in run.not_checked
    ]
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "itbench-lint",
                        "version": __version__,
                        "informationUri": "https://github.com/itbench/itbench",
                        "rules": [
                            {
                                "id": r.id,
                                "name": r.id,
                                "shortDescription": {"text": r.description},
                                "fullDescription": {"text": r.description},
                                "help": {"text": r.help},
                                "helpUri": r.help_uri,
                                "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]},
                            }
                            for r in rules
                        ],
                    },
                    # the backends the rules ran on (a Rego engine), by name and version
                    "extensions": [
                        {"name": e.name, **({"version": e.version} if e.version else {})}
                        for e in run.engines
                    ],
                },
                "invocations": [
                    {
                        "executionSuccessful": not run.tool_errors,
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "results": results,
            }
        ],
    }
    return json.dumps(document, indent=2) + "\n"


def junit(run: LintRun, rules: list[RuleInfo]) -> str:
    by_file: dict[str, list[Finding]] = {f: [] for f in run.files}
    for f in run.findings:
        by_file.setdefault(f.file, []).append(f)
    root = ET.Element("testsuites", name="itbench-lint")
    suite = ET.SubElement(root, "testsuite", name="itbench-lint", tests=str(len(by_file)))
    if run.engines:  # JUnit's place for facts about a run: the backends that ran
        properties = ET.SubElement(suite, "properties")
        for e in run.engines:
            ET.SubElement(properties, "property", name=f"{e.language}-engine", value=_engine(e))
    unchecked = {f: e for e in run.not_checked for f in e.files}
    failures = 0
    for file, findings in by_file.items():
        case = ET.SubElement(suite, "testcase", classname="itbench-lint", name=file)
        errors = [f for f in findings if f.level == "error"]
        if errors:
            failures += 1
            node = ET.SubElement(case, "failure", message=f"{len(errors)} error(s)", type="lint")
            node.text = "\n".join(f"{_where(f)}: {f.rule.id} {f.message}" for f in errors)
        others = [f for f in findings if f.level != "error"]
        if others:
            ET.SubElement(case, "system-out").text = "\n".join(
                f"{_where(f)}: {f.level}: {f.rule.id} {f.message}" for f in others
            )
        if file in unchecked:
            ET.SubElement(case, "system-err").text = "warning: " + not_checked_text(unchecked[file])
    suite.set("failures", str(failures))
    suite.set("errors", str(len(run.tool_errors)))
    for error in run.tool_errors:
        case = ET.SubElement(suite, "testcase", classname="itbench-lint", name="tool")
        ET.SubElement(case, "error", message=error[:200]).text = error
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _escape_property(value: str) -> str:
    return (
        value.replace("%", "%25")
        .replace("\r", "%0D")
        .replace("\n", "%0A")
        .replace(":", "%3A")
        .replace(",", "%2C")
    )


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github(run: LintRun, rules: list[RuleInfo]) -> str:
    command = {"error": "error", "warning": "warning", "info": "notice"}
    lines = []
    for f in run.findings:
        props = [f"file={_escape_property(f.file)}"]
        if f.line:
            props.append(f"line={f.line}")
        if f.column:
            props.append(f"col={f.column}")
        props.append(f"title={_escape_property(f.rule.id)}")
        lines.append(f"::{command[f.level]} {','.join(props)}::{_escape_data(f.message)}")
    lines += [f"::error title=itbench-lint::{_escape_data(e)}" for e in run.tool_errors]
    lines += [
        f"::warning file={_escape_property(f)},title=not checked::{_escape_data(not_checked_text(e))}"
        for e in run.not_checked
        for f in e.files
    ]
    return "\n".join(lines) + ("\n" if lines else "")


RENDERERS = {"text": text, "json": as_json, "sarif": sarif, "junit": junit, "github": github}
