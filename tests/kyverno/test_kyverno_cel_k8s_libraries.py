"""Kubernetes' url, ip, cidr and format CEL libraries (cel/libraries/{url,ip,cidr,format}.py):
each function on valid and invalid input, the values Kubernetes documents for them (the CEL
reference of kubernetes.io and the libraries' own examples), the errors in its words, and one
ValidatingPolicy using all four through `kyverno test`."""

from __future__ import annotations

from pathlib import Path

import pytest

from ciso.engines.kyverno.cel.program import CelError, evaluate
from ciso.engines.kyverno.testrunner import run_test_file

TRUE = {
    "url": [
        "url('https://example.com:80/').getHost() == 'example.com:80'",
        "url('https://[::1]:80/').getHost() == '[::1]:80'",
        "url('https://[::1]:80/').getHostname() == '::1'",
        "url('https://example.com:80/').getHostname() == 'example.com'",
        "url('/absolute-path').getHostname() == ''",
        "url('https://example.com:8080').getPort() == '8080'",
        "url('https://example.com/').getPort() == ''",
        "url('HTTPS://example.com/').getScheme() == 'https'",
        "url('/absolute-path').getScheme() == ''",
        "url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'",
        "url('https://example.com/a%20b').getEscapedPath() == '/a%20b'",
        "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == "
        "{'k1': ['a'], 'k2': ['b', 'c']}",
        "url('https://example.com/?q=a+b').getQuery() == {'q': ['a b']}",
        "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
        "isURL('/absolute-path')",
        "isURL('mailto:someone@example.com')",
        "!isURL('https://a:b:c/')",
        "!isURL('../relative-path')",
        "!isURL('')",
        "!isURL('https://exa mple.com/')",
        "!isURL('https://example.com/%zz')",
    ],
    "ip": [
        "ip('127.0.0.1').family() == 4",
        "ip('::1').family() == 6",
        "ip('127.0.0.1').isLoopback() && ip('::1').isLoopback()",
        "ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified()",
        "ip('224.0.0.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast()",
        "!ip('224.0.1.1').isLinkLocalMulticast()",
        "ip('169.254.1.1').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast()",
        # Go's global unicast includes private ranges; broadcast and link-local are not
        "ip('10.0.0.1').isGlobalUnicast() && ip('2001:db8::1').isGlobalUnicast()",
        "!ip('255.255.255.255').isGlobalUnicast() && !ip('fe80::1').isGlobalUnicast()",
        "ip.isCanonical('127.0.0.1') && ip.isCanonical('2001:db8::1')",
        "!ip.isCanonical('2001:DB8::1') && !ip.isCanonical('2001:db8:0:0:0:0:0:1')",
        "isIP('::1') && !isIP('1.02.3.4') && !isIP('1.2.3') && !isIP('foo')",
        "!isIP('::ffff:1.2.3.4') && !isIP('fe80::1%eth0')",
        "string(ip('2001:DB8::1')) == '2001:db8::1'",
        "ip('127.0.0.1') == ip('127.0.0.1') && ip('::1') != ip('127.0.0.1')",
    ],
    "cidr": [
        "cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))",
        "cidr('192.168.0.0/24').containsIP('192.168.0.1')",
        "!cidr('192.168.0.0/24').containsIP('192.168.1.1')",
        "!cidr('192.168.0.0/24').containsIP('::1')",
        "cidr('192.168.0.0/24').containsCIDR('192.168.0.0/25')",
        "cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.128/25'))",
        "!cidr('192.168.0.0/24').containsCIDR('192.168.0.0/23')",
        "cidr('192.168.0.1/24').ip() == ip('192.168.0.1')",
        "cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')",
        "cidr('2001:db8::/32').prefixLength() == 32",
        "string(cidr('192.168.0.1/24').masked()) == '192.168.0.0/24'",
        "isCIDR('::1/128') && !isCIDR('192.168.0.0') && !isCIDR('10.0.0.0/33')",
        "!isCIDR('10.0.0.0/08') && !isCIDR('::ffff:1.2.3.4/120')",
    ],
    "format": [
        "!format.dns1123Label().validate('my-name').hasValue()",
        "format.dns1123Label().validate('a.b').value() == ['must not contain dots']",
        "format.named('labelValue').hasValue() && !format.named('nope').hasValue()",
        "format.named('uuid').value().validate('x').value() == ['does not match the UUID format']",
        "!format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()",
        "!format.byte().validate('aGVsbG8=').hasValue()",
        "format.byte().validate('!!').value() == ['invalid base64']",
        "!format.date().validate('2024-02-29').hasValue()",
        "format.date().validate('2023-02-29').value() == ['invalid date']",
        "!format.datetime().validate('2024-01-01T10:00:00Z').hasValue()",
        "!format.datetime().validate('2024-01-01T10:00:00.5+02:00').hasValue()",
        "format.datetime().validate('2024-01-01').value() == ['invalid datetime']",
        "!format.dns1123LabelPrefix().validate('my-name-').hasValue()",
        "format.dns1123Label().validate('my-name-').hasValue()",
        "!format.dns1035Label().validate('abc-123').hasValue()",
        "format.dns1035Label().validate('123-abc').hasValue()",
        "!format.dns1123Subdomain().validate('example.com').hasValue()",
        "!format.qualifiedName().validate('example.com/MyName').hasValue()",
        "format.qualifiedName().validate('/MyName').value() == ['prefix part must be non-empty']",
        "!format.labelValue().validate('').hasValue()",
        "format.labelValue().validate('-x').hasValue()",
        "format.uri().validate('../x').value() == ['parse \"../x\": invalid URI for request']",
    ],
}


