"""``itbench sre run --task mitigate``: one scenario per generator fault type, its cluster served
by the twin while the agent works, and the verdict read back for the evaluator.

A mitigation scenario is a generated incident folder (the snapshot the agent may read, as for
diagnosis) plus ``mitigation.json`` beside it naming the generator's recipe (fault type, seed),
from which the twin rebuilds the cluster; the agent sees neither that file nor the ground truth.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from itbench.errors import InputError, UsageError
from itbench.fsutil import atomic_write_json
from itbench.models import Scenario, ScoreValue
from itbench.records import read_signed_record, write_signed_record
from itbench.runner.selection import select_ids
from sre.generator.ground_truth import GroundTruth
from sre.seed_keys import keyed_hex

#: the recipe beside a mitigation scenario's snapshot
RECIPE_FILE = "mitigation.json"
#: the built-in suite's seeds lie in [SUITE_SEED, SUITE_SEED + SUITE_SEED_SPAN), each fault type's
#: drawn from its own name under the suite's secret (``suite_seed``)
SUITE_SEED = 3500
SUITE_SEED_SPAN = 10_000
KUBECONFIG_FILE = "kubeconfig.yaml"
#: the built-in suite's secret, beside its incidents in the run directory (``suite_secret``)
SECRET_FILE = "SEED"
#: where the trial environment leaves the verdict for the evaluator
VERDICT_FILE = Path(".itbench") / "mitigation.json"

PROMPT = """\
An incident is under way in a Kubernetes cluster running the OpenTelemetry demo (namespace
otel-demo). Repair it: $KUBECONFIG points kubectl at the cluster (`kubectl get pods -n otel-demo`,
`kubectl get events -n otel-demo`, `kubectl rollout history`, ...). Your working directory also
holds an offline snapshot of the incident up to the moment you were called in (ITBench-Lite v0.2:
alerts/, k8s_events_raw.tsv, k8s_objects_raw.tsv, traces, logs, metrics; read it with
`itbench sre tool NAME --snapshot .`).

You pass when every alert the fault raised has cleared and stays clear, with the faulty service
serving again. Change only what the repair needs: deleting pods, restarting or scaling workloads
that are not broken, or deleting the application count against you. You may also write your
diagnosis to agent_output.json in the working directory (the diagnosis task's format).
"""


@dataclass(frozen=True)
class MitigationTruth:
    """What the evaluator knows of a mitigation scenario (never shown to the agent)."""

    fault_type: str
    seed: int
    diagnosis: GroundTruth | None
    #: the faulty service (None: the one the generator draws for the seed)
    target: str | None = None


def write_recipe(folder: Path, fault_type: str, seed: int, target: str | None = None) -> None:
    recipe: dict[str, object] = {"fault_type": fault_type, "seed": seed}
    if target is not None:
        recipe["target"] = target
    atomic_write_json(folder / RECIPE_FILE, recipe)


def read_recipe(folder: Path) -> tuple[str, int, str | None]:
    """(fault type, seed, target) of a scenario folder; a clear error when it has no fault
    entry."""
    from sre.generator.faults import FAULT_TYPES

    path = folder / RECIPE_FILE
    if not path.is_file():
        raise UsageError(
            f"{folder}: no {RECIPE_FILE} (the fault entry the twin rebuilds the cluster from); "
            "mitigation runs on incidents generated for it (itbench sre run --task mitigate "
            "without --scenarios), not on recorded snapshots"
        )
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        fault_type, seed, target = doc["fault_type"], doc["seed"], doc.get("target")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{path}: unreadable fault entry ({exc}); expected "
                         '{"fault_type": ..., "seed": ...}') from None  # fmt: skip
    if fault_type not in FAULT_TYPES or not isinstance(seed, int):
        raise UsageError(
            f"{path}: fault_type {fault_type!r} is not one of {', '.join(sorted(FAULT_TYPES))} "
            "or seed is not an integer"
        )
    if target is not None and target not in FAULT_TYPES[fault_type].targets:
        raise UsageError(f"{path}: {fault_type} cannot target {target!r}")
    return fault_type, seed, target


def scenario_of(folder: Path) -> Scenario:
    from sre.generator.ground_truth import load_ground_truth
    from sre.snapshot_entries import SNAPSHOT_ENTRIES

    fault_type, seed, target = read_recipe(folder)
    truth_file = folder / "ground_truth.yaml"
    diagnosis = load_ground_truth(truth_file) if truth_file.is_file() else None
    inputs = {name: folder / name for name in SNAPSHOT_ENTRIES if (folder / name).exists()}
    return Scenario(
        id=folder.name.removeprefix("Scenario-"),
        domain="sre",
        **{"class": "sre-mitigation"},
        title="Mitigate the incident",
        description=PROMPT,
        inputs=inputs,
        ground_truth=MitigationTruth(fault_type, seed, diagnosis, target),
        source_dir=folder,
    )


def suite_secret(folder: Path) -> int:
    """The built-in suite's secret, kept in ``folder/SEED`` (the run directory, which no agent
    sees) and drawn at random the first time: the same run directory gives the same ids and
    incidents (a rerun resumes, ``sre eval`` finds them), and no agent can compute them."""
    path = folder / SECRET_FILE
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        # 63 bits, as the fresh diagnosis suite's seed: no agent can search the secrets
        path.write_text(f"{secrets.randbits(63)}\n", encoding="utf-8")
    try:
        return int(path.read_text(encoding="utf-8").strip())
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: not the suite's secret, an integer ({exc})") from None


def suite_id(fault_type: str, secret: int) -> str:
    """A built-in suite scenario's id. Opaque: the agent sees the id (its workspace's path,
    ``ITBENCH_WORKSPACE``, the scenario it is given), and ``mitigate-feature-flag`` would tell
    it the fault; so would an unkeyed hash of the public fault names (``itbench sre faults``),
    which an agent can compute. An HMAC under the suite's secret (:func:`suite_secret`): stable
    across runs of one run directory and across new fault types (a hash, not a position); the
    evaluation's details name the fault type once the agent has stopped."""
    return "mitigate-" + keyed_hex(secret, f"sre-mitigation/{fault_type}")[:8]


