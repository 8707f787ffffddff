"""Kubernetes' CEL IP and CIDR libraries (cel/libraries/ip.py, cidr.py; two libraries in
Kubernetes too) against Kubernetes' own cases: "K8s test" is k8s.io/apiserver
pkg/cel/library/{ip,cidr}_test.go, "K8s doc" the examples in ip.go/cidr.go, "Go" the
behaviour of netip.ParseAddr/ParsePrefix and netip.Addr's predicates Kubernetes relies on."""

from __future__ import annotations

import time

import pytest

from ciso.engines.kyverno.cel import limits
from ciso.engines.kyverno.cel.program import CelError, evaluate

IP_VALUES = [
    # K8s test / doc
    ("string(ip('192.168.0.1'))", "192.168.0.1"),
    ("ip('192.168.0.1').family()", 4),
    ("ip('2001:db8::68').family()", 6),
    ("ip('0.0.0.0').isUnspecified()", True),
    ("ip('127.0.0.1').isUnspecified()", False),
    ("ip('::').isUnspecified()", True),
    ("ip('::1').isUnspecified()", False),
    ("ip('127.0.0.1').isLoopback()", True),
    ("ip('1.2.3.4').isLoopback()", False),
    ("ip('::1').isLoopback()", True),
    ("ip('2001:db8::abcd').isLoopback()", False),
    ("ip('224.0.0.1').isLinkLocalMulticast()", True),
    ("ip('224.0.1.1').isLinkLocalMulticast()", False),
    ("ip('ff02::1').isLinkLocalMulticast()", True),
    ("ip('fd00::1').isLinkLocalMulticast()", False),
    ("ip('169.254.169.254').isLinkLocalUnicast()", True),
    ("ip('192.168.0.1').isLinkLocalUnicast()", False),
    ("ip('fe80::1').isLinkLocalUnicast()", True),
    ("ip('fd80::1').isLinkLocalUnicast()", False),
    # Go's IsGlobalUnicast counts private addresses and ULAs, not broadcast or multicast
    ("ip('192.168.0.1').isGlobalUnicast()", True),
    ("ip('fd00::1').isGlobalUnicast()", True),
    ("ip('255.255.255.255').isGlobalUnicast()", False),
    ("ip('2001:db8::abcd').isGlobalUnicast()", True),
    ("ip('ff00::1').isGlobalUnicast()", False),
    ("ip('fe80::1').isGlobalUnicast()", False),
    # K8s doc: isCanonical
    ("ip.isCanonical('127.0.0.1')", True),
    ("ip.isCanonical('2001:db8::abcd')", True),
    ("ip.isCanonical('2001:DB8::ABCD')", False),
    ("ip.isCanonical('2001:db8::0:0:0:abcd')", False),
    # Go's Addr.String: lowercase, the first longest run of >= 2 zero groups as '::'
    ("string(ip('2001:DB8:0:0:1:0:0:1'))", "2001:db8::1:0:0:1"),
    ("string(ip('2001:db8:0:1:1:1:1:1'))", "2001:db8:0:1:1:1:1:1"),
    ("ip('127.0.0.1') == ip('127.0.0.1')", True),
    ("ip('::1') == ip('0:0:0:0:0:0:0:1')", True),  # compared by value
    ("ip('::1') != ip('127.0.0.1')", True),
]


@pytest.mark.parametrize(("expression", "expected"), IP_VALUES)
def test_ip_values(expression, expected):
    assert evaluate(expression, {}) == expected


IS_IP = [
    ("192.168.0.1", True),
    ("::1", True),
    ("::1.2.3.4", True),  # an IPv4 tail in IPv6 is fine; only the ::ffff: mapping is refused
    ("192.168.0.1.0", False),  # K8s test
    ("2001:db8:::68", False),  # K8s test
    ("127.0.0.256", False),  # K8s doc
    (":::1", False),  # K8s doc
    ("1.02.3.4", False),  # Go: no leading zeros
    ("1.2.3", False),
    ("::ffff:1.2.3.4", False),  # Kubernetes: no IPv4-mapped IPv6
    ("fe80::1%eth0", False),  # Kubernetes: no zone
    ("", False),
]


