"""``rhel9-ansible-opa``: the agent's ``playbook.yml`` runs under ansible-playbook in the sandbox
against a private copy of the host tree (with its file modes applied), then ``data.check.result``
of ``policy.rego`` on the ``collected_data.json`` it wrote.

ITBench: exactly ``false`` on the violating host. Strict: also exactly ``true`` on the compliant
host (settings are not separable objects, so there is no leave-one-in here).
"""

from __future__ import annotations

import secrets
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ciso.engines.ansible import run_playbook
from ciso.environments.hosts import locate, prepare
from ciso.evaluation.answer import find_file, listing
from ciso.evaluation.fetch import Collection
from ciso.evaluation.plan import COMPLIANT, VIOLATING, Environment
from ciso.evaluation.record import Record, as_score, truncate
from ciso.evaluation.rego import load_collected
from ciso.evaluation.verdicts import judge
from ciso.scenarios.model import CisoScenario
from itbench.plugins.spec import TrialScores
from itbench.sandbox.backend import current as sandbox_backend

TIME_LIMIT_S = 120.0
ANSWER_NAMES = ("playbook.yml", "playbook.yaml", "policy.rego")


def _already(collected: Collection) -> Callable[[Environment], Collection]:
    """A collect step that hands back what the playbook run already collected."""
    return lambda _env: collected


def _ansible_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return (
            f"ansible-core {version('ansible-core')} (ansible-runner {version('ansible-runner')})"
        )
    except PackageNotFoundError:  # metadata missing: the record says so, the trial goes on
        return "ansible (version unknown)"


def evaluate(
    scenario: CisoScenario, trial_dir: Path, timeout_s: float = TIME_LIMIT_S
) -> TrialScores:
    record = Record(engines={"sandbox": sandbox_backend(), "ansible": _ansible_version()})
    playbook = find_file(trial_dir, ("playbook.yml", "playbook.yaml"))
    policy = find_file(trial_dir, ("policy.rego",))
    if playbook is None or policy is None:
        missing = [n for n, p in (("playbook.yml", playbook), ("policy.rego", policy)) if p is None]
        record.fail(
            "files",
            f"missing {' and '.join(missing)}; the agent left: {listing(trial_dir, names=ANSWER_NAMES)}",
        )
        return record.scores({"itbench_pass": 0, "strict_pass": 0})

    environments = [Environment(VIOLATING, scenario.violating, False)]
    if scenario.compliant is not None:
        environments.append(Environment(COMPLIANT, scenario.compliant, True))
    else:
        record.notes.append("no compliant host: strict_pass checks the violation only")
    with tempfile.TemporaryDirectory(prefix="itbench-rhel9-") as scratch:
        root = Path(scratch)

        def collect(index: int, env: Environment) -> Collection:
            # random names: the playbook must not tell the hosts apart by its folder's name
            name = secrets.token_hex(6)
            tree, notes = prepare(locate(env.source), root / f"host-{name}")
            record.notes.extend(notes)
            out_dir = root / f"run-{name}"
            result = run_playbook(playbook, out_dir=out_dir, host_tree=tree, timeout_s=timeout_s)
            # the runner's events name the task that failed on the host, and why
            output = truncate(result.summary())
            if not result.ok:
                failed = "; ".join(result.failed_tasks())
                problem = f"playbook {result.status}" + (f": {failed}" if failed else "")
                return Collection(None, problem, output, result.sandbox.duration_s)
            data, problem = load_collected(out_dir / "collected_data.json")
            return Collection(data, problem, output, result.sandbox.duration_s)

        # the two hosts are independent sandboxes: Ansible spends much of its time waiting on
        # its own worker processes, so running them side by side shortens a trial
        with record.timed("playbook"), ThreadPoolExecutor(max_workers=2) as pool:
            collected = list(pool.map(collect, range(len(environments)), environments))
        verdicts = [
            judge(record, env, policy, _already(c), "playbook")
            for env, c in zip(environments, collected, strict=True)
        ]
    detected, compliant_ok = verdicts[0], all(verdicts[1:])
    return record.scores(
        {"itbench_pass": as_score(detected), "strict_pass": as_score(detected and compliant_ok)}
    )
