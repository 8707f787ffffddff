"""``itbench finops run --task mitigate|diagnose`` on the Kubernetes cost scenarios: the built-in
suite, the trial's cluster around each trial, the verdict judged from what the trial left.

A scenario is named ``k8s-<family>-<seed>``; its ground truth is regenerated from the pair
(``scenario.generate``), never shown to the agent; a user-written scenario (``folder.py``) is
read again from its folder, which sandboxed agents cannot see. The trial environment serves the
scenario's cluster (``serve.py``; read-only on the diagnose task), hands the agent
``KUBECONFIG``, and on exit records the namespace's
declared objects (``END_STATE_FILE``). The evaluator, at the end of the run or in a later
``itbench finops eval``, judges the configuration those objects give with the diagnosis the agent
wrote to ``agent_output.json`` if any (``{"workload": ..., "kind": ..., "field": ...}``).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from finops.k8s.folder import discover_k8s_folders, is_k8s_folder, load_k8s_folder
from finops.k8s.objects import manifests, read_config
from finops.k8s.scenario import FAMILIES, K8sScenario, generate
from finops.k8s.serve import serve_scenario
from finops.k8s.verdict import judge
from itbench.cluster.decoding import decode
from itbench.errors import InputError, UsageError
from itbench.models import Scenario
from itbench.records import read_signed_record, write_signed_record

__all__ = [
    "K8S_CLASS_PREFIX",
    "k8s_folder_scenarios",
    "scenario_of",
    "K8sTruth",
    "k8s_environment",
    "k8s_ground_truth",
    "k8s_scenarios",
    "rejudge",
]

K8S_CLASS_PREFIX = "finops-k8s-"
KUBECONFIG_FILE = "kubeconfig.yaml"
END_STATE_FILE = Path(".itbench") / "k8s-end-state.json"
_K8S_ID = re.compile(r"^k8s-[a-z0-9-]+-\d+$")
#: seeds of the built-in suite: every family twice
SUITE_SEEDS = (3001, 3002)

PROMPT = """\
A cost alert fired for namespace {namespace} of a Kubernetes cluster: today's spend is more than the
alert allows (the rule is in ConfigMap cost-alert: variancePct over last week's average daily
spend, or over budgetPerDay when set). $KUBECONFIG points kubectl at the cluster. OpenCost's
allocation is in ConfigMap opencost-allocation (daily spend per workload, per-pod usage against
requests, prices, the alert's threshold); read Deployments and HorizontalPodAutoscalers as usual.

{task}
Write your diagnosis to agent_output.json in the working directory:
{{"workload": "<the workload whose change or rise drives the spend>",
 "kind": "<the object to change: HorizontalPodAutoscaler, Deployment or ConfigMap>",
 "field": "<the field at fault, e.g. spec.minReplicas>"}}
"""
MITIGATE = """\
Bring the spend back under the alert without breaking the services' SLO. If the rise is genuine
load, the alert is what is wrong: fix the alert, not the workload. If it is waste, remove the
waste; silencing the alert while the waste stays does not count. Change only what the fix needs.
"""
DIAGNOSE = "Find the cause; do not change the cluster.\n"


@dataclass(frozen=True)
class K8sTruth:
    family: str
    seed: int
    task: str  # mitigate or diagnose
    #: a user-written scenario's folder (``folder.py``); empty for a generated one
    folder: str = ""


@functools.lru_cache(maxsize=64)
def _generated(family: str, seed: int) -> K8sScenario:
    """A scenario is a pure function of its family and seed; a worker builds it once for the
    trial's cluster and the evaluator (~0.1 s each: the history and the optimum search)."""
    return generate(family, seed)


@functools.lru_cache(maxsize=64)
def _loaded(folder: str) -> K8sScenario:
    return load_k8s_folder(Path(folder))


def scenario_of(truth: K8sTruth) -> K8sScenario:
    return _loaded(truth.folder) if truth.folder else _generated(truth.family, truth.seed)


def warm_up() -> None:
    """Imports and lazy tables the first trial of every worker would otherwise pay inside its
    time: the API server's decoding models of the objects an agent writes (the ``kubernetes``
    client's models, ~0.25 s), the cluster and the cost model. Called by the runner's process
    before it forks its workers, so they inherit them."""
    s = _generated(next(iter(FAMILIES)), SUITE_SEEDS[0])
    for obj in manifests(s, s.incident, "2026-03-02T00:00:00Z"):
        decode(obj)


def _scenario(
    family: str, seed: int, task: str, folder: Path | None = None, scenario_id: str = ""
) -> Scenario:
    namespace = "shop"
    if folder is not None:
        namespace = _loaded(str(folder)).namespace
    return Scenario(
        id=scenario_id or f"k8s-{family}-{seed}",
        domain="finops",
        **{"class": K8S_CLASS_PREFIX + family},
        title="Bring the namespace's spend back under its cost alert"
        if task == "mitigate"
        else "Find the cause of the namespace's cost alert",
        description=PROMPT.format(
            namespace=namespace, task=MITIGATE if task == "mitigate" else DIAGNOSE
        ),
        ground_truth=K8sTruth(family, seed, task, str(folder) if folder is not None else ""),
        metadata={"task": task, "family": family, "namespace": namespace},
        # the folder holds ground_truth.yaml and the load model: hidden from sandboxed agents
        source_dir=folder,
    )


def k8s_folder_scenarios(root: Path, task: str) -> list[Scenario]:
    """The user-written scenarios of ``root`` (a scenario folder or a folder of them), each
    read and checked now: a malformed file stops the run before any trial (InputError)."""
    out = []
    for folder in discover_k8s_folders(root):
        folder = folder.resolve()
        s = _loaded(str(folder))
        out.append(_scenario(s.family, 0, task, folder, s.id))
    return out


def k8s_scenarios(spec: str | None, task: str) -> list[Scenario]:
    """The built-in suite, ``k8s-<family>-<seed>`` ids separated by commas, or a folder of
    user-written scenarios."""
    if spec is not None and is_k8s_folder(Path(spec)):
        return k8s_folder_scenarios(Path(spec), task)
    if spec is None or spec == "k8s":
        return [_scenario(f, s, task) for s in SUITE_SEEDS for f in FAMILIES]
    out = []
    for item in (w.strip() for w in spec.split(",")):
        family, _, seed = item.removeprefix("k8s-").rpartition("-")
        if family not in FAMILIES or not seed.isdigit():
            raise UsageError(
                f"--scenarios {item!r}: not k8s-<family>-<seed> nor a folder of Kubernetes cost "
                f"scenarios; families: {', '.join(FAMILIES)}"
            )
        out.append(_scenario(family, int(seed), task))
    return out


def _diagnosis(workspace: Path) -> tuple[str, str, str] | None:
    path = workspace / "agent_output.json"
    if not path.is_file() or path.is_symlink():
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return (str(doc["workload"]), str(doc["kind"]), str(doc["field"]))
    except (OSError, ValueError, KeyError, TypeError):
        return ("", "", "")  # unreadable: a diagnosis that names nothing


@contextmanager
def k8s_environment(truth: K8sTruth, workspace: Path) -> Iterator[Mapping[str, str]]:
    s = scenario_of(truth)
    kubeconfig = (workspace / KUBECONFIG_FILE).resolve()
    # diagnosing only reads: the cluster refuses writes from every client, as RBAC would
    cluster, twin = serve_scenario(s, kubeconfig, read_only=truth.task == "diagnose")
    try:
        yield {"KUBECONFIG": str(kubeconfig)}
    finally:
        try:
            # the cluster's end state, kept: the evaluator judges it after the trial, and so does
            # any later ``eval``, which has no cluster
            end = {
                "objects": [[list(k), o] for k, o in sorted(twin.declared.items())],
                "writes": twin.writes,
            }
            # signed: a later ``eval`` judges it from a folder anyone may have edited; written
            # through real folders only (the agent may have left a link at .itbench)
            write_signed_record(workspace, END_STATE_FILE, end)
        finally:
            cluster.stop()


def _end_state(workspace: Path) -> tuple[dict[tuple[str, str, str, str], dict], int]:
    path = workspace / END_STATE_FILE
    doc = read_signed_record(
        workspace, END_STATE_FILE, "no record of the cluster's end state (not a Kubernetes trial?)"
    )
    try:
        declared: dict[tuple[str, str, str, str], dict[str, Any]] = {}
        for key, obj in doc["objects"]:
            if not (isinstance(key, list) and len(key) == 4 and isinstance(obj, dict)):
                raise ValueError(f"object {key!r} is not [[group, plural, namespace, name], {{}}]")
            group, plural, namespace, name = (str(part) for part in key)
            declared[(group, plural, namespace, name)] = obj
        writes = int(doc.get("writes", 0))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path}: unreadable end state: {exc}") from None
    return declared, writes


