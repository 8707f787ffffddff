"""Kubernetes' URL library (k8s.io/apiserver pkg/cel/library/urls.go): ``url(string)``,
``isURL`` and the methods ``getScheme``, ``getHost``, ``getHostname``, ``getPort``,
``getEscapedPath``, ``getQuery``.

Kubernetes accepts a string that Go's ``url.ParseRequestURI`` accepts (an absolute URI, or an
absolute path: no relative reference, no fragment splitting), then keeps what Go's ``url.Parse``
makes of it (which does split off the ``#fragment``). ``parse_url`` follows Go's net/url grammar
for both (scheme, authority, host characters and escapes, ports of digits, bracketed IPv6
literals, opaque URIs, ``*``) and fails with Go's words, which Kubernetes hands to the policy.

A URL crosses the evaluator as ``{"@url": "<text>"}``; methods re-parse it (cheap, and the
value stays a plain map the evaluator can compare)."""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Any, Literal

from ciso.engines.kyverno.cel.libraries import ip as iplib
from ciso.engines.kyverno.cel.libraries.ip import go_quote
from ciso.engines.kyverno.cel.libraries.validity import parses

KEY = "@url"
Mode = Literal["host", "zone", "path", "userinfo", "query", "fragment"]

_ALNUM = frozenset((string.ascii_letters + string.digits).encode())
_SCHEME_CHARS = frozenset((string.ascii_letters + string.digits + "+-.").encode())
#: RFC 3986 sub-delims plus ':' (the port), brackets (IPv6) and < > " that Go lets through
_HOST_SAFE = frozenset(b"!$&'()*+,;=:[]<>\"")
_RESERVED = frozenset(b"$&+,/:;=?@")
_USERINFO = frozenset((string.ascii_letters + string.digits + "-._:~!$&'()*+,;=%@").encode())
_PCHAR_EXTRA = frozenset(b"!$&'()*+,;=:@[]%")


class URLError(ValueError):
    """A net/url error (the message after Go's ``parse "<url>": ``)."""


@dataclass(frozen=True)
class URL:
    scheme: str = ""
    opaque: str = ""
    host: str = ""  # unescaped, port included, as Go's URL.Host
    path: bytes = b""  # unescaped, as Go's URL.Path
    raw_path: str = ""  # the path as written when that is not Go's default encoding of it
    raw_query: str = ""


def _should_escape(c: int, mode: Mode) -> bool:
    """Go's shouldEscape: whether byte ``c`` must be %-escaped in that part of a URL."""
    if c in _ALNUM:
        return False
    if mode in ("host", "zone") and c in _HOST_SAFE:
        return False
    if c in b"-_.~":
        return False
    if c in _RESERVED:
        if mode == "path":
            return c == ord("?")
        if mode == "userinfo":
            return c in b"@/?:"
        if mode == "query":
            return True
        if mode == "fragment":
            return False
    return not (mode == "fragment" and c in b"!()*")


def _unhex(c: int) -> int:
    return int(chr(c), 16)


def _unescape(text: str, mode: Mode) -> bytes:
    """Go's unescape: %XX decoded (in a host only for non-ASCII bytes or %25), '+' a space in
    a query, ASCII a host may not hold refused."""
    raw = text.encode()
    out = bytearray()
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == ord("%"):
            escape = raw[i : i + 3]
            if len(escape) < 3 or not all(chr(h) in string.hexdigits for h in escape[1:]):
                raise URLError(f"invalid URL escape {go_quote(escape.decode(errors='replace'))}")
            byte = _unhex(escape[1]) << 4 | _unhex(escape[2])
            if mode == "host" and _unhex(escape[1]) < 8 and escape != b"%25":
                raise URLError(f"invalid URL escape {go_quote(escape.decode())}")
            if (
                mode == "zone"
                and escape != b"%25"
                and byte != ord(" ")
                and _should_escape(byte, "host")
            ):
                raise URLError(f"invalid URL escape {go_quote(escape.decode())}")
            out.append(byte)
            i += 3
            continue
        if c == ord("+") and mode == "query":
            out.append(ord(" "))
        else:
            if mode in ("host", "zone") and c < 0x80 and _should_escape(c, mode):
                raise URLError(f"invalid character {go_quote(chr(c))} in host name")
            out.append(c)
        i += 1
    return bytes(out)


def _escape(raw: bytes, mode: Mode) -> str:
    return "".join(chr(c) if not _should_escape(c, mode) else f"%{c:02X}" for c in raw)


def _valid_encoded(text: str) -> bool:
    """Go's validEncoded(…, encodePath): only path characters and escapes."""
    return all(c in _PCHAR_EXTRA or not _should_escape(c, "path") for c in text.encode())


def _split_scheme(raw: str) -> tuple[str, str]:
    for i, char in enumerate(raw):
        c = ord(char)
        if char == ":":
            if i == 0:
                raise URLError("missing protocol scheme")
            return raw[:i], raw[i + 1 :]
        if c >= 0x80 or c not in _SCHEME_CHARS or (i == 0 and not char.isalpha()):
            return "", raw
    return "", raw


def _valid_optional_port(port: str) -> bool:
    return port == "" or (port[0] == ":" and all("0" <= c <= "9" for c in port[1:]))


