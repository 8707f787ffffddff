"""Where trials live on disk, and how the original ITBench outputs layout is read.

``DIR/<scenario>/<n>/`` holds the agent's files, ``transcript.jsonl`` and ``evaluation.json``.
The original evaluators also accept scenario folders named ``<N>``, ``Scenario-<N>``,
``scenario_<N>`` or ``incident-<N>`` (any case) and answers in ``<trial>/outputs/``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from itbench.models import Evaluation

EVALUATION_FILE = "evaluation.json"
TRANSCRIPT_FILE = "transcript.jsonl"
RESULTS_FILE = "results.json"
#: ``eval``'s default results document, beside a run's own ``results.json``, never over it.
EVAL_RESULTS_FILE = "eval-results.json"
AGENT_OUTPUT_NAMES = ("agent_output.json", "agent_response.json")

_SCENARIO_PREFIX = re.compile(r"^(?:scenario|incident)[-_]?", re.IGNORECASE)


def scenario_key(name: str) -> str:
    """Normalise a scenario folder or id so ``Scenario-3``, ``scenario_3`` and ``3`` agree."""
    return _SCENARIO_PREFIX.sub("", name.strip()).lower()


def trial_dir(output_dir: Path, scenario_id: str, number: int) -> Path:
    return output_dir / safe_name(scenario_id) / str(number)


def safe_name(scenario_id: str) -> str:
    """A scenario id as one path component: ids come from user files and must not escape DIR."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "_", scenario_id).strip("._")
    return cleaned or "scenario"


def read_evaluation(path: Path) -> Evaluation | None:
    """The trial's evaluation if the file is complete and valid, else None (to be redone)."""
    try:
        return Evaluation.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, ValidationError):
        return None


def find_agent_output(trial: Path, names: tuple[str, ...] = AGENT_OUTPUT_NAMES) -> Path | None:
    for base in (trial, trial / "outputs"):
        for name in names:
            candidate = base / name
            if candidate.is_file():
                return candidate
    return None


@dataclass(frozen=True)
class OutputTrial:
    scenario_folder: str
    trial_id: str
    path: Path


def discover_outputs(outputs: Path) -> list[OutputTrial]:
    """Trials under an outputs root: ``<scenario>/<digits>/``; other entries are ignored."""
    found: list[OutputTrial] = []
    for scenario in sorted(p for p in outputs.iterdir() if p.is_dir()):
        for trial in sorted(
            (p for p in scenario.iterdir() if p.is_dir() and p.name.isdigit()),
            key=lambda p: int(p.name),
        ):
            found.append(OutputTrial(scenario.name, trial.name, trial))
    return found
