"""``llm``: any model litellm supports, with the workspace tools, the domain's tools and the
domain's output validator driving the reflection loop."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from itbench.agents.base import TASK_FILE, AgentOptions, Task
from itbench.agents.command import confinement_of
from itbench.agents.shell_tool import ShellSession, shell_tool
from itbench.agents.workspace_tools import workspace_tools
from itbench.errors import UsageError
from itbench.llm.client import (
    PREFLIGHT_TIMEOUT_S,
    ChatClient,
    check_model_environment,
    preflight,
)
from itbench.llm.tools import Tool, invoke
from itbench.models import AgentResult, AgentStatus, Usage
from itbench.plugins.spec import Domain, DomainRun
from itbench.reflection import feedback_message, reflect
from itbench.sandbox.agent import AgentConfinement, cache_dirs

SYSTEM_PROMPT = (
    "You are an IT operations agent working in a sandboxed workspace. Use the tools to inspect the "
    "inputs and to write your answer files into the workspace. When your answer files are written, "
    "reply with a short summary and no tool call."
)


def _prompt_template_text(options: AgentOptions, domain: Domain) -> str:
    """The system prompt's template: --prompt-template, else the domain's, else the generic one."""
    if options.prompt_template is not None:
        try:
            return options.prompt_template.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"--prompt-template {options.prompt_template}: {exc}") from None
    if domain.llm_prompt_template is not None:
        return domain.llm_prompt_template()
    return SYSTEM_PROMPT


def compile_prompt(text: str, origin: str) -> jinja2.Template:
    """A Jinja2 template whose undefined variables are errors (a typo must not vanish)."""
    environment = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    try:
        return environment.from_string(text)
    except jinja2.TemplateSyntaxError as exc:
        raise UsageError(f"{origin}: line {exc.lineno}: {exc.message}") from None


@dataclass(frozen=True)
class LLMAgent:
    options: AgentOptions
    #: The run's session: its tools and output validator are the ones this run's settings bind.
    run: DomainRun
    name: str = "llm"
    #: The sandbox of the ``shell`` tool (``--llm-shell on|only``); None: no shell tool.
    shell: AgentConfinement | None = None

    def _tools(self, task: Task, hidden_paths: Sequence[Path]) -> dict[str, Tool]:
        tools = []
        if self.options.llm_shell != "only":
            tools += list(workspace_tools(task.workspace))
            if self.run.llm_tools is not None:
                tools += list(self.run.llm_tools(task.scenario, task.workspace))
        if self.shell is not None:
            deadline = None if task.time_limit_s is None else time.monotonic() + task.time_limit_s
            tools.append(shell_tool(ShellSession(task, hidden_paths, self.shell, deadline)))
        return {t.name: t for t in tools}

    def solve(self, task: Task) -> AgentResult:
        """Outside the runner nothing says where the scenario's files are: hide the caches."""
        return self.solve_confined(task, cache_dirs())

    def solve_confined(self, task: Task, hidden_paths: Sequence[Path]) -> AgentResult:
        """``hidden_paths``: what the shell tool's sandbox covers, as for ``--agent-cmd``."""
        assert self.options.model is not None  # checked by the factory
        client = ChatClient(
            model=self.options.model,
            api_base=self.options.api_base,
            temperature=self.options.temperature,
            timeout_s=self.options.llm_timeout_s,
            max_retries=self.options.max_retries,
        )
        if self.shell is not None:  # a shell-driven model reads the task where a CLI agent does
            (task.workspace / TASK_FILE).write_text(task.prompt + "\n", encoding="utf-8")
        tools = self._tools(task, hidden_paths)
        tool_calls = 0
        specs = [t.spec() for t in tools.values()]
        system = render_prompt(self.options, self.run.domain, task, sorted(tools))
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": task.prompt},
        ]
        transcript = task.transcript
        transcript.record(
            "task",
            model=self.options.model,
            system=system,
            prompt=task.prompt,
            tools=sorted(tools),
            max_turns=self.options.max_steps,
        )

        def on_retry(attempt: int, kind: str, message: str, delay: float) -> None:
            transcript.record(
                "llm_retry", attempt=attempt, error=kind, message=message, delay_s=delay
            )

        def generate(feedback: Sequence[str] | None) -> None:
            if feedback:
                text = feedback_message(feedback)
                messages.append({"role": "user", "content": text})
                transcript.record("feedback", content=text)
            for step in range(1, self.options.max_steps + 1):
                reply = client.complete(messages, specs, on_retry=on_retry)
                transcript.record(
                    "llm_response",
                    step=step,
                    content=reply.content,
                    tool_calls=[
                        {"name": c.name, "arguments": c.arguments} for c in reply.tool_calls
                    ],
                    usage=reply.usage.model_dump(),
                )
                messages.append(reply.message)
                if not reply.tool_calls:
                    return
                for call in reply.tool_calls:
                    nonlocal tool_calls
                    tool_calls += 1
                    result = invoke(tools, call)
                    transcript.record("tool_result", name=call.name, result=result[:4000])
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
            transcript.record("max_steps_reached", max_steps=self.options.max_steps)

        def validate() -> Sequence[str]:
            if self.run.validate_output is None:
                return []
            return self.run.validate_output(task.scenario, task.workspace)

        if self.options.reflection_rounds == 0:

            def validate() -> Sequence[str]:  # no validator: the first answer stands
                return []

        started = time.monotonic()
        try:
            outcome = reflect(generate, validate, self.options.reflection_rounds, transcript)
        except Exception as exc:  # provider failures end this trial, not the run
            return AgentResult(
                status=AgentStatus.ERROR,
                reason=f"LLM call failed: {type(exc).__name__}: {str(exc)[:500]}",
                usage=client.usage + Usage(tool_calls=tool_calls),
                duration_s=time.monotonic() - started,
            )
        reason = None if outcome.clean else "output still invalid after reflection"
        usage = client.usage + Usage(tool_calls=tool_calls)
        return AgentResult(reason=reason, usage=usage, duration_s=time.monotonic() - started)


def render_prompt(options: AgentOptions, domain: Domain, task: Task, tools: list[str]) -> str:
    origin = str(options.prompt_template or f"{domain.name} prompt template")
    template = compile_prompt(_prompt_template_text(options, domain), origin)
    try:
        return template.render(
            scenario=task.scenario.model_dump(),
            tools=tools,
            reflection_rounds=options.reflection_rounds,
        )
    except jinja2.TemplateError as exc:
        raise UsageError(f"{origin}: {exc}") from None


def llm_factory(options: AgentOptions, run: DomainRun) -> LLMAgent:
    if not options.model:
        raise UsageError("the llm agent needs --model (any model litellm supports)")
    # a broken template fails before any trial starts
    compile_prompt(_prompt_template_text(options, run.domain), str(options.prompt_template))
    check_model_environment(options.model, options.api_base)
    preflight(options.model, options.api_base, min(PREFLIGHT_TIMEOUT_S, options.llm_timeout_s))
    shell = confinement_of(options) if options.llm_shell != "off" else None
    return LLMAgent(options, run, shell=shell)
