"""One environment's verdict for the OPA classes: collect, evaluate ``data.check.result``, compare
with what a correct policy gives there (exactly ``false`` on a violation, ``true`` when compliant)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ciso.evaluation.fetch import Collection
from ciso.evaluation.plan import Environment
from ciso.evaluation.record import Record
from ciso.evaluation.rego import evaluate_policy


def judge(
    record: Record,
    env: Environment,
    policy: Path,
    collect: Callable[[Environment], Collection],
    collect_step: str,
) -> bool:
    """True when the policy gives exactly the expected boolean on this environment. Any failure
    on the way is recorded (the first one becomes the trial's reason)."""
    with record.timed(collect_step):
        collection = collect(env)
    if not collection.ok:
        record.verdict(env.label, collected=False, problem=collection.problem)
        record.fail(f"{collect_step} ({env.label})", collection.problem, collection.output)
        return False
    with record.timed("rego"):
        verdict = evaluate_policy(policy, collection.data)
    if verdict.engine:
        record.engines["rego"] = verdict.engine
    record.verdict(env.label, collected=True, result=verdict.shown(), expected=env.expected)
    if verdict.error:
        record.fail(f"rego ({env.label})", "policy.rego does not evaluate", verdict.error)
        return False
    if verdict.value is not env.expected:
        record.fail(
            f"rego ({env.label})",
            f"data.check.result is {verdict.shown()} on the {env.label} environment; "
            f"expected {str(env.expected).lower()}",
        )
        return False
    return True
