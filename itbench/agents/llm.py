"""``llm``: any model litellm supports, with the workspace tools, the domain's tools and the
domain's output validator driving the reflection loop."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from itbench.agents.base import AgentOptions, Task
from itbench.agents.workspace_tools import workspace_tools
from itbench.errors import UsageError
from itbench.llm.client import ChatClient, check_model_environment
from itbench.llm.tools import Tool, invoke
from itbench.models import AgentResult, AgentStatus
from itbench.plugins.spec import Domain
from itbench.reflection import feedback_message, reflect

SYSTEM_PROMPT = (
    "You are an IT operations agent working in a sandboxed workspace. Use the tools to inspect the "
    "inputs and to write your answer files into the workspace. When your answer files are written, "
    "reply with a short summary and no tool call."
)


@dataclass(frozen=True)
class LLMAgent:
    options: AgentOptions
    domain: Domain
    name: str = "llm"

    def _tools(self, task: Task) -> dict[str, Tool]:
        tools = list(workspace_tools(task.workspace))
        if self.domain.llm_tools is not None:
            tools += list(self.domain.llm_tools(task.scenario, task.workspace))
        return {t.name: t for t in tools}

    def solve(self, task: Task) -> AgentResult:
        assert self.options.model is not None  # checked by the factory
        client = ChatClient(
            model=self.options.model,
            api_base=self.options.api_base,
            temperature=self.options.temperature,
            timeout_s=self.options.llm_timeout_s,
            max_retries=self.options.max_retries,
        )
        tools = self._tools(task)
        specs = [t.spec() for t in tools.values()]
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": task.prompt},
        ]
        transcript = task.transcript
        transcript.record("task", model=self.options.model, prompt=task.prompt, tools=sorted(tools))

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
                    result = invoke(tools, call)
                    transcript.record("tool_result", name=call.name, result=result[:4000])
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
            transcript.record("max_steps_reached", max_steps=self.options.max_steps)

        def validate() -> Sequence[str]:
            if self.domain.validate_output is None:
                return []
            return self.domain.validate_output(task.scenario, task.workspace)

        started = time.monotonic()
        try:
            outcome = reflect(generate, validate, self.options.reflection_rounds, transcript)
        except Exception as exc:  # provider failures end this trial, not the run
            return AgentResult(
                status=AgentStatus.ERROR,
                reason=f"LLM call failed: {type(exc).__name__}: {str(exc)[:500]}",
                usage=client.usage,
                duration_s=time.monotonic() - started,
            )
        reason = None if outcome.clean else "output still invalid after reflection"
        return AgentResult(reason=reason, usage=client.usage, duration_s=time.monotonic() - started)


def llm_factory(options: AgentOptions, domain: Domain) -> LLMAgent:
    if not options.model:
        raise UsageError("the llm agent needs --model (any model litellm supports)")
    check_model_environment(options.model, options.api_base)
    return LLMAgent(options, domain)
