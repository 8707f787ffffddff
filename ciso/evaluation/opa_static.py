"""``opa-static`` (ITBench-Lite): the agent's ``fetch.sh`` reads ``static-resources/`` and writes
``collected_data.json``; ``policy.rego`` judges it.

The four ITBench-Lite criteria, in order, later ones 0 once one fails: required_files_exist,
fetch_generates_data, violation_detection, compliance_validation (a scenario without a compliant
environment scores 0 on all four, as CISOEvaluator does). itbench_pass is 1 when all four are 1.
Strict: also ``false`` on every leave-one-in copy of the static resources; resource_recall is the
share of those detected.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ciso.evaluation.answer import find_file, listing
from ciso.evaluation.fetch import TIME_LIMIT_S, Collection, has_shebang, run_static_batch
from ciso.evaluation.plan import COMPLIANT, VIOLATING, Environment, leave_one_in_environments
from ciso.evaluation.record import Record, as_score
from ciso.evaluation.verdicts import judge
from ciso.scenarios.model import CisoScenario
from itbench.plugins.spec import TrialScores
from itbench.sandbox.backend import current as sandbox_backend

CRITERIA = (
    "required_files_exist",
    "fetch_generates_data",
    "violation_detection",
    "compliance_validation",
)


def evaluate(
    scenario: CisoScenario, trial_dir: Path, timeout_s: float = TIME_LIMIT_S
) -> TrialScores:
    record = Record(engines={"sandbox": sandbox_backend()})
    criteria = dict.fromkeys(CRITERIA, 0)
    fetch = find_file(trial_dir, ("fetch.sh",))
    policy = find_file(trial_dir, ("policy.rego",))
    if scenario.compliant is None:
        record.fail("scenario", "no compliant static resources: ITBench-Lite scores all criteria 0")
        return record.scores(_scores(criteria, strict=False, recall=0.0))
    if fetch is None or policy is None:
        missing = [n for n, p in (("fetch.sh", fetch), ("policy.rego", policy)) if p is None]
        record.fail(
            "files",
            f"missing {' and '.join(missing)}; the agent left: {listing(trial_dir, names=('fetch.sh', 'policy.rego'))}",
        )
        return record.scores(_scores(criteria, strict=False, recall=0.0))
    criteria["required_files_exist"] = 1
    if not has_shebang(fetch):
        record.fail("fetch", "fetch.sh has no shebang line (#!...): it is executed directly")
        return record.scores(_scores(criteria, strict=False, recall=0.0))

    # absolute paths the agent may have written into fetch.sh: its workspace and the snapshot
    absolute = [
        str(trial_dir.resolve()),
        str(fetch.parent.resolve()),
        str(scenario.violating.parent),
    ]
    with tempfile.TemporaryDirectory(prefix="itbench-opa-static-") as scratch:
        root = Path(scratch)
        violating = Environment(VIOLATING, scenario.violating, False)
        compliant = Environment(COMPLIANT, scenario.compliant, True)
        extra = leave_one_in_environments(scenario, root / "environments")
        # every environment in one sandbox, one after another (the driver empties it between
        # them): one sandbox start per trial, not one per environment. The compliant and
        # leave-one-in runs are judged only when the violating one collected data, as before.
        with record.timed("fetch"):
            collected = run_static_batch(
                fetch,
                root / "runs",
                [(e.label, e.source) for e in (violating, compliant, *extra)],
                absolute,
                timeout_s,
            )
        first = collected[VIOLATING]
        if not first.ok:
            record.verdict(VIOLATING, collected=False, problem=first.problem)
            record.fail(f"fetch ({VIOLATING})", f"fetch.sh {first.problem}", first.output)
            return record.scores(_scores(criteria, strict=False, recall=0.0))
        criteria["fetch_generates_data"] = 1

        def ready(env: Environment) -> Collection:
            return collected[env.label]

        detected = judge(record, violating, policy, ready, "fetch")
        criteria["violation_detection"] = as_score(detected)
        if detected:
            criteria["compliance_validation"] = as_score(
                judge(record, compliant, policy, ready, "fetch")
            )
        caught = [judge(record, env, policy, ready, "fetch") for env in extra]
    recall = (sum(caught) / len(caught)) if caught else float(detected)
    strict = all(criteria.values()) and all(caught)
    return record.scores(_scores(criteria, strict=strict, recall=recall))


def _scores(criteria: dict[str, int], strict: bool, recall: float) -> dict[str, float | int]:
    return {
        **criteria,
        "itbench_pass": as_score(all(criteria.values())),
        "strict_pass": as_score(strict),
        "resource_recall": round(recall, 4),
    }
