"""``kubectl-opa``: the agent's fetcher (``fetcher.sh``, or ``script.sh`` as the goal text calls
it) runs sandboxed against the offline cluster, then ``data.check.result`` of ``policy.rego`` on
its ``collected_data.json``.

ITBench: exactly ``false`` on the violating environment. Strict: also exactly ``true`` on the
compliant one and ``false`` on every leave-one-in environment; resource_recall is the share of
leave-one-in environments detected.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from ciso.evaluation.answer import find_file, listing
from ciso.evaluation.fetch import TIME_LIMIT_S, run_fetcher_batch
from ciso.evaluation.plan import COMPLIANT, VIOLATING, Environment, leave_one_in_environments
from ciso.evaluation.record import Record, as_score
from ciso.evaluation.verdicts import judge
from ciso.scenarios.model import CisoScenario

if TYPE_CHECKING:
    from ciso.live import LiveSettings
from itbench.plugins.spec import TrialScores
from itbench.sandbox.backend import current as sandbox_backend

FETCHER_NAMES = ("fetcher.sh", "script.sh")


def evaluate(
    scenario: CisoScenario,
    trial_dir: Path,
    timeout_s: float = TIME_LIMIT_S,
    live: LiveSettings | None = None,
) -> TrialScores:
    """Score the agent's fetcher and policy: the fetcher run against the live cluster of
    ``live`` (the run's session) when given, else against offline clusters."""
    record = Record(engines={"sandbox": sandbox_backend(), "cluster": "itbench offline cluster"})
    fetcher = find_file(trial_dir, FETCHER_NAMES)
    policy = find_file(trial_dir, ("policy.rego",))
    if fetcher is None or policy is None:
        missing = [
            n
            for n, p in (("fetcher.sh (or script.sh)", fetcher), ("policy.rego", policy))
            if p is None
        ]
        record.fail(
            "files",
            f"missing {' and '.join(missing)}; the agent left: {listing(trial_dir, names=(*FETCHER_NAMES, 'policy.rego'))}",
        )
        return record.scores(_zero(scenario))

    with tempfile.TemporaryDirectory(prefix="itbench-kubectl-opa-") as scratch:
        root = Path(scratch)
        environments = [Environment(VIOLATING, scenario.violating, False)]
        if scenario.compliant is not None:
            environments.append(Environment(COMPLIANT, scenario.compliant, True))
        else:
            record.notes.append("no compliant environment: strict_pass checks violations only")
        environments += leave_one_in_environments(scenario, root / "environments")
        runs = [(e.label, e.source) for e in environments]
        on_cluster = _live_suffix(scenario, trial_dir, live)
        with record.timed("fetcher"):
            if on_cluster is None:
                collected = run_fetcher_batch(fetcher, root / "runs", runs, timeout_s)
            else:
                from ciso.live.fetch import live_fetcher_batch

                record.engines["cluster"] = "live cluster (--kubeconfig)"
                collected = live_fetcher_batch(
                    on_cluster[0],
                    on_cluster[1],
                    fetcher,
                    root / "runs",
                    runs,
                    timeout_s,
                    _sources(scenario),
                )
        verdicts = {
            env.label: judge(record, env, policy, lambda e: collected[e.label], "fetcher")
            for env in environments
        }
    detected = verdicts[VIOLATING]
    compliant_ok = verdicts.get(COMPLIANT, True)
    caught = [verdicts[e.label] for e in environments if e.kept is not None]
    recall = (sum(caught) / len(caught)) if caught else float(detected)
    return record.scores(
        {
            "itbench_pass": as_score(detected),
            "strict_pass": as_score(detected and compliant_ok and all(caught)),
            "resource_recall": round(recall, 4),
        }
    )


def _live_suffix(
    scenario: CisoScenario, trial_dir: Path, live: LiveSettings | None
) -> tuple[LiveSettings, str] | None:
    """(live settings, the trial's name suffix) in live mode, else None."""
    if live is None:
        return None
    from ciso.live.naming import trial_suffix

    return live, trial_suffix(scenario.id, trial_dir)


def _sources(scenario: CisoScenario) -> list[Path]:
    """The scenario's folders: hidden from the fetcher (ground truth lies beside them)."""
    return [p for p in (scenario.source, scenario.violating, scenario.compliant) if p is not None]


def _zero(scenario: CisoScenario) -> dict[str, float | int]:
    return {"itbench_pass": 0, "strict_pass": 0, "resource_recall": 0.0}
