"""Named evaluation protocols: the settings a published leaderboard ran its models with.

``--protocol itbench-aa`` is ITBench-AA's: the model works through one shell (no bespoke tools),
at most 100 turns, three repeats of every task, and the headline is the domain's AA metric (for
incident diagnosis: average precision at full recall). A domain opts in by naming its metric for the
protocol in ``Domain.protocol_metrics``; flags the user gives explicitly win over the protocol's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Protocol:
    name: str
    #: ``--llm-shell`` under this protocol.
    llm_shell: Literal["off", "on", "only"]
    #: ``--max-turns`` unless given.
    max_turns: int
    #: ``--trials`` unless given.
    trials: int
    summary: str


PROTOCOLS: dict[str, Protocol] = {
    "itbench-aa": Protocol(
        name="itbench-aa",
        llm_shell="only",
        max_turns=100,
        trials=3,
        summary="ITBench-AA: the llm agent with one sandboxed shell tool only, 100 turns, "
        "3 trials, the domain's AA metric as the primary metric",
    ),
}
