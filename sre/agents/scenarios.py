"""Scenarios for ``itbench sre run``: ITBench-Lite snapshot directories, or a fresh generated suite.

A scenario's inputs are the snapshot's files (never ``ground_truth.yaml``), copied to the root of
the workspace, so the workspace is itself a snapshot directory every tool and ``itbench sre mcp
--snapshot`` reads. Ids follow the folder names the way ``sre eval`` reads them (``Scenario-3`` is
``3``), so a run directory can be scored again with ``sre eval``.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path

from itbench.errors import UsageError
from itbench.models import Scenario
from itbench.runner.selection import select_ids
from sre.groundtruth import SCENARIO_FILES, load_truths
from sre.judge.hooks import scenario_class
from sre.seed_keys import keyed_hex, seed_key
from sre.session import SreSettings
from sre.snapshot.layout import SnapshotLayout
from sre.snapshot_entries import SNAPSHOT_ENTRIES


def fresh_suite_size() -> int:
    """Incidents in the suite ``itbench sre run`` generates when no --scenarios is given: every
    fault type once (the generator's list grows; the count follows it)."""
    from sre.generator.faults import FAULT_TYPES

    return len(FAULT_TYPES)


PROMPT = """\
An incident is under way in a Kubernetes cluster running the OpenTelemetry demo. An offline
snapshot of it (ITBench-Lite v0.2) is your working directory ($ITBENCH_WORKSPACE): alerts/,
metrics/, k8s_events_raw.tsv, k8s_objects_raw.tsv, otel_logs_raw.tsv and otel_traces_raw.tsv.
The investigation tools (alert_summary, event_analysis, k8s_spec_change_analysis,
get_trace_error_tree, ...) read it: as function tools, on the command line
(`itbench sre tool NAME --snapshot .`), or over MCP (`itbench sre mcp --snapshot .`).

Find the root cause: the Kubernetes object(s) whose change or failure started the incident,
how the failure propagated to the alerting services, and which alerts it explains. Write
agent_output.json in the working directory:
{"entities": [{"name": "<namespace>/<Kind>/<name>", "contributing_factor": true,
               "reasoning": "...", "evidence": "..."}],
 "propagations": [{"source": "<namespace>/<Kind>/<name>", "target": "<namespace>/<Kind>/<name>",
                   "condition": "...", "effect": "..."}],
 "alerts_explained": [{"alert": "<alertname> on <service>", "explanation": "...",
                       "explained": true}]}
List entities most important first; mark only root causes with "contributing_factor": true.
"""


def _snapshot_dirs(root: Path) -> list[Path]:
    """Scenario folders under ``root`` (or ``root`` itself): folders holding a snapshot."""

    def is_snapshot(p: Path) -> bool:
        return (p / "alerts").is_dir() or any(p.glob("*_raw.tsv")) or bool(snapshot_inputs(p))

    if is_snapshot(root):
        return [root]
    return sorted((p for p in root.iterdir() if p.is_dir() and is_snapshot(p)), key=_order)


def snapshot_inputs(folder: Path) -> dict[str, Path]:
    """The snapshot entries of ``folder`` an agent gets: the v0.2 names, or the files other
    exporters name differently (``traces.otlp.json``, ``k8s_events.jsonl.gz``) where the tools
    find them; never the ground truth."""
    layout = SnapshotLayout(folder)
    found = [folder / name for name in SNAPSHOT_ENTRIES]
    found += [layout.events, layout.objects, layout.logs, layout.traces, layout.topology]
    return {p.name: p for p in found if p.exists() and p.name not in SCENARIO_FILES}


def _order(p: Path) -> tuple[int, str]:
    digits = "".join(ch for ch in p.name if ch.isdigit())
    return (int(digits) if digits.isdigit() and digits == p.name.split("-")[-1] else 10**9, p.name)


def _truth_file(folder: Path) -> Path | None:
    return next((folder / n for n in SCENARIO_FILES if (folder / n).is_file()), None)


def snapshot_scenarios(root: Path) -> list[Scenario]:
    """Every snapshot under ``root``; each needs its ground truth, which scores it."""
    if not root.is_dir():
        raise UsageError(f"--scenarios {root}: not a directory of incident snapshots")
    folders = _snapshot_dirs(root)
    if not folders:
        raise UsageError(
            f"--scenarios {root}: no incident snapshot found (folders with alerts/ and "
            "k8s_*_raw.tsv files, e.g. Scenario-1/)"
        )
    scenarios = []
    for folder in folders:
        truth_file = _truth_file(folder)
        if truth_file is None:
            raise UsageError(
                f"{folder}: no ground truth ({', '.join(SCENARIO_FILES[:4])}); `sre run` scores "
                "every trial, so each snapshot needs one"
            )
        ((sid, loaded),) = load_truths(truth_file).items()
        inputs = snapshot_inputs(folder)
        scenarios.append(
            Scenario(
                id=sid,
                domain="sre",
                **{"class": scenario_class(loaded.truth)},
                title=f"Diagnose incident {sid}",
                description=PROMPT,
                inputs=inputs,
                ground_truth=loaded.truth,
                reference=loaded.truth,
                source_dir=folder,
            )
        )
    return scenarios


#: Where a fresh suite's seed is recorded, beside its incidents (in the run directory, which no
#: agent sees): ``itbench sre generate --seed`` with it re-creates the suite's ground truth.
SEED_FILE = "SEED"


def suite_tag(seed: int) -> str:
    """The fresh suite's name in ids and paths: an HMAC of a fixed text under the seed, so the
    same seed gives the same ids (a rerun resumes) but the ids say nothing of the seed."""
    return keyed_hex(seed, "itbench sre fresh suite")[:10]


def fault_order(seed: int, count: int, kinds: Sequence[str]) -> list[str]:
    """The fault type of each of ``count`` incidents: every run of ``len(kinds)`` consecutive
    incidents holds each kind once, in an order drawn from the seed. In turn through the sorted
    list, incident ``<tag>-1`` always had the first fault type, so an agent read the answer off
    its id or workspace path without opening the snapshot; the order is the seed's now, which no
    agent sees (the same seed gives the same suite). Each kind sorts by an HMAC of its name and
    the run's number under the seed, which needs no random generator whose algorithm could
    change between Python versions."""
    key = seed_key(seed)
    order: list[str] = []
    for block in range(-(-count // len(kinds))):
        order += sorted(kinds, key=functools.partial(_fault_rank, key, block))
    return order[:count]


def _fault_rank(key: bytes, block: int, kind: str) -> bytes:
    text = f"itbench sre fresh suite fault order/{block}/{kind}".encode()
    return hmac.new(key, text, hashlib.sha256).digest()


def fresh_suite(
    out: Path, seed: int, count: int | None = None, select: tuple[str, ...] = ()
) -> list[Scenario]:
    """``count`` generated incidents (fault types in the seed's order, :func:`fault_order`; by
    default every fault type once)
    under ``out/incidents-<tag>/``, only those whose id ``select`` matches (``--select``: the
    ids are known before any incident is written). The
    seed re-creates every ground truth (the generator is deterministic), so it appears in no id,
    path or task text an agent sees: only in ``SEED`` beside the incidents, in the run directory;
    ids carry the tag, so a later run with another seed never resumes these trials."""
    from sre.generator.faults import FAULT_TYPES
    from sre.generator.snapshot import write_incident

    count = len(FAULT_TYPES) if count is None else count
    kinds = fault_order(seed, count, sorted(FAULT_TYPES))
    tag = suite_tag(seed)
    folder = out / f"incidents-{tag}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / SEED_FILE).write_text(f"{seed}\n", encoding="utf-8")
    chosen = set(select_ids([f"{tag}-{i + 1}" for i in range(count)], select))
    for i in range(count):
        target = folder / f"Scenario-{tag}-{i + 1}"
        if f"{tag}-{i + 1}" in chosen and not (target / "ground_truth.yaml").is_file():
            write_incident(target, kinds[i], seed + i, "SMALL", incident_id=f"{tag}-{i + 1}")
    return snapshot_scenarios(folder)


def without_hidden(scenarios: list[Scenario], hide: frozenset[str], out: Path) -> list[Scenario]:
    """The scenarios with the hidden sources' entries left out of their inputs and the marker
    (:mod:`sre.snapshot.hidden`) added, so the tools say what is hidden."""
    if not hide:
        return scenarios
    from sre.snapshot.hidden import MARKER, marker_text, source_of

    out.mkdir(parents=True, exist_ok=True)
    marker = out / MARKER  # the run directory: agents see only their workspace's copy
    marker.write_text(marker_text(hide), encoding="utf-8")
    return [
        s.model_copy(
            update={
                "inputs": {
                    **{k: v for k, v in s.inputs.items() if source_of(k) not in hide},
                    MARKER: marker,
                }
            }
        )
        for s in scenarios
    ]


def load_scenarios(spec: str | None, run: SreSettings | None = None) -> list[Scenario]:
    """The scenarios of ``spec`` under the run's settings (``run``, from its session; None: a
    diagnosis run with nothing hidden)."""
    run = run or SreSettings()
    scenarios = _load_scenarios(spec, run)
    return without_hidden(scenarios, run.judge.hide, run.directory)


def _load_scenarios(spec: str | None, run: SreSettings) -> list[Scenario]:
    if run.judge.task == "mitigate":
        from sre.live.environment import injectable_only
        from sre.twin.suite import load_mitigation_scenarios

        return injectable_only(load_mitigation_scenarios(spec, run.directory, run.select), run.live)
    if spec is not None:
        path = Path(spec)
        if not path.exists():
            raise UsageError(
                f"--scenarios {spec}: no such directory (sre has no built-in ids; give a folder "
                "of snapshots, or nothing for a fresh generated suite)"
            )
        return snapshot_scenarios(path)
    # 63 bits: no agent can search the seeds for one whose incidents match its snapshot
    seed = secrets.randbits(63)
    out = run.directory
    folder = out / f"incidents-{suite_tag(seed)}"
    print(
        f"sre: generating {fresh_suite_size()} incidents"
        f"{' (those --select picks)' if run.select else ''} into {folder} (rerun them: itbench sre "
        f"run --scenarios {folder}; the seed, kept from the agents, is in {folder / SEED_FILE})",
        file=sys.stderr,
    )
    return fresh_suite(out, seed, select=run.select)
