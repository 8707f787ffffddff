"""Finding the agent's answer files in a trial directory, in our layout and the originals'.

Our runner leaves them at the top of the trial directory; ITBench-Lite's CISOEvaluator also looks
in ``<trial>/outputs/``; ITBench's CAA leaves a workdir whose files are at its top.

The trial directory is the agent's: only regular files reached through real folders count. A
symbolic link (to a reference answer, to ``/etc/shadow``) or a special file is never read, and the
evaluation says so (``refused``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from itbench.fsutil import UnsafeFile, agent_file, agent_files

OUTPUTS_DIR = "outputs"
#: Folders of the workspace that are not the agent's answer.
NOT_ANSWERS = frozenset({".itbench", "static-resources", "static-resources-compliant"})
#: The runner's own files in a trial directory.
RUNNER_FILES = frozenset({"transcript.jsonl", "evaluation.json", "TASK.md"})


def find_file(trial_dir: Path, names: Sequence[str]) -> Path | None:
    """The first of ``names`` (in preference order) in the trial directory or its ``outputs/``
    that is a regular file; a link or special file there is skipped (``refused`` says why)."""
    for name in names:
        for base in ("", OUTPUTS_DIR):
            try:
                found = agent_file(trial_dir, Path(base) / name)
            except UnsafeFile:
                continue
            if found is not None:
                return found
    return None


def refused(trial_dir: Path, names: Sequence[str]) -> list[str]:
    """Why each of ``names`` present in the trial directory (or ``outputs/``) was not read."""
    reasons = []
    for name in names:
        for base in ("", OUTPUTS_DIR):
            try:
                agent_file(trial_dir, Path(base) / name)
            except UnsafeFile as exc:
                reasons.append(str(exc))
    return reasons


def yaml_files(trial_dir: Path) -> list[Path]:
    """Every ``*.yaml``/``*.yml`` regular file the agent left (sorted), outside the folders it was
    given."""
    files, _ = agent_files(trial_dir, skip=NOT_ANSWERS)
    return [
        path
        for path in files
        if path.suffix in (".yaml", ".yml") and path.name != "kubeconfig.yaml"
    ]


def listing(trial_dir: Path, limit: int = 20, names: Sequence[str] = ()) -> str:
    """What the agent did leave, for a 'missing file' reason (and why any of ``names`` that is
    there was not read)."""
    files, _ = agent_files(trial_dir, skip=NOT_ANSWERS)
    shown_names = sorted(str(p.relative_to(trial_dir)) for p in files if p.name not in RUNNER_FILES)
    shown = ", ".join(shown_names[:limit]) + (" …" if len(shown_names) > limit else "")
    not_read = refused(trial_dir, names)
    return (shown or "nothing") + (f"; refused: {'; '.join(not_read)}" if not_read else "")
