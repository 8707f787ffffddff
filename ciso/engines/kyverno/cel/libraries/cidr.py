"""Kubernetes' CIDR library: ``cidr(string)``, ``isCIDR``, ``string(cidr)`` and the methods
``containsIP`` (an IP or a string), ``containsCIDR`` (a CIDR or a string), ``ip()`` (the
address as written, in ip.py), ``masked()``, ``prefixLength()``, with Go's ``netip.ParsePrefix``
semantics: the address may have host bits set (``10.0.0.1/8`` keeps them until ``masked()``),
no IPv4-mapped IPv6 address, no zone, no leading zeros.

A prefix crosses the evaluator as ``{"@cidr": "<address>/<bits>"}`` (canonical address)."""

from __future__ import annotations

import ipaddress
from typing import Any

from ciso.engines.kyverno.cel.libraries import ip as iplib

KEY = iplib.CIDR_KEY


def parse(text: str) -> tuple[iplib.Address, int]:
    if not isinstance(text, str):
        raise ValueError("no such overload: cidr(string)")
    address_text, slash, bits_text = text.partition("/")

    def fail(why: str) -> ValueError:
        return ValueError(
            "network address parse error during conversion from string: "
            f'netip.ParsePrefix("{text}"): {why}'
        )

    if not slash:
        raise fail("no '/'")
    if "%" in address_text:
        raise fail("IPv6 zones cannot be present in a prefix")
    try:
        address = iplib._go_parse(address_text)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if not bits_text.isdigit() or (len(bits_text) > 1 and bits_text.startswith("0")):
        raise fail(f'bad bits after slash: "{bits_text}"')
    bits = int(bits_text)
    if bits > address.max_prefixlen:
        raise fail("prefix length out of range")
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        raise ValueError(f'IPv4-mapped IPv6 address "{text}" is not allowed')
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


def _cidr(text: str) -> dict[str, str]:
    return _make(*parse(text))


def _is_cidr(text: str) -> bool:
    try:
        parse(text)
    except ValueError:
        return False
    return True


def _contains_ip(c: Any, other: Any) -> bool:
    address = iplib.parse(other) if isinstance(other, str) else iplib.value(other)
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
    "isCIDR": _is_cidr,
    "containsIP": _contains_ip,
    "containsCIDR": _contains_cidr,
    "masked": _masked,
    "prefixLength": lambda c: value(c)[1],
}
