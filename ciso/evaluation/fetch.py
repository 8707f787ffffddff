"""Running an agent's collection script (``fetcher.sh``/``script.sh`` against a cluster,
``fetch.sh`` over ``static-resources/``) in the sandbox, one fresh working directory per
environment, and reading back ``collected_data.json``."""

from __future__ import annotations

import json
import random
import secrets
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ciso.evaluation.fetch_driver import COLLECTED, OUTCOME
from ciso.evaluation.record import truncate
from ciso.evaluation.rego import load_collected
from itbench import jsonsafe
from itbench.cluster.extensions import extension_hooks
from itbench.fsutil import UnsafeFile, read_agent_bytes, read_agent_text
from itbench.sandbox import run_sandboxed

TIME_LIMIT_S = 60.0


@dataclass(frozen=True)
class Collection:
    """What one run of the script left: its data, or why there is none."""

    data: Any
    problem: str
    output: str
    seconds: float

    @property
    def ok(self) -> bool:
        return not self.problem


def _outcome(result: Any, workdir: Path, limit_s: float) -> Collection:
    output = truncate(
        (f"stdout:\n{result.stdout}\n" if result.stdout.strip() else "")
        + (f"stderr:\n{result.stderr}" if result.stderr.strip() else "")
    )
    if result.timed_out:
        return Collection(None, f"did not finish within {limit_s:g} s", output, result.duration_s)
    if result.exit_code != 0:
        return Collection(None, f"exited with code {result.exit_code}", output, result.duration_s)
    data, problem = load_collected(workdir / COLLECTED)
    return Collection(data, problem, output, result.duration_s)


def run_fetcher_batch(
    script: Path,
    root: Path,
    environments: Sequence[tuple[str, Path]],
    timeout_s: float = TIME_LIMIT_S,
) -> dict[str, Collection]:
    """``bash <script>`` once per (label, manifests) environment, each against its own offline
    cluster, all inside one sandbox (see fetch_driver); label -> what that run collected."""
    return _batch(script.name, read_agent_bytes(script), "manifests", root, environments, timeout_s)


def run_static_batch(
    script: Path,
    root: Path,
    environments: Sequence[tuple[str, Path]],
    absolute: list[str],
    timeout_s: float = TIME_LIMIT_S,
) -> dict[str, Collection]:
    """``./fetch.sh`` once per (label, static resources) environment, each in a working
    directory of its own holding that environment as ``static-resources/``, all inside one
    sandbox (see fetch_driver): one sandbox start per trial instead of one per environment."""
    text = rewrite_paths(read_agent_bytes(script).decode("utf-8", errors="replace"), absolute)
    return _batch("fetch.sh", text.encode("utf-8"), "static", root, environments, timeout_s)


def _batch(
    name: str,
    script: bytes,
    kind: str,
    root: Path,
    environments: Sequence[tuple[str, Path]],
    timeout_s: float,
) -> dict[str, Collection]:
    """Run ``script`` (saved as ``name``) once per environment inside one sandbox; ``kind`` says
    what the driver makes of each environment's folder (``manifests``: an offline cluster;
    ``static``: the run's ``static-resources/``)."""
    runs, labels = [], []
    # a random order under random names: nothing in a run's place or its folder's name says
    # whether it is the violating, the compliant or a leave-one-in environment (a fetcher could
    # otherwise answer by its working directory's name)
    order = list(range(len(environments)))
    random.SystemRandom().shuffle(order)
    names = [secrets.token_hex(6) for _ in environments]
    for index in order:
        label, source = environments[index]
        labels.append(label)  # kept here: the spec the sandbox reads names no environment
        workdir = root / f"run-{names[index]}"
        workdir.mkdir(parents=True, exist_ok=True)
        (workdir / name).write_bytes(script)
        # the sandbox sees only its output directory: each environment is copied in (and
        # removed by the driver before any script runs)
        env_dir = root / f"env-{names[index]}"
        if source.is_dir():
            shutil.copytree(source, env_dir)
        else:  # a bundle's single manifest file
            env_dir.mkdir()
            shutil.copyfile(source, env_dir / source.name)
        runs.append(
            {kind: str(env_dir), "workdir": str(workdir), "script": name, "timeout_s": timeout_s}
        )
    spec = root / "fetch-runs.json"
    spec.write_text(
        json.dumps({"runs": runs, "extension_hooks": extension_hooks()}), encoding="utf-8"
    )
    sandbox = run_sandboxed(
        [sys.executable, "-m", "ciso.evaluation.fetch_driver", str(spec)],
        out_dir=root,
        timeout_s=timeout_s * len(runs) + 30,
    )
    found: dict[str, Collection] = {}
    for label, run in zip(labels, runs, strict=True):
        workdir = Path(str(run["workdir"]))
        try:
            outcome = jsonsafe.loads(read_agent_text(workdir / OUTCOME), OUTCOME)
        except (OSError, UnsafeFile, ValueError):  # UnicodeDecodeError, JSONDecodeError, TooDeep
            found[label] = Collection(
                None,
                "the fetcher run did not complete (the sandbox ended early)",
                truncate(sandbox.stderr),
                sandbox.duration_s,
            )
            continue
        found[label] = _outcome(SimpleNamespace(**outcome), workdir, timeout_s)
    return found


def has_shebang(script: Path) -> bool:
    return read_agent_bytes(script)[:2] == b"#!"


def rewrite_paths(text: str, absolute: list[str]) -> str:
    """ITBench-Lite rewrites absolute paths to the snapshot's ``static-resources`` or to the agent's
    workspace into relative ones before running ``fetch.sh``."""
    for path in sorted({p.rstrip("/") for p in absolute if p}, key=len, reverse=True):
        text = text.replace(path + "/static-resources", "./static-resources")
        text = text.replace(path, ".")
    return text
