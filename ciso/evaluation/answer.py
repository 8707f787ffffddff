"""Finding the agent's answer files in a trial directory, in our layout and the originals'.

Our runner leaves them at the top of the trial directory; ITBench-Lite's CISOEvaluator also looks
in ``<trial>/outputs/``; ITBench's CAA leaves a workdir whose files are at its top.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

OUTPUTS_DIR = "outputs"
#: Folders of the workspace that are not the agent's answer.
NOT_ANSWERS = frozenset({".itbench", "static-resources", "static-resources-compliant"})


def answer_dirs(trial_dir: Path) -> list[Path]:
    dirs = [trial_dir]
    if (trial_dir / OUTPUTS_DIR).is_dir():
        dirs.append(trial_dir / OUTPUTS_DIR)
    return dirs


def find_file(trial_dir: Path, names: Sequence[str]) -> Path | None:
    """The first of ``names`` (in preference order) in the trial directory or its ``outputs/``."""
    for name in names:
        for directory in answer_dirs(trial_dir):
            candidate = directory / name
            if candidate.is_file():
                return candidate
    return None


def yaml_files(trial_dir: Path) -> list[Path]:
    """Every ``*.yaml``/``*.yml`` the agent left (sorted), outside the folders it was given."""
    found = []
    for path in sorted(trial_dir.rglob("*")):
        rel = path.relative_to(trial_dir)
        if rel.parts and rel.parts[0] in NOT_ANSWERS:
            continue
        if path.suffix in (".yaml", ".yml") and path.is_file() and path.name != "kubeconfig.yaml":
            found.append(path)
    return found


def listing(trial_dir: Path, limit: int = 20) -> str:
    """What the agent did leave, for a 'missing file' reason."""
    names = sorted(
        str(p.relative_to(trial_dir))
        for p in trial_dir.rglob("*")
        if p.is_file()
        and p.relative_to(trial_dir).parts[0] not in NOT_ANSWERS
        and p.name not in ("transcript.jsonl", "evaluation.json", "TASK.md")
    )
    shown = ", ".join(names[:limit]) + (" …" if len(names) > limit else "")
    return shown or "nothing"
