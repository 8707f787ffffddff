"""Kubernetes' CIDR library (k8s.io/apiserver pkg/cel/library/cidr.go), a library of its own in
Kubernetes as here: ``cidr(string)``, ``isCIDR``, ``string(cidr)`` and the methods
``containsIP`` (an IP or a string), ``containsCIDR`` (a CIDR or a string), ``ip()`` (the
address as written, in ip.py), ``masked()``, ``prefixLength()``.

Parsing is Go's ``netip.ParsePrefix``: the address may keep host bits (``10.0.0.1/8`` until
``masked()``), the bits are decimal without sign or leading zero, no zone; Kubernetes then
refuses IPv4-mapped IPv6. Its errors are Kubernetes' own, including the conversion prefix it
happens to add twice.

A prefix crosses the evaluator as ``{"@cidr": "<address>/<bits>"}`` (canonical address)."""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from ciso.engines.kyverno.cel.libraries import ip as iplib
from ciso.engines.kyverno.cel.libraries.ip import go_quote
from ciso.engines.kyverno.cel.libraries.validity import parses

KEY = iplib.CIDR_KEY
_CONVERSION = "network address parse error during conversion from string: "
_DIGITS = re.compile(r"[0-9]+")


def parse_prefix(text: str) -> tuple[iplib.Address, int]:
    """netip.ParsePrefix; ValueError in its words (``netip.ParsePrefix("…"): …``)."""

    def fail(why: str) -> ValueError:
        return ValueError(f"netip.ParsePrefix({go_quote(text)}): {why}")

    slash = text.rfind("/")
    if slash < 0:
        raise fail("no '/'")
    try:
        address, zone = iplib.parse_addr(text[:slash])
    except iplib.AddrError as exc:
        raise fail(str(exc)) from None
    if zone:
        raise fail("IPv6 zones cannot be present in a prefix")
    bits_text = text[slash + 1 :]
    # Go's Atoi would take a sign or leading zeros; ParsePrefix refuses both first
    bad_start = len(bits_text) > 1 and not "1" <= bits_text[0] <= "9"
    if bad_start or not _DIGITS.fullmatch(bits_text) or int(bits_text) >= 2**63:
        raise fail(f"bad bits after slash: {go_quote(bits_text)}")
    bits = int(bits_text)
    if bits > address.max_prefixlen:
        raise fail("prefix length out of range")
    return address, bits


def parse(text: Any) -> tuple[iplib.Address, int]:
    """Kubernetes' parseCIDR, its error as cidr() reports it (prefixed once more there)."""
    if not isinstance(text, str):
        raise ValueError("no such overload")
    try:
        address, bits = parse_prefix(text)
    except ValueError as exc:
        raise ValueError(_CONVERSION + _CONVERSION + str(exc)) from None
    if iplib.is_4in6(address):
        raise ValueError(f"{_CONVERSION}IPv4-mapped IPv6 address {go_quote(text)} is not allowed")
    return address, bits


def _make(address: iplib.Address, bits: int) -> dict[str, str]:
    return {KEY: f"{iplib.canonical(address)}/{bits}"}


def value(c: Any) -> tuple[iplib.Address, int]:
    if not (isinstance(c, dict) and KEY in c):
        raise ValueError(f"no such overload: expected a CIDR, got {type(c).__name__}")
    address, _, bits = c[KEY].rpartition("/")
    return ipaddress.ip_address(address), int(bits)


def _network(c: Any) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    address, bits = value(c)
    return ipaddress.ip_network(f"{address}/{bits}", strict=False)


def _cidr(text: Any) -> dict[str, str]:
    return _make(*parse(text))


def _contains_ip(c: Any, other: Any) -> bool:
    if isinstance(other, str):
        try:
            other = iplib.make(iplib.parse(other))
        except ValueError:
            # Kubernetes turns the string into an IP first and, when that fails, reports the
            # failed conversion as a missing overload (not the parse error)
            raise ValueError("no such overload") from None
    address = iplib.value(other)
    network = _network(c)
    return address.version == network.version and address in network


def _contains_cidr(c: Any, other: Any) -> bool:
    """Go: the prefixes overlap and this one is no longer than the other."""
    inner = _network(_cidr(other) if isinstance(other, str) else other)
    outer = _network(c)
    return (
        inner.version == outer.version
        and outer.prefixlen <= inner.prefixlen
        and inner.network_address in outer
    )


def _masked(c: Any) -> dict[str, str]:
    network = _network(c)
    return _make(network.network_address, network.prefixlen)


FUNCTIONS = {
    "cidr": _cidr,
    "isCIDR": parses(parse),
    "containsIP": _contains_ip,
    "containsCIDR": _contains_cidr,
    "masked": _masked,
    "prefixLength": lambda c: value(c)[1],
}
