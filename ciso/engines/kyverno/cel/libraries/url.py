"""Kubernetes' URL library: ``url(string)``, ``isURL`` and the methods ``getScheme``,
``getHost``, ``getHostname``, ``getPort``, ``getEscapedPath``, ``getQuery``, with the semantics
of Go's ``url.ParseRequestURI`` that Kubernetes uses: an absolute URI or an absolute path (no
relative references), no fragment splitting, ports of digits only, hosts without spaces, valid
``%`` escapes.

A URL crosses the evaluator as ``{"@url": "<text>"}``; methods re-parse it (cheap, and the
value stays a plain map the evaluator can compare)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote, unquote_plus

KEY = "@url"
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")
_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
#: Go's shouldEscape(…, encodePath) keeps these besides unreserved characters
_PATH_SAFE = "/;:@&=+$,!'()*"
_HOST_CHARS = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=:\[\]%]*")


@dataclass(frozen=True)
class Parsed:
    scheme: str
    host: str
    path: str  # unescaped, as Go's URL.Path
    raw_path: str  # as written
    raw_query: str


def _error(text: str, why: str) -> ValueError:
    return ValueError(f'URL parse error during conversion from string: parse "{text}": {why}')


def parse(text: str) -> Parsed:
    if not isinstance(text, str):
        raise ValueError("no such overload: url(string)")
    if text == "":
        raise _error(text, "empty url")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        raise _error(text, "net/url: invalid control character in URL")
    scheme, rest = "", text
    colon = text.find(":")
    if colon > 0 and _SCHEME.fullmatch(text[:colon]):
        scheme, rest = text[:colon].lower(), text[colon + 1 :]
    elif colon == 0:
        raise _error(text, "missing protocol scheme")
    rest, question, raw_query = rest.partition("?")
    if not rest.startswith("/"):
        if scheme:  # an opaque URI (mailto:x) is a URI for a request too
            return Parsed(scheme, "", "", "", raw_query)
        raise _error(text, "invalid URI for request")
    host = ""
    if scheme and rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        rest = slash + path
        host = authority.rpartition("@")[2]
        _check_host(text, host)
    if _ESCAPE.search(rest):
        bad = rest[_ESCAPE.search(rest).start() :][:3]
        raise _error(text, f'invalid URL escape "{bad}"')
    return Parsed(scheme, host, unquote(rest), rest, raw_query)


def _check_host(text: str, host: str) -> None:
    if host.startswith("["):
        end = host.find("]")
        if end < 0:
            raise _error(text, "missing ']' in host")
        port = host[end + 1 :]
        if port and (not port.startswith(":") or not port[1:].isdigit() and port != ":"):
            raise _error(text, f'invalid port "{port}" after host')
        return
    name, colon, port = host.rpartition(":") if ":" in host else (host, "", "")
    if colon and port and not port.isdigit():
        raise _error(text, f'invalid port ":{port}" after host')
    if colon and ":" in name:
        raise _error(text, f'invalid port ":{port}" after host')
    for char in name:
        if not _HOST_CHARS.fullmatch(char):
            raise _error(text, f"invalid character {char!r} in host name".replace("'", '"'))


def _value(u: Any) -> Parsed:
    if not (isinstance(u, dict) and KEY in u):
        raise ValueError(f"no such overload: expected a URL, got {type(u).__name__}")
    return parse(u[KEY])


def _url(text: str) -> dict[str, str]:
    parse(text)
    return {KEY: text}


def _is_url(text: str) -> bool:
    try:
        parse(text)
    except ValueError:
        return False
    return True


def _hostname(u: Any) -> str:
    host = _value(u).host
    if host.startswith("["):
        return host[1 : host.find("]")]
    return host.rpartition(":")[0] if ":" in host else host


def _port(u: Any) -> str:
    host = _value(u).host
    tail = host[host.find("]") + 1 :] if host.startswith("[") else host
    _, colon, port = tail.rpartition(":")
    return port if colon and port.isdigit() else ""


def _escaped_path(u: Any) -> str:
    """Go's EscapedPath: the path as written when that is a valid encoding of it, else the
    path escaped (``/path with spaces/`` -> ``/path%20with%20spaces/``)."""
    parsed = _value(u)
    raw = parsed.raw_path
    if all(c.isalnum() or c in "-._~%" + _PATH_SAFE for c in raw) and unquote(raw) == parsed.path:
        return raw
    return quote(parsed.path, safe=_PATH_SAFE)


def _query(u: Any) -> dict[str, list[str]]:
    """Go's URL.Query(): pairs split on '&', keys and values unescaped ('+' is a space),
    values of one key in order; pairs Go cannot parse (a ';', a bad escape) are dropped."""
    result: dict[str, list[str]] = {}
    for pair in _value(u).raw_query.split("&"):
        if not pair or ";" in pair:
            continue
        key, _, val = pair.partition("=")
        if _ESCAPE.search(key) or _ESCAPE.search(val):
            continue
        result.setdefault(unquote_plus(key), []).append(unquote_plus(val))
    return result


FUNCTIONS = {
    "url": _url,
    "isURL": _is_url,
    "getScheme": lambda u: _value(u).scheme,
    "getHost": lambda u: _value(u).host,
    "getHostname": _hostname,
    "getPort": _port,
    "getEscapedPath": _escaped_path,
    "getQuery": _query,
}
