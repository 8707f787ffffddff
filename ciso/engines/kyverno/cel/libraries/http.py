"""Kyverno's HTTP library: ``http.Get(url)`` / ``http.Post(url, body)`` (and the forms with
headers) answered from the test's ``apiCallResponses``: the answer keyed ``GET:url`` (``POST:url``)
or ``url``, as the Kyverno CLI gives it to CEL: ``{"body": ..., "statusCode": ...}`` whatever the
status (a policy reads ``.body`` and may check ``.statusCode`` itself); a URL nothing answers is an
error, never a network call."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno.cel.libraries.environment import current
from ciso.engines.kyverno.cel.syntax import namespaced


def _answer(method: str, url: str) -> Any:
    answers = current().http
    for key in (f"{method}:{url}", url):
        if key in answers:
            status, body = answers[key]
            return {"body": body, "statusCode": status}
    raise ValueError(f"HTTP {method} {url}: no mocked response (offline)")


def get(url: str, _headers: Any = None) -> Any:
    return _answer("GET", url)


def post(url: str, _body: Any = None, _headers: Any = None) -> Any:
    return _answer("POST", url)


FUNCTIONS = {namespaced("http", "Get"): get, namespaced("http", "Post"): post}
