"""``baseline``: requirement -> structured intent -> the files of the task's class. No model.

It reads only the task (the goal text and the class); it never opens reference answers or ground
truth. When it does not understand the requirement it writes nothing and says why.
"""

from __future__ import annotations

import time
from pathlib import Path

import yaml

from ciso.agents.baseline.intent import NotUnderstood
from ciso.agents.baseline.migrate.jmespath_cel import NotTranslatable
from ciso.agents.baseline.migrate.source import ANSWER_FILE, migrate
from ciso.agents.baseline.parser import parse, update_request
from ciso.agents.baseline.render import NotRenderable, render
from ciso.agents.baseline.update import UpdateFailed, update_policy
from itbench.models.records import AgentResult, AgentStatus
from itbench.plugins.spec import Task


class BaselineAgent:
    name = "baseline"

    def solve(self, task: Task) -> AgentResult:
        started = time.monotonic()
        scenario_class = str(task.scenario.scenario_class or "")
        if scenario_class == "kyverno-update":
            return self._update(task, started)
        if scenario_class == "kyverno-migrate":
            return self._migrate(task, started)
        platform = "rhel9" if scenario_class == "rhel9-ansible-opa" else "kubernetes"
        intent = parse(task.scenario.description or task.prompt, platform)
        if isinstance(intent, NotUnderstood):
            task.transcript.record(
                "baseline_intent",
                understood=False,
                reason=intent.reason,
                requirement=intent.requirement,
            )
            return self._fail(task, started, f"not understood: {intent.reason}")
        task.transcript.record("baseline_intent", understood=True, intent=intent.to_json())
        try:
            rendered = render(intent, scenario_class)
        except NotRenderable as exc:
            return self._fail(task, started, f"not understood: {exc}")
        task.workspace.mkdir(parents=True, exist_ok=True)
        for name, text in rendered.files.items():
            path = Path(task.workspace) / name
            path.write_text(text, encoding="utf-8")
            if name.endswith(".sh"):
                path.chmod(0o755)
        task.transcript.record(
            "baseline_files", files=sorted(rendered.files), templates=list(rendered.templates)
        )
        return AgentResult(status=AgentStatus.OK, duration_s=time.monotonic() - started)

    def _update(self, task: Task, started: float) -> AgentResult:
        request = update_request(task.scenario.description or task.prompt)
        if isinstance(request, NotUnderstood):
            return self._fail(task, started, f"not understood: {request.reason}")
        intent = parse(request.requirement, "kubernetes")
        if isinstance(intent, NotUnderstood):
            task.transcript.record(
                "baseline_intent",
                understood=False,
                reason=intent.reason,
                requirement=intent.requirement,
            )
            return self._fail(task, started, f"not understood: {intent.reason}")
        task.transcript.record(
            "baseline_intent",
            understood=True,
            intent=intent.to_json(),
            edit=request.policy,
            keep=list(request.keep),
        )
        try:
            path, _ = update_policy(request.policy, intent, task.env, Path(task.workspace))
        except NotRenderable as exc:
            return self._fail(task, started, f"not understood: {exc}")
        except UpdateFailed as exc:
            return self._fail(task, started, f"kubectl failed: {exc}")
        task.transcript.record(
            "baseline_files", files=[path.name], templates=["kyverno_rules"], applied=True
        )
        return AgentResult(status=AgentStatus.OK, duration_s=time.monotonic() - started)

    def _migrate(self, task: Task, started: float) -> AgentResult:
        """Translate ``source-policy.yaml`` into the other dialect (never looked up by control)."""
        try:
            wanted = (task.scenario.metadata or {}).get("migrate_to")
            done = migrate(Path(task.workspace), task.prompt or "", wanted)
        except NotTranslatable as exc:
            return self._fail(task, started, f"not translated: {exc}")
        except yaml.YAMLError as exc:
            return self._fail(task, started, f"not translated: source-policy.yaml: {exc}")
        task.transcript.record(
            "baseline_migration",
            source=done.source_dialect,
            target=done.target_dialect,
            policies=list(done.policies),
        )
        task.transcript.record("baseline_files", files=[ANSWER_FILE], templates=["migrate"])
        return AgentResult(status=AgentStatus.OK, duration_s=time.monotonic() - started)

    @staticmethod
    def _fail(task: Task, started: float, reason: str) -> AgentResult:
        task.transcript.record("baseline_not_understood", reason=reason)
        return AgentResult(
            status=AgentStatus.ERROR, reason=reason, duration_s=time.monotonic() - started
        )