def rejudge(truth: K8sTruth, workspace: Path) -> tuple[dict[str, float], dict]:
    """The verdict of a trial from what it left in its folder: the cluster's end state and the
    diagnosis in ``agent_output.json``; the scenario is regenerated from its family and seed,
    or read again from its folder."""
    s = scenario_of(truth)
    declared, writes = _end_state(workspace)
    config = read_config(s, declared) if declared else s.incident
    verdict = judge(s, config, _diagnosis(workspace) or ("", "", ""))
    scores = verdict.scores()
    if truth.task == "diagnose":
        scores = {"diagnosis_pass": scores["diagnosis_pass"]}
    details = {
        "cause": [s.cause.workload, s.cause.kind, s.cause.field],
        "changed": list(verdict.changed),
        "alert_days": list(verdict.alert_days),
        "alert_muted": verdict.alert_muted,
        "spend": verdict.spend,
        "optimal_spend": verdict.optimal_spend,
        "writes": writes,
    }
    return scores, details


def k8s_ground_truth(folder: Path, task: str) -> list[Scenario] | None:
    """The scenarios an outputs folder of Kubernetes trials was run on, from its folder names
    (``k8s-<family>-<seed>`` regenerates the truth), or a folder of user-written scenarios;
    None when it is neither."""

    if is_k8s_folder(folder):
        return k8s_folder_scenarios(folder, task)
    names = sorted(p.name for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    if not names or not all(_K8S_ID.match(n) for n in names):
        return None
    return k8s_scenarios(",".join(names), task)
