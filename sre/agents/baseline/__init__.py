"""``baseline``: the SRE domain's deterministic diagnosis (no LLM, never reads ground truth).

Steps, one module each: gather the signals through the investigation tools (``evidence``), rank
the observed changes as root causes (``rank``; the API-server flood rule in ``api_flood``), write
the chain and explained alerts (``report``). The answer is ``agent_output.json`` in the ITBench output schema.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from itbench.fsutil import atomic_write_text
from itbench.models import AgentResult
from itbench.plugins.spec import Task

if TYPE_CHECKING:
    from sre.agents.baseline.report import Diagnosis

OUTPUT_FILE = "agent_output.json"


def diagnose(snapshot: Path) -> Diagnosis:
    # the tools load DuckDB: imported in the trial, not in the runner that builds the agent (the
    # runner would otherwise carry DuckDB's bindings to its exit, which reports them as leaked)
    from sre.agents.baseline.evidence import gather
    from sre.agents.baseline.rank import rank
    from sre.agents.baseline.report import build
    from sre.agents.baseline.state import observe

    evidence = observe(snapshot, gather(snapshot))
    return build(evidence, rank(evidence))


@dataclass(frozen=True)
class BaselineAgent:
    """Diagnoses the snapshot in the workspace (the workspace *is* the snapshot directory)."""

    name: str = "baseline"

    def solve(self, task: Task) -> AgentResult:
        diagnosis = diagnose(task.workspace)
        text = json.dumps(diagnosis.document(), indent=2) + "\n"
        atomic_write_text(task.workspace / OUTPUT_FILE, text)
        root_causes = [e["name"] for e in diagnosis.entities if e["contributing_factor"]]
        task.transcript.record("baseline", root_causes=root_causes, notes=list(diagnosis.notes))
        kubeconfig = task.env.get("KUBECONFIG")
        if kubeconfig and task.scenario.scenario_class == "sre-mitigation":
            return self._mitigate(task, kubeconfig, root_causes)
        return AgentResult()

    def _mitigate(self, task: Task, kubeconfig: str, root_causes: list[str]) -> AgentResult:
        """Repair what the diagnosis blames, through kubectl on the trial's cluster."""
        from sre.agents.baseline.mitigate import Kubectl, mitigate

        home = task.workspace / ".itbench" / "baseline-home"
        home.mkdir(parents=True, exist_ok=True)
        for args, code, output in mitigate(Kubectl(kubeconfig, home), root_causes, task.workspace):
            task.transcript.record("kubectl", args=args, exit_code=code, output=output[-2000:])
        return AgentResult()


__all__ = ["BaselineAgent", "Diagnosis", "diagnose"]
