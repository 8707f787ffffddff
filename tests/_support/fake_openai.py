"""A scripted OpenAI-compatible chat server on 127.0.0.1 for driving litellm over real HTTP.

Each request to ``/v1/chat/completions`` consumes the next step of the script: a reply body, an
HTTP error status, or a delay (to provoke client timeouts). Requests are recorded for assertions.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def chat_reply(content: str | None = None, tool_calls: list[dict] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [
            {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
            for i, (n, a) in enumerate((c["name"], c["arguments"]) for c in tool_calls)
        ]
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1700000000,
        "model": "scripted",
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if tool_calls else "stop",
            }
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    }


def _is_preflight(body: dict[str, Any]) -> bool:
    from itbench.llm.client import PREFLIGHT_PROMPT

    messages = body.get("messages") or [{}]
    return messages[-1].get("content") == PREFLIGHT_PROMPT


@dataclass
class Step:
    body: dict[str, Any] | None = None
    status: int = 200
    delay_s: float = 0.0


@dataclass
class ScriptedServer:
    steps: list[Step]
    requests: list[dict[str, Any]] = field(default_factory=list)
    # HTTP header names are case-insensitive (RFC 9110 §5.1) and clients differ in the case they
    # send (newer openai/httpx send `authorization`): stored lower-cased, looked up lower-cased.
    headers: list[dict[str, str]] = field(default_factory=list)
    #: The answer to the llm agent's pre-flight request (recognised by its prompt, recorded in
    #: ``preflights``, not in ``requests``, and never consuming a step): a short reply by default.
    preflight: Step | None = None
    preflights: list[dict[str, Any]] = field(default_factory=list)
    #: Answers each request from its body (a model that reads the prompt), instead of ``steps``.
    respond: Callable[[dict[str, Any]], dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        server = self
        self._lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                if _is_preflight(body):
                    with server._lock:
                        server.preflights.append(body)
                    self._answer(server.preflight or Step(chat_reply("OK")))
                    return
                with server._lock:
                    server.requests.append(body)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    step = (
                        Step(server.respond(body))
                        if server.respond is not None
                        else server.steps.pop(0)
                        if server.steps
                        else Step(status=500, body={"error": {"message": "script exhausted"}})
                    )
                self._answer(step)

            def _answer(self, step: Step) -> None:
                if step.delay_s:
                    time.sleep(step.delay_s)
                payload = json.dumps(step.body or {}).encode()
                try:
                    self.send_response(step.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