def _parse_host(host: str) -> str:
    if host.startswith("["):
        close = host.rfind("]")
        if close < 0:
            raise URLError("missing ']' in host")
        port = host[close + 1 :]
        if not _valid_optional_port(port):
            raise URLError(f"invalid port {go_quote(port)} after host")
        zone = host.find("%25", 0, close)
        if zone >= 0:  # RFC 6874: '%25' starts a zone, which may escape more than a host
            bracketed = _unescape(host[:zone], "host") + _unescape(host[zone:close], "zone")
        else:
            bracketed = _unescape(host[:close], "host")
        # Go >= 1.25.2 (CVE-2025-47912): only an IPv6 address may stand in brackets
        try:
            address, _ = iplib.parse_addr(bracketed[1:].decode(errors="replace"))
        except iplib.AddrError as exc:
            raise URLError(f"invalid host: {exc}") from None
        if address.version == 4:
            raise URLError("invalid IP-literal")
        if zone >= 0:
            return (bracketed + _unescape(host[close:], "host")).decode(errors="replace")
    elif (colon := host.rfind(":")) >= 0 and not _valid_optional_port(host[colon:]):
        raise URLError(f"invalid port {go_quote(host[colon:])} after host")
    return _unescape(host, "host").decode(errors="replace")


def _parse_authority(authority: str) -> str:
    at = authority.rfind("@")
    host = _parse_host(authority[at + 1 :])
    if at >= 0:
        userinfo = authority[:at]
        if not all(ord(c) < 0x80 and ord(c) in _USERINFO for c in userinfo):
            raise URLError("net/url: invalid userinfo")
        for part in userinfo.split(":", 1):
            _unescape(part, "userinfo")
    return host


def _parse(raw: str, via_request: bool) -> URL:
    """Go's url.parse(rawURL, viaRequest): viaRequest for ParseRequestURI."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in raw):
        raise URLError("net/url: invalid control character in URL")
    if raw == "" and via_request:
        raise URLError("empty url")
    if raw == "*":
        return URL(path=b"*")
    scheme, rest = _split_scheme(raw)
    scheme = scheme.lower()
    if rest.endswith("?") and rest.count("?") == 1:
        rest, raw_query = rest[:-1], ""
    else:
        rest, _, raw_query = rest.partition("?")
    if not rest.startswith("/"):
        if scheme:  # a rootless path (mailto:x) is an opaque URI
            return URL(scheme=scheme, opaque=rest, raw_query=raw_query)
        if via_request:
            raise URLError("invalid URI for request")
        if ":" in rest.partition("/")[0]:
            raise URLError("first path segment in URL cannot contain colon")
    host = ""
    authority_allowed = scheme or (not via_request and not rest.startswith("///"))
    if authority_allowed and rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        host, rest = _parse_authority(authority), slash + path
    path_bytes = _unescape(rest, "path")
    raw_path = "" if _escape(path_bytes, "path") == rest else rest
    return URL(scheme, "", host, path_bytes, raw_path, raw_query)


def _fail(raw: str, exc: URLError) -> ValueError:
    return ValueError(f"parse {go_quote(raw)}: {exc}")


def parse_request_uri(raw: str) -> URL:
    """Go's url.ParseRequestURI; ValueError with Go's message (``parse "…": …``)."""
    try:
        return _parse(raw, via_request=True)
    except URLError as exc:
        raise _fail(raw, exc) from None


def parse(raw: str) -> URL:
    """Go's url.Parse: the fragment split off (and its escapes checked) first."""
    before, hash_sign, fragment = raw.partition("#")
    try:
        url = _parse(before, via_request=False)
    except URLError as exc:
        raise _fail(before, exc) from None
    if hash_sign:
        try:
            _unescape(fragment, "fragment")
        except URLError as exc:
            raise _fail(raw, exc) from None
    return url


def _url(text: Any) -> dict[str, str]:
    if not isinstance(text, str):
        raise ValueError("no such overload")
    try:
        parse_request_uri(text)
        parse(text)
    except ValueError as exc:
        raise ValueError(f"URL parse error during conversion from string: {exc}") from None
    return {KEY: text}


def _value(u: Any) -> URL:
    if not (isinstance(u, dict) and KEY in u):
        raise ValueError(f"no such overload: expected a URL, got {type(u).__name__}")
    return parse(u[KEY])


def _split_host_port(host: str) -> tuple[str, str]:
    """Go's splitHostPort for Hostname() and Port()."""
    port = ""
    colon = host.rfind(":")
    if colon >= 0 and _valid_optional_port(host[colon:]):
        host, port = host[:colon], host[colon + 1 :]
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host, port


def _escaped_path(u: Any) -> str:
    """Go's EscapedPath: the path as written when that is a valid encoding of it, else Go's
    encoding (``/path with spaces/`` -> ``/path%20with%20spaces/``)."""
    url = _value(u)
    if url.raw_path and _valid_encoded(url.raw_path):
        try:
            if _unescape(url.raw_path, "path") == url.path:
                return url.raw_path
        except URLError:
            pass
    if url.path == b"*":
        return "*"
    return _escape(url.path, "path")


def _query(u: Any) -> dict[str, list[str]]:
    """Go's URL.Query(): pairs split on '&', keys and values unescaped ('+' is a space),
    values of one key in order; pairs Go cannot parse (a ';', a bad escape) are dropped."""
    result: dict[str, list[str]] = {}
    for pair in _value(u).raw_query.split("&"):
        if not pair or ";" in pair:
            continue
        key, _, val = pair.partition("=")
        try:
            key_text = _unescape(key, "query").decode(errors="replace")
            val_text = _unescape(val, "query").decode(errors="replace")
        except URLError:
            continue
        result.setdefault(key_text, []).append(val_text)
    return result


FUNCTIONS = {
    "url": _url,
    "isURL": parses(parse_request_uri),
    "getScheme": lambda u: _value(u).scheme,
    "getHost": lambda u: _value(u).host,
    "getHostname": lambda u: _split_host_port(_value(u).host)[0],
    "getPort": lambda u: _split_host_port(_value(u).host)[1],
    "getEscapedPath": _escaped_path,
    "getQuery": _query,
}
