"""JUnit XML: one testcase per (scenario, trial); failures carry the reason."""

from __future__ import annotations

from collections.abc import Sequence
from xml.etree import ElementTree as ET

from itbench.report.model import RunSummary


def render_junit(runs: Sequence[RunSummary]) -> str:
    root = ET.Element("testsuites", name="itbench")
    total = failures = errors = 0
    for run in runs:
        verdict = run.verdict_metric()
        suite = ET.SubElement(root, "testsuite", name=run.label)
        suite_failures = suite_errors = 0
        for trial in run.trials:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"{run.label}.{trial.scenario}",
                name=f"trial {trial.trial}",
            )
            scores = ", ".join(f"{k}={v:g}" for k, v in trial.scores.items())
            if trial.error is not None:
                node = ET.SubElement(case, "error", message=trial.error, type="trial_error")
                node.text = trial.error
                suite_errors += 1
            elif verdict is not None and verdict in trial.scores and trial.scores[verdict] < 1:
                node = ET.SubElement(
                    case,
                    "failure",
                    message=f"{verdict} = {trial.scores[verdict]:g} (< 1)",
                    type="score",
                )
                node.text = scores
                suite_failures += 1
            elif verdict is not None and verdict not in trial.scores:
                node = ET.SubElement(
                    case, "failure", message=f"{verdict} missing from scores", type="score"
                )
                node.text = scores
                suite_failures += 1
            ET.SubElement(case, "system-out").text = scores
        suite.set("tests", str(len(run.trials)))
        suite.set("failures", str(suite_failures))
        suite.set("errors", str(suite_errors))
        total += len(run.trials)
        failures += suite_failures
        errors += suite_errors
    root.set("tests", str(total))
    root.set("failures", str(failures))
    root.set("errors", str(errors))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
