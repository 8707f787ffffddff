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

from ciso.evaluation.answer import find_file, listing
from ciso.evaluation.fetch import TIME_LIMIT_S, run_fetcher_batch
from ciso.evaluation.plan import COMPLIANT, VIOLATING, Environment, leave_one_in_environments
from ciso.evaluation.record import Record, as_score
from ciso.evaluation.verdicts import judge
from ciso.scenarios.model import CisoScenario
from itbench.plugins.spec import TrialScores

FETCHER_NAMES = ("fetcher.sh", "script.sh")


def evaluate(
    scenario: CisoScenario, trial_dir: Path, timeout_s: float = TIME_LIMIT_S
) -> TrialScores:
    record = Record(engines={"sandbox": "bubblewrap", "cluster": "itbench offline cluster"})
    fetcher = find_file(trial_dir, FETCHER_NAMES)
    policy = find_file(trial_dir, ("policy.rego",))
    if fetcher is None or policy is None:
        missing = [
            n
            for n, p in (("fetcher.sh (or script.sh)", fetcher), ("policy.rego", policy))
            if p is None
        ]
        record.fail(
            "files", f"missing {' and '.join(missing)}; the agent left: {listing(trial_dir)}"
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
        with record.timed("fetcher"):
            collected = run_fetcher_batch(
                fetcher, root / "runs", [(e.label, e.source) for e in environments], timeout_s
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


def _zero(scenario: CisoScenario) -> dict[str, float | int]:
    return {"itbench_pass": 0, "strict_pass": 0, "resource_recall": 0.0}
