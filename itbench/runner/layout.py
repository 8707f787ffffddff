"""Where trials live on disk, and how the original ITBench outputs layout is read.

``DIR/<scenario>/<n>/`` holds the agent's files, ``transcript.jsonl`` and ``evaluation.json``.
The original evaluators also accept scenario folders named ``<N>``, ``Scenario-<N>``,
``scenario_<N>`` or ``incident-<N>`` (any case) and answers in ``<trial>/outputs/``.
"""

from __future__ import annotations

import hashlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pydantic import ValidationError

from itbench import jsonsafe
from itbench.fsutil import UnsafeFile, agent_file, atomic_write_text, read_agent_text
from itbench.models import Evaluation

EVALUATION_FILE = "evaluation.json"
TRANSCRIPT_FILE = "transcript.jsonl"
RESULTS_FILE = "results.json"
#: ``eval``'s default results document, beside a run's own ``results.json``, never over it.
EVAL_RESULTS_FILE = "eval-results.json"
#: Top-level names of a trial folder that belong to the runner and the evaluator, not the agent
#: (its transcript, its score, the evaluator's records under ``.itbench/``): agent file tools
#: refuse them. The sandboxed shell can still write the workspace, so while the agent runs the
#: runner keeps its transcript outside it (:func:`runner_transcript`) and lays the copy in the
#: trial folder only once the agent has ended: a model cannot rewrite the record it is timed by.
RUNNER_NAMES = frozenset({EVALUATION_FILE, TRANSCRIPT_FILE, ".itbench"})
AGENT_OUTPUT_NAMES = ("agent_output.json", "agent_response.json")
#: Where the answer file may lie in a trial folder, in the order it is looked for: the folder
#: itself, then its ``outputs/`` (the original evaluators' layout).
AGENT_OUTPUT_PLACES = tuple(
    PurePosixPath(base) / name for base in ("", "outputs") for name in AGENT_OUTPUT_NAMES
)

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


#: Beside the scenario folders of a run directory (which no agent sees): the digest of each
#: ``evaluation.json`` the runner committed.
SEALS_DIR = ".itbench-committed"


#: Beside the scenario folders of a run directory (which no agent sees): the transcript of each
#: running trial as the runner writes it, moved into the trial folder once the trial is scored.
TRANSCRIPTS_DIR = ".itbench-transcripts"


def _beside_run(trial: Path, folder: str, suffix: str) -> Path:
    """The runner's record of the trial ``DIR/<scenario>/<n>``: ``DIR/<folder>/<scenario>/<n>``
    with ``suffix``, beside the scenario folders (no agent sees ``DIR``)."""
    return trial.parent.parent / folder / trial.parent.name / f"{trial.name}{suffix}"


def runner_transcript(trial: Path) -> Path:
    """Where the runner writes the transcript of the trial ``DIR/<scenario>/<n>`` while it runs:
    outside the workspace, where no sandboxed command reaches."""
    return _beside_run(trial, TRANSCRIPTS_DIR, ".jsonl")


def seal_path(evaluation: Path) -> Path:
    """Where the runner keeps the digest of the trial ``DIR/<scenario>/<n>/evaluation.json``."""
    return _beside_run(evaluation.parent, SEALS_DIR, ".sha256")


def seal_evaluation(evaluation: Path, text: str) -> None:
    """Record that the runner is committing ``text`` as ``evaluation``: written before the file
    itself, so a trial is never sealed and missing, only (after a crash) missing and redone."""
    atomic_write_text(seal_path(evaluation), hashlib.sha256(text.encode()).hexdigest() + "\n")


def read_evaluation(path: Path) -> Evaluation | None:
    """The trial's evaluation if the file is complete, valid and the one the runner committed
    (its digest sealed outside the workspace), else None (to be redone). The trial folder is the
    agent's workspace: a score it wrote there, or a link in its place, never counts as done."""
    try:
        text = read_agent_text(path)
        sealed = seal_path(path).read_text(encoding="utf-8").strip()
        if sealed != hashlib.sha256(text.encode()).hexdigest():
            return None
        return Evaluation.model_validate(jsonsafe.loads(text, str(path)))
    except (OSError, UnsafeFile, ValueError, ValidationError):
        return None


def find_agent_output(trial: Path) -> Path | None:
    """The agent's answer file: a regular file reached through real folders. A symbolic link or
    special file at one of ``AGENT_OUTPUT_PLACES`` is an ``UnsafeFile`` (never read: it could
    point at a reference answer or any host file)."""
    for place in AGENT_OUTPUT_PLACES:
        found = agent_file(trial, str(place))
        if found is not None:
            return found
    return None


@dataclass(frozen=True)
class OutputTrial:
    scenario_folder: str
    trial_id: str
    path: Path


def discover_outputs(outputs: Path) -> list[OutputTrial]:
    """Trials under an outputs root: ``<scenario>/<digits>/``; other entries are ignored, and a
    scenario or trial folder that is a symbolic link is skipped with a warning (its files would
    be read from wherever it points)."""
    found: list[OutputTrial] = []
    # dot-folders are the runner's own (the seals of committed evaluations), never a scenario:
    # under numeric scenario ids `.itbench-committed/3/` would otherwise read as a trial folder
    scenarios = (p for p in outputs.iterdir() if not p.name.startswith(".") and _real_folder(p))
    for scenario in sorted(scenarios):
        for trial in sorted(
            (p for p in scenario.iterdir() if p.name.isdigit() and _real_folder(p)),
            key=lambda p: int(p.name),
        ):
            found.append(OutputTrial(scenario.name, trial.name, trial))
    return found


def _real_folder(path: Path) -> bool:
    if path.is_symlink():
        if path.is_dir():
            print(f"warning: {path}: a symbolic link, not a folder; skipped", file=sys.stderr)
        return False
    return path.is_dir()
