"""Kubernetes' IP library (k8s.io/apiserver pkg/cel/library/ip.go): ``ip(string)``, ``isIP``,
``ip.isCanonical``, ``string(ip)`` and the methods ``family``, ``isUnspecified``, ``isLoopback``,
``isLinkLocalMulticast``, ``isLinkLocalUnicast``, ``isGlobalUnicast``.

Kubernetes parses with Go's ``netip.ParseAddr`` and then refuses zones and IPv4-mapped IPv6
addresses. ``parse_addr`` follows netip's grammar rather than Python's ``ipaddress`` (which
differs at the edges) and fails with netip's own words, because Kubernetes hands them to the
policy author: ``ParseAddr("1.2.3"): IPv4 address too short``.

An address crosses the evaluator as a one-key map holding its canonical text
(``{"@ip": "2001:db8::1"}``), so CEL's ``==`` compares addresses by value."""

from __future__ import annotations

import ipaddress
from typing import Any

from ciso.engines.kyverno.cel.libraries.validity import parses
from ciso.engines.kyverno.cel.syntax import namespaced

KEY = "@ip"
CIDR_KEY = "@cidr"  # cidr.py's values: ``cidr.ip()`` and ``string(cidr)`` share names with these

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_HEX = "0123456789abcdefABCDEF"


def go_quote(text: str) -> str:
    """Go's strconv.Quote (``%q``), which Kubernetes' and Go's messages use."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char.isprintable():
            out.append(char)
        elif char in "\a\b\f\n\r\t\v":
            out.append(repr(char)[1:-1])
        elif ord(char) < 0x80:
            out.append(f"\\x{ord(char):02x}")
        elif ord(char) <= 0xFFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return '"' + "".join(out) + '"'


class AddrError(ValueError):
    """netip's parseAddrError: ``ParseAddr("<in>"): <msg> (at "<rest>")``."""

    def __init__(self, text: str, message: str, at: str = "") -> None:
        where = f" (at {go_quote(at)})" if at else ""
        super().__init__(f"ParseAddr({go_quote(text)}): {message}{where}")


def _ipv4_fields(whole: str, text: str) -> bytes:
    """netip's parseIPv4Fields over ``text`` (the whole input, or an IPv6 address's tail)."""
    fields: list[int] = []
    value, digits = 0, 0
    for i, char in enumerate(text):
        if "0" <= char <= "9":
            if digits == 1 and value == 0:
                raise AddrError(whole, "IPv4 field has octet with leading zero")
            value = value * 10 + int(char)
            digits += 1
            if value > 255:
                raise AddrError(whole, "IPv4 field has value >255")
        elif char == ".":
            if i == 0 or i == len(text) - 1 or text[i - 1] == ".":
                raise AddrError(whole, "IPv4 field must have at least one digit", text[i:])
            if len(fields) == 3:
                raise AddrError(whole, "IPv4 address too long")
            fields.append(value)
            value, digits = 0, 0
        else:
            raise AddrError(whole, "unexpected character", text[i:])
    if len(fields) < 3:
        raise AddrError(whole, "IPv4 address too short")
    return bytes([*fields, value])


def _ipv6(whole: str) -> tuple[ipaddress.IPv6Address, str]:
    """netip's parseIPv6: groups of at most four hex digits, one ``::``, an IPv4 tail only in
    the last 32 bits, an optional non-empty ``%zone``."""
    text, percent, zone = whole.partition("%")
    if percent and not zone:
        raise AddrError(whole, "zone must be a non-empty string")
    packed = bytearray(16)
    ellipsis = -1
    if text.startswith("::"):
        ellipsis, text = 0, text[2:]
        if not text:
            return ipaddress.IPv6Address(0), zone
    i = 0
    while i < 16:
        end, value = 0, 0
        while end < len(text) and text[end] in _HEX:
            value = value * 16 + int(text[end], 16)
            end += 1
            if end > 4:
                raise AddrError(whole, "each group must have 4 or less digits", text)
        if end == 0:
            raise AddrError(whole, "each colon-separated field must have at least one digit", text)
        if end < len(text) and text[end] == ".":
            if ellipsis < 0 and i != 12:
                raise AddrError(
                    whole, "embedded IPv4 address must replace the final 2 fields of the address",
                    text,
                )  # fmt: skip
            if i + 4 > 16:
                raise AddrError(
                    whole,
                    "too many hex fields to fit an embedded IPv4 at the end of the address",
                    text,
                )
            packed[i : i + 4] = _ipv4_fields(whole, text)
            i += 4
            text = ""
            break
        packed[i], packed[i + 1] = value >> 8, value & 0xFF
        i += 2
        text = text[end:]
        if not text:
            break
        if text[0] != ":":
            raise AddrError(whole, "unexpected character, want colon", text)
        if len(text) == 1:
            raise AddrError(whole, "colon must be followed by more characters", text)
        text = text[1:]
        if text[0] == ":":
            if ellipsis >= 0:
                raise AddrError(whole, "multiple :: in address", text)
            ellipsis, text = i, text[1:]
            if not text:
                break
    if text:
        raise AddrError(whole, "trailing garbage after address", text)
    if i < 16:
        if ellipsis < 0:
            raise AddrError(whole, "address string too short")
        gap = 16 - i
        packed[ellipsis + gap : 16] = packed[ellipsis:i]
        packed[ellipsis : ellipsis + gap] = bytes(gap)
    elif ellipsis >= 0:
        raise AddrError(whole, "the :: must expand to at least one field of zeros", text)
    return ipaddress.IPv6Address(bytes(packed)), zone