def suite_seed(fault_type: str, secret: int) -> int:
    """The built-in suite's seed for a fault type: ``SUITE_SEED`` plus the first eight hex
    digits of the HMAC of ``sre-mitigation/seed/<fault type>`` under the suite's secret modulo
    ``SUITE_SEED_SPAN``. It depends on the type's name and the secret alone, so adding or
    removing a fault type moves no other type's incident (a position in name order did), and
    an agent cannot re-create its incident from the public fault names."""
    return SUITE_SEED + int(keyed_hex(secret, f"sre-mitigation/seed/{fault_type}")[:8], 16) % (
        SUITE_SEED_SPAN
    )


def mitigation_suite(out: Path, select: tuple[str, ...] = ()) -> list[Scenario]:
    """The built-in suite under ``out/mitigation-suite/``: every fault type once at its own
    seed (``suite_seed``), so two runs judge the same incidents (generated once, reused
    after); only the incidents whose id ``select`` matches (``--select``: the ids are known
    before any incident is written, and the whole suite is some 200 MB)."""
    from sre.generator.faults import FAULT_TYPES
    from sre.generator.snapshot import write_incident

    folder = out / "mitigation-suite"
    secret = suite_secret(folder)
    scenarios = []
    chosen = set(select_ids([suite_id(f, secret) for f in FAULT_TYPES], select))
    for fault_type in sorted(f for f in FAULT_TYPES if suite_id(f, secret) in chosen):
        target = folder / f"Scenario-{suite_id(fault_type, secret)}"
        seed = suite_seed(fault_type, secret)
        if not (target / RECIPE_FILE).is_file():
            write_incident(target, fault_type, seed, "SMALL", incident_id=fault_type)
            write_recipe(target, fault_type, seed)
        scenarios.append(scenario_of(target))
    return scenarios


def load_mitigation_scenarios(
    spec: str | None, out: Path, select: tuple[str, ...] = ()
) -> list[Scenario]:
    if spec is None:
        return mitigation_suite(out, select)
    root = Path(spec)
    if not root.is_dir():
        raise UsageError(f"--scenarios {spec}: not a directory of mitigation scenarios")
    if (root / RECIPE_FILE).exists() or (root / "alerts").is_dir():
        return [scenario_of(root)]
    folders = sorted(p for p in root.iterdir() if p.is_dir())
    if not folders:
        raise UsageError(f"--scenarios {spec}: no scenario folder in it")
    return [scenario_of(p) for p in folders]


@contextmanager
def mitigation_environment(truth: MitigationTruth, workspace: Path) -> Iterator[Mapping[str, str]]:
    """The twin's cluster around one trial; on exit the verdict goes to ``VERDICT_FILE``."""
    from sre.twin.live_view import LiveView
    from sre.twin.scenario import build_case, serve_case
    from sre.twin.verdict import judge

    case = build_case(truth.fault_type, truth.seed, truth.target)
    kubeconfig = (workspace / KUBECONFIG_FILE).resolve()
    cluster, twin = serve_case(case, kubeconfig)
    view = twin.observer = LiveView(workspace)
    started = time.monotonic()
    try:
        yield {"KUBECONFIG": str(kubeconfig)}
    finally:
        try:
            with cluster.state.lock:
                end = cluster.state.clock.now if cluster.state.clock else case.start
            verdict = judge(twin, case.root, case.target, case.start, started, end)
            details = verdict.details()
            details["fault_type"] = truth.fault_type  # the agent has stopped: it may be named
            if view.note is not None:
                details["notes"] = [*details.get("notes", []), view.note]
            details["reconcile_ms_per_write"] = (
                round(1000 * sum(twin.reconcile_seconds) / len(twin.reconcile_seconds), 3)
                if twin.reconcile_seconds
                else None
            )
            # signed: a later ``eval`` scores it from a folder anyone may have edited; written
            # through real folders only (the agent may have left a link at .itbench)
            write_signed_record(
                workspace, VERDICT_FILE, {"scores": verdict.scores(), "details": details}
            )
        finally:
            cluster.stop()


def read_verdict(workspace: Path) -> tuple[dict[str, ScoreValue], dict[str, Any]]:
    """The verdict the trial's environment signed; an edited, unsigned or missing one is an
    ``InputError`` naming the file (``itbench.records``)."""
    path = workspace / VERDICT_FILE
    doc = read_signed_record(
        workspace, VERDICT_FILE, "no mitigation verdict (the trial's cluster did not close)"
    )
    try:
        return dict(doc["scores"]), dict(doc["details"])
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{path}: unreadable mitigation verdict: {exc!r}") from None
