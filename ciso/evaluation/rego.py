"""``data.check.result`` of the agent's policy on collected data, on the best Rego backend, in a
killable worker (a policy that never finishes is a ``rego_timeout``, not a hang)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ciso.engines.rego.model import UNDEFINED, EvalResult, RegoError
from ciso.engines.rego.offline import offline_problem
from ciso.engines.rego.pool import RegoPool
from itbench import jsonsafe
from itbench.fsutil import UnsafeFile, read_agent_text

QUERY = "data.check.result"
#: ITBENCH_REGO_ENGINE=opa|opa-golib|regorus forces a backend (default: the best available).
ENGINE_VARIABLE = "ITBENCH_REGO_ENGINE"
TIME_LIMIT_S = 20.0

_POOL: RegoPool | None = None


def _pool() -> RegoPool:
    # one worker per process: a runner worker evaluates one trial at a time
    global _POOL
    if _POOL is None:
        _POOL = RegoPool(size=1, timeout_s=TIME_LIMIT_S, offline=True)
    return _POOL


def evaluate_source(
    modules: dict[str, str], query: str, input: Any, v0: bool = False
) -> EvalResult:
    """A scenario's own Rego (a migration's source) on the same killable worker as the agents'
    policies: a separate process, never the caller's, so the embedded Go engine is never
    loaded into a runner process that forks trial workers afterwards (a forked Go runtime
    hangs). RegoError when it does not compile, evaluate or finish in time."""
    return _pool().evaluate(
        modules, query, input, engine=os.environ.get(ENGINE_VARIABLE) or None, v0=v0
    )


@dataclass(frozen=True)
class RegoVerdict:
    """``value`` is the JSON value of ``result`` (UNDEFINED when the rule has none); ``error`` says
    why there is no value at all (parse/compile/eval error)."""

    value: Any
    engine: str
    error: str = ""

    def shown(self) -> str:
        if self.error:
            return "error"
        return "undefined" if self.value is UNDEFINED else json.dumps(self.value)


def load_collected(path: Path) -> tuple[Any, str]:
    """(data, problem): the collected data, or why it is unusable."""
    # written by the sandboxed collector: it may be a link to any host file, never followed
    if not os.path.lexists(path):
        return None, f"no {path.name} was written in the working directory"
    try:
        return jsonsafe.loads(read_agent_text(path), str(path)), ""
    except UnsafeFile as exc:
        return None, str(exc)
    except (OSError, ValueError) as exc:  # UnicodeDecodeError, JSONDecodeError, TooDeep
        return None, f"{path.name} is not valid JSON: {exc}"


def evaluate_policy(policy: Path, data: Any) -> RegoVerdict:
    """``data.check.result`` of ``policy`` with ``data`` as input."""
    try:
        source = read_agent_text(policy)
    except (OSError, UnsafeFile, UnicodeDecodeError) as exc:
        return RegoVerdict(UNDEFINED, "", f"{policy.name}: unreadable: {exc}")
    refused = offline_problem({policy.name: source})
    if refused:
        return RegoVerdict(UNDEFINED, "", refused)
    try:
        result = _pool().evaluate(
            {policy.name: source}, QUERY, data, engine=os.environ.get(ENGINE_VARIABLE) or None
        )
    except RegoError as exc:
        return RegoVerdict(UNDEFINED, exc.engine, str(exc))
    return RegoVerdict(result.value, f"{result.engine} {result.version}".strip())