def parse_addr(text: str) -> tuple[Address, str]:
    """netip.ParseAddr: the address and its zone ('' for none); AddrError in Go's words."""
    for char in text:
        if char == ".":
            return ipaddress.IPv4Address(_ipv4_fields(text, text)), ""
        if char == ":":
            return _ipv6(text)
        if char == "%":
            raise AddrError(text, "missing IPv6 address")
    raise AddrError(text, "unable to parse IP")


def is_4in6(address: Address) -> bool:
    return isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None


def parse(text: Any) -> Address:
    """Kubernetes' parseIPAddr: netip's parse, then no zone and no IPv4-mapped IPv6."""
    if not isinstance(text, str):
        raise ValueError("no such overload")
    try:
        address, zone = parse_addr(text)
    except AddrError as exc:
        raise ValueError(
            f"IP Address {go_quote(text)} parse error during conversion from string: {exc}"
        ) from None
    if zone:
        raise ValueError(f"IP address {go_quote(text)} with zone value is not allowed")
    if is_4in6(address):
        raise ValueError(f"IPv4-mapped IPv6 address {go_quote(text)} is not allowed")
    return address


def canonical(address: Address) -> str:
    # Python's compressed form is Go's Addr.String() for what Kubernetes admits (no zone, no
    # 4in6): lowercase hex, the first longest run of two or more zero groups as '::'
    return address.compressed


def make(address: Address) -> dict[str, str]:
    return {KEY: canonical(address)}


def value(ip: Any) -> Address:
    if not (isinstance(ip, dict) and KEY in ip):
        raise ValueError(f"no such overload: expected an IP address, got {type(ip).__name__}")
    return ipaddress.ip_address(ip[KEY])


def _ip(arg: Any) -> dict[str, str]:
    """``ip(string)``; also ``cidr.ip()``, the prefix's address as written (not masked)."""
    if isinstance(arg, dict) and CIDR_KEY in arg:
        return {KEY: arg[CIDR_KEY].rpartition("/")[0]}
    return make(parse(arg))


def _is_canonical(text: Any) -> bool:
    return canonical(parse(text)) == text


def _is_link_local_multicast(ip: Any) -> bool:
    """netip: 224.0.0.0/24, and ff02::/16 with any flags (``ffX2::``, RFC 4291 2.7)."""
    address = value(ip)
    packed = address.packed
    if address.version == 4:
        return packed[:3] == b"\xe0\x00\x00"
    return packed[0] == 0xFF and packed[1] & 0x0F == 0x02


def _is_global_unicast(ip: Any) -> bool:
    """Go's IsGlobalUnicast: anything but unspecified, loopback, multicast, link-local unicast
    and the IPv4 broadcast address (private addresses and ULAs are global unicast here)."""
    address = value(ip)
    if address == ipaddress.IPv4Address("255.255.255.255"):
        return False
    return not (
        address.is_unspecified
        or address.is_loopback
        or address.is_multicast
        or _is_link_local_unicast(ip)
    )


def _is_loopback(ip: Any) -> bool:
    """netip: 127.0.0.0/8 and ::1 (Python agrees)."""
    return value(ip).is_loopback


def _is_link_local_unicast(ip: Any) -> bool:
    """netip: 169.254.0.0/16 and fe80::/10 (Python agrees)."""
    return value(ip).is_link_local


FUNCTIONS = {
    "ip": _ip,
    "isIP": parses(parse),
    namespaced("ip", "isCanonical"): _is_canonical,
    "family": lambda ip: value(ip).version,
    "isUnspecified": lambda ip: value(ip).is_unspecified,
    "isLoopback": _is_loopback,
    "isLinkLocalMulticast": _is_link_local_multicast,
    "isLinkLocalUnicast": _is_link_local_unicast,
    "isGlobalUnicast": _is_global_unicast,
}
