"""pydantic v2 models shared by every domain.

Ground truth and reference answers live on :class:`Scenario` (the harness's record) and are
excluded from every dump. Agents never get a :class:`Scenario`: they get a
:class:`PublicScenario`, a separate type that has no field able to hold them.

``Scenario`` is generic in those two types: a domain names its own (``Scenario[MyTruth,
MyAnswer]``) where it reads them, and core, which never does, writes ``Scenario`` (both ``Any``).
The parameters are for the type checker only: scenarios are built unparametrised, so they pickle
and copy as one class.
"""

from __future__ import annotations

import copy
from enum import StrEnum
from pathlib import Path
from typing import Any, Generic

from pydantic import BaseModel, ConfigDict, Field

# TypeVar defaults (PEP 696) before Python 3.13; typing_extensions comes with pydantic
from typing_extensions import TypeVar

#: A trial score: a number, a dict of numbers (``calculation``, ``calculation_precision`` ...), or null.
# A dict score may carry the judge's evidence beside its numbers (ITBench-Evaluations writes
# justifications and per-entity verdicts there); aggregation reads only the calculation keys.
ScoreValue = float | int | bool | dict[str, Any] | None

#: A domain's ground truth (what its evaluator scores against) and reference answer (what the
#: ``oracle`` replays); ``Any`` where a ``Scenario`` is written without them (core).
TruthT = TypeVar("TruthT", default=Any)
ReferenceT = TypeVar("ReferenceT", default=Any)
OtherTruthT = TypeVar("OtherTruthT")


class Scenario(BaseModel, Generic[TruthT, ReferenceT]):
    """One task an agent is asked to solve."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, arbitrary_types_allowed=True)

    id: str
    domain: str
    scenario_class: str = Field(alias="class")
    title: str
    #: The task text handed to the agent (prompt); ``title`` is the one-line requirement.
    description: str = ""
    #: Workspace-relative name -> source file or directory that the agent may see.
    inputs: dict[str, Path] = Field(default_factory=dict)
    #: Hidden from agents: what the evaluator scores against.
    ground_truth: TruthT = Field(default=None, exclude=True, repr=False)  # type: ignore[assignment]  # None: a scenario built without truth (agent-side tests); a domain's loader always sets it
    #: Hidden from agents: the reference answer the ``oracle`` agent replays.
    reference: ReferenceT = Field(default=None, exclude=True, repr=False)  # type: ignore[assignment]  # None: a domain without reference answers
    #: Hidden from agents: the folder the scenario was read from (ground truth may lie there);
    #: the command agent's sandbox hides it even when no input comes from it.
    source_dir: Path | None = Field(default=None, exclude=True, repr=False)
    metadata: dict[str, Any] = Field(default_factory=dict)

    def with_ground_truth(self, truth: OtherTruthT) -> Scenario[OtherTruthT, ReferenceT]:
        """This scenario scored against ``truth`` instead (e.g. one part of its own truth)."""
        return self.model_copy(update={"ground_truth": truth})  # type: ignore[return-value]  # model_copy keeps the old truth type; the update replaces the truth it describes

    def public_view(self) -> PublicScenario:
        """What an agent may know of this scenario: no ground truth, no reference, and no path
        to the scenario's own files (they sit beside its ground truth)."""
        return PublicScenario(
            id=self.id,
            domain=self.domain,
            scenario_class=self.scenario_class,
            title=self.title,
            description=self.description,
            inputs=tuple(sorted(self.inputs)),
            metadata=copy.deepcopy(self.metadata),
        )


class PublicScenario(BaseModel):
    """The agent's view of a scenario. A separate type rather than a filtered :class:`Scenario`,
    so no attribute of it can reach ground truth or the reference answer."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")

    id: str
    domain: str
    scenario_class: str = Field(alias="class")
    title: str
    description: str = ""
    #: Workspace-relative names of the inputs the runner copied into the workspace.
    inputs: tuple[str, ...] = ()
    #: The domain's public facts (the domain keeps hidden facts out of ``Scenario.metadata``).
    metadata: dict[str, Any] = Field(default_factory=dict)


class Trial(BaseModel):
    """One attempt of one agent at one scenario; ``number`` counts from 1."""

    model_config = ConfigDict(frozen=True)

    scenario_id: str
    number: int = Field(ge=1)
    directory: Path

    @property
    def trial_id(self) -> str:
        return str(self.number)


class AgentStatus(StrEnum):
    OK = "ok"
    ERROR = "error"
    TIMEOUT = "timeout"


class Usage(BaseModel):
    """Token and cost totals of one trial (zero for agents that call no model)."""

    model_config = ConfigDict(frozen=True)

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    llm_calls: int = 0
    #: Tool calls the agent made (the llm agent counts its own; command agents may report them).
    tool_calls: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
            llm_calls=self.llm_calls + other.llm_calls,
            tool_calls=self.tool_calls + other.tool_calls,
        )


class AgentResult(BaseModel):
    """What the agent run produced (its answer is files in the workspace)."""

    model_config = ConfigDict(frozen=True)

    status: AgentStatus = AgentStatus.OK
    reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    duration_s: float = 0.0


#: The key of ``Evaluation.details`` (and of a ``raw_results`` entry) saying that the agent's
#: programs ran outside the sandbox (``--agent-sandbox off``): such a score proves nothing.
UNSANDBOXED = "unsandboxed"


class Evaluation(BaseModel):
    """The scored outcome of one trial, as stored in ``evaluation.json``."""

    model_config = ConfigDict(frozen=True)

    scenario_id: str
    trial_id: str
    scenario_class: str | None = None
    agent: str | None = None
    model: str | None = None
    scores: dict[str, ScoreValue] = Field(default_factory=dict)
    error: str | None = None
    usage: Usage = Field(default_factory=Usage)
    duration_s: float = 0.0
    details: dict[str, Any] = Field(default_factory=dict)

    def raw_result(self) -> dict[str, Any]:
        """This trial as one ``raw_results`` entry of the ITBench results document."""
        entry: dict[str, Any] = {"incident_id": self.scenario_id, "trial_id": self.trial_id}
        # an errored trial carries empty scores too, so scripts iterating scores do not crash
        entry["scores"] = dict(self.scores) if self.error is None else {}
        if self.error is not None:
            entry["error"] = self.error
        if self.duration_s:
            # Wall time of the whole trial (agent + evaluation), for "mean time per scenario"
            # tables; ITBench's readers ignore keys they do not know.
            entry["duration_s"] = self.duration_s
        if self.usage != Usage():
            # What the trial spent (tokens, dollars, LLM calls = turns) for leaderboards; left out
            # for agents that call no model, so their files stay as ITBench writes them.
            # ITBench's readers read only incident_id, trial_id, scores and error.
            entry["usage"] = self.usage.model_dump()
        if self.details.get(UNSANDBOXED):
            entry[UNSANDBOXED] = True  # a leaderboard refuses it (itbench never ranks it)
        judge = self.details.get("judge_usage")
        if isinstance(judge, dict) and any(judge.values()):
            # An LLM judge's spend is the evaluator's, not the agent's: kept apart so a
            # leaderboard's $/task is what the agent cost (a domain's evaluator reports it in
            # details["judge_usage"] with Usage's keys).
            entry["judge_usage"] = dict(judge)
        return entry
