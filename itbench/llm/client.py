"""A small chat client over litellm: tool calling, retries with backoff, usage and cost totals.

litellm is imported on first use with ``LITELLM_LOCAL_MODEL_COST_MAP=True`` so it never reaches for
the network to fetch its price list. API keys are read by litellm from the environment and are
never stored in our objects or written anywhere.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field
from typing import Any

from itbench.errors import ItbenchError, UsageError
from itbench.llm.tools import ToolCall
from itbench.models import Usage


def import_litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    # litellm's own telemetry/logging callbacks would try the network.
    os.environ.setdefault("LITELLM_TELEMETRY", "False")
    import litellm

    litellm.telemetry = False
    litellm.suppress_debug_info = True
    return litellm


def check_model_environment(model: str, api_base: str | None = None) -> None:
    """Fail before the first trial when the provider's key is missing, naming the variable."""
    litellm = import_litellm()
    try:
        report = litellm.validate_environment(model=model, api_base=api_base)
    except Exception as exc:
        raise UsageError(f"model {model!r} is not usable: {exc}") from exc
    missing = report.get("missing_keys") or []
    if missing:
        raise UsageError(f"model {model!r} needs the environment variable(s) {', '.join(missing)}")


#: The pre-flight request's time limit: one short reply from a live endpoint takes far less, and a
#: dead one must not cost the minutes of retries every trial would spend on it.
PREFLIGHT_TIMEOUT_S = 10.0
#: The pre-flight request's text; a test server recognises it by this prefix.
PREFLIGHT_PROMPT = "itbench pre-flight check: reply with OK."


class EndpointError(ItbenchError):
    """The model's endpoint did not answer the pre-flight request (exit 3, naming URL and model)."""


def endpoint_label(model: str, api_base: str | None) -> str:
    """Where requests for ``model`` go: ``--api-base``, else the provider's own default URL."""
    if api_base:
        return api_base
    try:
        _, provider, _, default_base = import_litellm().get_llm_provider(model=model)
    except Exception:
        return "the provider's default endpoint"
    return default_base or f"the {provider} provider's default endpoint"


def preflight(model: str, api_base: str | None, timeout_s: float = PREFLIGHT_TIMEOUT_S) -> None:
    """One time-limited chat request, without retries, before the first trial: a dead or garbled
    endpoint stops the run at once, naming the URL and the model, instead of failing every trial
    after its own retries."""
    litellm = import_litellm()
    kwargs: dict[str, Any] = {
        "model": model,
        "messages": [{"role": "user", "content": PREFLIGHT_PROMPT}],
        "max_tokens": 1,
        "timeout": timeout_s,
        "num_retries": 0,
        "max_retries": 0,  # the OpenAI client's own retries would multiply the time limit
    }
    if api_base:
        kwargs["api_base"] = api_base
    where = f"model {model!r} at {endpoint_label(model, api_base)}"
    try:
        response = litellm.completion(**kwargs)
        response.choices[0].message  # noqa: B018 - a reply without a message is not a chat reply
    except Exception as exc:
        detail = " ".join(str(exc).split())[:300]
        raise EndpointError(
            f"LLM pre-flight request failed ({timeout_s:g} s limit): {where}: "
            f"{type(exc).__name__}: {detail}"
        ) from None


@dataclass(frozen=True)
class ChatReply:
    content: str
    tool_calls: tuple[ToolCall, ...]
    usage: Usage
    #: The assistant message as a plain dict, to append to the conversation.
    message: dict[str, Any] = field(repr=False)


#: litellm exception names worth retrying: the request may succeed if sent again.
_TRANSIENT = (
    "RateLimitError",
    "Timeout",
    "APIConnectionError",
    "ServiceUnavailableError",
    "InternalServerError",
    "BadGatewayError",
)


@dataclass
class ChatClient:
    model: str
    api_base: str | None = None
    temperature: float = 0.0
    timeout_s: float = 120.0
    max_retries: int = 4
    backoff_base_s: float = 1.0
    backoff_cap_s: float = 30.0
    usage: Usage = field(default_factory=Usage)

    def _transient(self, litellm: Any, exc: BaseException) -> bool:
        kinds = tuple(getattr(litellm, n) for n in _TRANSIENT if hasattr(litellm, n))
        return isinstance(exc, kinds)

    def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        on_retry: Any = None,
    ) -> ChatReply:
        litellm = import_litellm()
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
            "timeout": self.timeout_s,
            "num_retries": 0,  # we retry ourselves, so every attempt is visible in the transcript
        }
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if tools:
            kwargs["tools"] = tools
        attempt = 0
        while True:
            try:
                response = litellm.completion(**kwargs)
                break
            except Exception as exc:
                if attempt >= self.max_retries or not self._transient(litellm, exc):
                    raise
                delay = min(self.backoff_cap_s, self.backoff_base_s * 2**attempt)
                delay *= 0.5 + random.random() / 2  # jitter avoids synchronized retries
                if on_retry is not None:
                    on_retry(attempt + 1, type(exc).__name__, str(exc)[:300], delay)
                time.sleep(delay)
                attempt += 1
        return self._reply(litellm, response)

    def _reply(self, litellm: Any, response: Any) -> ChatReply:
        choice = response.choices[0]
        msg = choice.message
        calls = tuple(
            ToolCall(
                id=c.id or f"call_{i}",
                name=c.function.name or "",
                arguments=c.function.arguments or "",
            )
            for i, c in enumerate(getattr(msg, "tool_calls", None) or [])
        )
        raw_usage = getattr(response, "usage", None)
        try:
            cost = float(litellm.completion_cost(completion_response=response) or 0.0)
        except Exception:  # unknown models have no price: cost stays 0, tokens still count
            cost = 0.0
        usage = Usage(
            prompt_tokens=int(getattr(raw_usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(raw_usage, "completion_tokens", 0) or 0),
            cost_usd=cost,
            llm_calls=1,
        )
        self.usage = self.usage + usage
        message: dict[str, Any] = {"role": "assistant", "content": msg.content or ""}
        if calls:
            message["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments},
                }
                for c in calls
            ]
        return ChatReply(content=msg.content or "", tool_calls=calls, usage=usage, message=message)