@pytest.mark.parametrize(("text", "expected"), IS_IP)
def test_is_ip(text, expected):
    assert evaluate("isIP(s)", {"s": text}) is expected


def _parse_error(text: str, why: str) -> str:
    return (
        f'IP Address "{text}" parse error during conversion from string: ParseAddr("{text}"): {why}'
    )


IP_ERRORS = [
    # K8s test: the exact messages
    ("ip('192.168.0.1.0')", _parse_error("192.168.0.1.0", "IPv4 address too long")),
    (
        "ip('2001:db8:::68')",
        _parse_error("2001:db8:::68", 'each colon-separated field must have at least one digit (at ":68")'),
    ),
    ("ip.isCanonical('127.0.0.1.0')", _parse_error("127.0.0.1.0", "IPv4 address too long")),
    # Go's other netip messages
    ("ip('foo')", _parse_error("foo", "unable to parse IP")),
    ("ip('1.2.3')", _parse_error("1.2.3", "IPv4 address too short")),
    ("ip('1.02.3.4')", _parse_error("1.02.3.4", "IPv4 field has octet with leading zero")),
    ("ip('127.0.0.256')", _parse_error("127.0.0.256", "IPv4 field has value >255")),
    ("ip('1..2.3')", _parse_error("1..2.3", 'IPv4 field must have at least one digit (at ".2.3")')),
    ("ip('12345::')", _parse_error("12345::", 'each group must have 4 or less digits (at "12345::")')),
    ("ip('1::2::3')", _parse_error("1::2::3", 'multiple :: in address (at ":3")')),
    ("ip('1:2:3')", _parse_error("1:2:3", "address string too short")),
    ("ip('%eth0')", _parse_error("%eth0", "missing IPv6 address")),
    # Kubernetes' own refusals
    ("ip('fe80::1%eth0')", 'IP address "fe80::1%eth0" with zone value is not allowed'),
    ("ip('::ffff:1.2.3.4')", 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'),
    ("url('/x').family()", "expected an IP address"),
]  # fmt: skip


@pytest.mark.parametrize(("expression", "message"), IP_ERRORS)
def test_ip_errors_in_kubernetes_words(expression, message):
    with pytest.raises(CelError) as caught:
        evaluate(expression, {})
    assert message in str(caught.value)


CIDR_VALUES = [
    # K8s test
    ("string(cidr('192.168.0.0/24'))", "192.168.0.0/24"),
    ("cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))", True),
    ("cidr('192.168.0.0/24').containsIP(ip('192.168.1.1'))", False),
    ("cidr('192.168.0.0/24').containsIP('192.168.0.1')", True),
    ("cidr('192.168.0.0/24').containsIP('192.168.1.1')", False),
    ("cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/25'))", True),
    ("cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.1/32'))", True),
    ("cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/23'))", False),
    ("cidr('192.168.0.0/24').containsCIDR(cidr('192.169.0.1/32'))", False),
    ("cidr('192.168.0.0/24').containsCIDR('192.168.0.0/25')", True),
    ("cidr('192.168.0.0/24').containsCIDR('192.168.0.0/23')", False),
    ("cidr('192.168.0.0/24').ip() == ip('192.168.0.0')", True),
    ("cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')", True),
    ("cidr('192.168.0.0/24').prefixLength()", 24),
    ("cidr('2001:db8::/32').containsIP(ip('2001:db8::1'))", True),
    ("cidr('2001:db8::/32').containsIP('2001:dc8::1')", False),
    ("cidr('2001:db8::/32').containsCIDR('2001:db8::/33')", True),
    ("cidr('2001:db8::/32').containsCIDR(cidr('2001:db8::/31'))", False),
    ("string(cidr('2001:db8:1::/32').masked())", "2001:db8::/32"),
    ("cidr('2001:db8::/32').prefixLength()", 32),
    # K8s doc (its comment calls cidr('192.168.0.1/16') an error, but the code, netip, and
    # its own test of masked() accept host bits: the code is what runs)
    ("cidr('192.168.0.1/24').ip() == ip('192.168.0.1')", True),
    ("cidr('::1/128').ip().family()", 6),
    ("cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()", True),
    ("cidr('192.168.0.1/24') == cidr('192.168.0.1/24').masked()", False),
    ("cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))", True),
    ("cidr('192.168.1.0/24').containsCIDR('192.168.2.0/24')", False),
    # Go: a prefix never contains an address or prefix of the other family
    ("cidr('0.0.0.0/0').containsIP('::1')", False),
    ("cidr('::/0').containsCIDR('10.0.0.0/8')", False),
]


@pytest.mark.parametrize(("expression", "expected"), CIDR_VALUES)
def test_cidr_values(expression, expected):
    assert evaluate(expression, {}) == expected


IS_CIDR = [
    ("192.168.0.0/16", True),  # K8s doc
    ("::1/128", True),
    ("192.168.0.0/33", False),
    ("::1/129", False),
    ("10.0.0.1/8", True),  # host bits are kept, not refused
    ("10.0.0.0/08", False),  # Go: no leading zero in the bits
    ("10.0.0.0/+8", False),  # nor a sign
    ("10.0.0.0", False),
    ("fe80::1%eth0/64", False),
    ("::ffff:1.2.3.4/120", False),
]


@pytest.mark.parametrize(("text", "expected"), IS_CIDR)
def test_is_cidr(text, expected):
    assert evaluate("isCIDR(s)", {"s": text}) is expected


_TWICE = "network address parse error during conversion from string: " * 2

CIDR_ERRORS = [
    # K8s test: the conversion prefix appears twice in Kubernetes' message
    ("cidr('192.168.0.0/')", _TWICE + 'netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""'),
    ("cidr('2001:db8::/')", _TWICE + 'netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""'),
    # Go's ParsePrefix
    ("cidr('1.2.3.4')", _TWICE + "netip.ParsePrefix(\"1.2.3.4\"): no '/'"),
    ("cidr('10.0.0.0/33')", _TWICE + 'netip.ParsePrefix("10.0.0.0/33"): prefix length out of range'),
    (
        "cidr('x/8')",
        _TWICE + 'netip.ParsePrefix("x/8"): ParseAddr("x"): unable to parse IP',
    ),
    (
        "cidr('fe80::1%eth0/64')",
        _TWICE + 'netip.ParsePrefix("fe80::1%eth0/64"): IPv6 zones cannot be present in a prefix',
    ),
    (
        "cidr('::ffff:1.2.3.4/120')",
        "network address parse error during conversion from string: "
        'IPv4-mapped IPv6 address "::ffff:1.2.3.4/120" is not allowed',
    ),
    # containsCIDR('bad') carries the parse error; containsIP('bad') is Kubernetes' "no such
    # overload" (its failed conversion reaches the IP overload as a non-IP)
    ("cidr('10.0.0.0/8').containsCIDR('x')", _TWICE + "netip.ParsePrefix(\"x\"): no '/'"),
    ("cidr('10.0.0.0/8').containsIP('x')", "no such overload"),
]  # fmt: skip


@pytest.mark.parametrize(("expression", "message"), CIDR_ERRORS)
def test_cidr_errors_in_kubernetes_words(expression, message):
    with pytest.raises(CelError) as caught:
        evaluate(expression, {})
    assert message in str(caught.value)


@pytest.mark.parametrize(
    "call",
    [
        "!isIP(w) && ip('10.0.0.1').isGlobalUnicast()",
        "cidr('10.0.0.0/8').containsIP('10.1.2.3')",
        "isURL('https://' + w + '.example/') && url('https://x/').getHost() == 'x'",
        "!format.dns1123Label().validate(w).hasValue()",
    ],
    ids=["ip", "cidr", "url", "format"],
)
def test_library_calls_stop_at_the_deadline(call):
    # 1400 x 1400 steps are under the cost limit; each calls the library, which checks the
    # deadline every other library checks (limits.py), so the run stops near the time limit
    words = {"l": [f"w{i}" for i in range(1400)]}
    source = f"l.all(v, l.all(w, {call}))"
    start = time.monotonic()
    with pytest.raises(CelError, match="time limit"):
        evaluate(source, words)
    assert time.monotonic() - start < limits.TIME_LIMIT_SECONDS + 1.5