@pytest.mark.parametrize(
    "expression",
    [e for exprs in TRUE.values() for e in exprs],
    ids=[f"{lib}-{i}" for lib, exprs in TRUE.items() for i in range(len(exprs))],
)
def test_documented_values(expression):
    assert evaluate(expression, {}) is True


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("ip('foo')", 'IP Address "foo" parse error during conversion from string: '
         'ParseAddr("foo"): unable to parse IP'),
        ("ip('1.02.3.4')", "IPv4 field has octet with leading zero"),
        ("ip('::ffff:1.2.3.4')", 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'),
        ("ip('fe80::1%eth0')", "IP address 'fe80::1%eth0' with zone value is not allowed"),
        ("ip.isCanonical('x')", 'IP Address "x" parse error'),
        ("cidr('1.2.3.4')", 'netip.ParsePrefix("1.2.3.4"): no \'/\''),
        ("cidr('10.0.0.0/33')", "prefix length out of range"),
        ("cidr('10.0.0.0/8').containsIP('x')", 'IP Address "x" parse error'),
        ("url('../x')", 'URL parse error during conversion from string: parse "../x": '
         "invalid URI for request"),
        ("url('https://a:b:c/')", 'invalid port ":c" after host'),
        ("ip('1.2.3.4').getHost()", "expected a URL"),
        ("url('/x').family()", "expected an IP address"),
    ],
)  # fmt: skip
def test_errors_in_kubernetes_words(expression, message):
    with pytest.raises(CelError) as caught:
        evaluate(expression, {})
    assert message in str(caught.value)


def test_format_messages_are_apimachinerys():
    (message,) = evaluate("format.dns1123Label().validate('My_Name').value()", {})
    assert message == (
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
        "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
        "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
    )
    too_long = evaluate("format.dns1123Label().validate(name)", {"name": "a" * 64})
    assert too_long.value() == ["must be no more than 63 characters"]


def test_a_policy_using_the_four_libraries_through_kyverno_test():
    result = run_test_file(
        Path(__file__).parent / "fixtures" / "cel-libraries" / "kyverno-test.yaml"
    )
    assert result.error is None
    outcomes = {(e.resource, e.expected, e.outcome) for e in result.expectations}
    assert outcomes == {
        ("good", "pass", "passed"),
        ("bad-port-name", "fail", "passed"),
        ("outside-range", "fail", "passed"),
        ("not-a-cidr", "fail", "passed"),
        ("http-docs", "fail", "passed"),
    }


def test_validating_policy_results_reach_policy_reports(tmp_path):
    # before: reports kept only ClusterPolicy/Policy results; a ValidatingPolicy reported nothing
    import json

    from conftest import run_cli

    fixture = Path(__file__).parent / "fixtures" / "cel-libraries"
    args = ["kyverno", "apply", str(fixture / "policy.yaml"), "--resource"]
    args += [str(fixture / "resources.yaml"), "--policy-report", "--format", "json"]
    reports = {r["scope"]["name"]: r for r in json.loads(run_cli(args).stdout)}
    assert set(reports) == {"good", "bad-port-name", "outside-range", "not-a-cidr", "http-docs"}
    (entry,) = reports["outside-range"]["results"]
    assert entry["source"] == "KyvernoValidatingPolicy" and entry["result"] == "fail"
    assert reports["good"]["summary"]["pass"] == 1
    # a policy that opts out of background scans reports nothing
    opted_out = (
        (fixture / "policy.yaml")
        .read_text()
        .replace(
            "  validationActions: [Audit]",
            "  validationActions: [Audit]\n  evaluation:\n    background:\n      enabled: false",
        )
    )
    (tmp_path / "policy.yaml").write_text(opted_out)
    args[2] = str(tmp_path / "policy.yaml")
    assert json.loads(run_cli(args).stdout) == []
