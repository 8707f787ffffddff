"""Kubernetes' IP library: ``ip(string)``, ``isIP``, ``ip.isCanonical``, ``string(ip)`` and the
methods ``family``, ``isUnspecified``, ``isLoopback``, ``isLinkLocalMulticast``,
``isLinkLocalUnicast``, ``isGlobalUnicast``, with Go's ``netip`` semantics as Kubernetes uses them:
no leading zeros in IPv4 fields, no zones, no IPv4-mapped IPv6 addresses, and Go's (not Python's)
idea of a global unicast address (private ranges included).

An address crosses the evaluator as a one-key map holding its canonical text
(``{"@ip": "2001:db8::1"}``), so CEL's ``==`` compares addresses by value."""

from __future__ import annotations

import ipaddress
from typing import Any

from ciso.engines.kyverno.cel.syntax import namespaced

KEY = "@ip"
CIDR_KEY = "@cidr"  # cidr.py's values: ``cidr.ip()`` and ``string(cidr)`` share names with these

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _go_parse(text: str) -> Address:
    """netip.ParseAddr: the error names the input as Go's does."""
    try:
        if ":" in text:
            if "%" in text:
                raise ValueError("zone")
            return ipaddress.IPv6Address(text)
        fields = text.split(".")
        if len(fields) == 4 and any(len(f) > 1 and f.startswith("0") for f in fields):
            raise ValueError(f'ParseAddr("{text}"): IPv4 field has octet with leading zero')
        return ipaddress.IPv4Address(text)
    except ValueError as exc:
        if str(exc) == "zone":
            raise
        if "leading zero" in str(exc):
            raise
        raise ValueError(f'ParseAddr("{text}"): unable to parse IP') from None


def parse(text: str) -> Address:
    """Kubernetes' parseIPAddr: netip's parse, then no zone and no IPv4-mapped IPv6."""
    if not isinstance(text, str):
        raise ValueError("no such overload: ip(string)")
    try:
        address = _go_parse(text)
    except ValueError as exc:
        if str(exc) == "zone":
            raise ValueError(f"IP address {text!r} with zone value is not allowed") from None
        raise ValueError(
            f'IP Address "{text}" parse error during conversion from string: {exc}'
        ) from None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        raise ValueError(f'IPv4-mapped IPv6 address "{text}" is not allowed')
    return address


def make(address: Address) -> dict[str, str]:
    return {KEY: canonical(address)}


def canonical(address: Address) -> str:
    # Python's compressed form is RFC 5952's, as Go's String(): lowercase, the longest run of
    # two or more zero groups as '::'
    return address.compressed


def value(ip: Any) -> Address:
    if not (isinstance(ip, dict) and KEY in ip):
        raise ValueError(f"no such overload: expected an IP address, got {type(ip).__name__}")
    return ipaddress.ip_address(ip[KEY])


def _ip(arg: Any) -> dict[str, str]:
    """``ip(string)``; also ``cidr.ip()``, the prefix's address as written (not masked)."""
    if isinstance(arg, dict) and CIDR_KEY in arg:
        return {KEY: arg[CIDR_KEY].rpartition("/")[0]}
    return make(parse(arg))


def _is_ip(text: str) -> bool:
    try:
        parse(text)
    except ValueError:
        return False
    return True


def _is_canonical(text: str) -> bool:
    return canonical(parse(text)) == text


def _family(ip: Any) -> int:
    return value(ip).version


def _is_link_local_multicast(ip: Any) -> bool:
    address = value(ip)
    if address.version == 4:
        return address in ipaddress.IPv4Network("224.0.0.0/24")
    packed = address.packed
    return packed[0] == 0xFF and packed[1] & 0x0F == 0x02


def _is_global_unicast(ip: Any) -> bool:
    """Go's IsGlobalUnicast: anything but unspecified, loopback, multicast, link-local unicast
    and the IPv4 broadcast address (private addresses are global unicast here)."""
    address = value(ip)
    if address.version == 4 and address == ipaddress.IPv4Address("255.255.255.255"):
        return False
    return not (
        address.is_unspecified
        or address.is_loopback
        or address.is_multicast
        or address.is_link_local
    )


def _string(arg: Any) -> str:
    """``string(ip)`` and ``string(cidr)`` (CEL's own string() handles every other type)."""
    if isinstance(arg, dict) and KEY in arg:
        return arg[KEY]
    if isinstance(arg, dict) and CIDR_KEY in arg:
        return arg[CIDR_KEY]
    raise ValueError(f"no such overload: string({type(arg).__name__})")


FUNCTIONS = {
    "ip": _ip,
    "isIP": _is_ip,
    namespaced("ip", "isCanonical"): _is_canonical,
    "family": _family,
    "isUnspecified": lambda ip: value(ip).is_unspecified,
    "isLoopback": lambda ip: value(ip).is_loopback,
    "isLinkLocalMulticast": _is_link_local_multicast,
    "isLinkLocalUnicast": lambda ip: value(ip).is_link_local,
    "isGlobalUnicast": _is_global_unicast,
    "string": _string,
}
