"""Kubernetes' CEL format library (cel/libraries/format.py) against Kubernetes' own cases ("K8s
test": k8s.io/apiserver pkg/cel/library/format_test.go; "K8s doc": the examples in format.go)
and the validators it delegates to (apimachinery's name validation, go-openapi strfmt, Go's
url.ParseRequestURI); then one ValidatingPolicy using the url, ip, cidr and format libraries
through `kyverno test`."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ciso.engines.kyverno.cel.program import CelError, evaluate
from ciso.engines.kyverno.engine import apply
from ciso.engines.kyverno.testrunner import run_test_file

FIXTURE = Path(__file__).parent / "fixtures" / "cel-libraries"

LABEL = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
    "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)
SUBDOMAIN = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
DNS1035 = (
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
)
QUALIFIED = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)
LABEL_VALUE = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    "'my_value',  or '12345', regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)

VALID = [
    # K8s test and doc
    ("dns1123Label", "my-label-name"),
    ("dns1123Subdomain", "apiextensions.k8s.io"),
    ("dns1035Label", "my-label-name"),
    ("qualifiedName", "apiextensions.k8s.io/v1beta1"),
    ("qualifiedName", "my.name"),
    ("dns1123LabelPrefix", "my-label-prefix-"),
    ("dns1123SubdomainPrefix", "mysubdomain.prefix.-"),
    ("dns1035LabelPrefix", "my-label-prefix-"),
    ("uri", "http://example.com"),
    ("uuid", "123e4567-e89b-12d3-a456-426614174000"),
    ("byte", "aGVsbG8="),
    ("date", "2021-01-01"),
    ("datetime", "2021-01-01T00:00:00Z"),
    # apimachinery: an empty label value is valid
    ("labelValue", ""),
    ("labelValue", "My_Value.1"),
    # strfmt: a 32-digit UUID without dashes, any case; Go's base64 skips newlines; leap day
    ("uuid", "123E4567E89B12D3A456426614174000"),
    ("byte", "aGVs\nbG8="),
    ("date", "2024-02-29"),
    ("date", "0000-01-01"),  # Go's time.Parse takes year 0
    # strfmt's IsDateTime: 't' or 'T', a fraction, an offset with a colon
    ("datetime", "2024-01-01t10:00:00.5+02:00"),
]


@pytest.mark.parametrize(("name", "text"), VALID)
def test_valid_strings_give_no_errors(name, text):
    assert evaluate(f"format.{name}().validate(s).hasValue()", {"s": text}) is False


INVALID = [
    # K8s test: the messages word for word
    ("dns1123Label", "contains a space", [LABEL]),
    ("dns1123Subdomain", "contains a space", [SUBDOMAIN]),
    ("dns1035Label", "contains a space", [DNS1035]),
    ("qualifiedName", "contains a space", ["name part " + QUALIFIED]),
    ("dns1123LabelPrefix", "contains a space-", [LABEL]),
    ("dns1123SubdomainPrefix", "contains a space-", [SUBDOMAIN]),
    ("dns1035LabelPrefix", "contains a space-", [DNS1035]),
    ("byte", "aGVsbG8", ["invalid base64"]),
    ("date", "2020-01-32", ["invalid date"]),
    ("datetime", "2020-01-32T00:00:00Z", ["invalid datetime"]),
    # apimachinery's other messages
    ("dns1123Label", "a.b", ["must not contain dots"]),
    ("dns1123Label", "a" * 64, ["must be no more than 63 characters"]),
    ("dns1123Label", "my-name-", [LABEL]),  # a trailing dash is only a prefix's privilege
    ("dns1035Label", "123-abc", [DNS1035]),
    ("labelValue", "-x", [LABEL_VALUE]),
    ("qualifiedName", "/MyName", ["prefix part must be non-empty"]),
    ("qualifiedName", "example.com/", ["name part must be non-empty", "name part " + QUALIFIED]),
    ("qualifiedName", "Ex.com/n", ["prefix part " + SUBDOMAIN]),
    (
        "qualifiedName",
        "a/b/c",
        [
            "a qualified name "
            + QUALIFIED
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ],
    ),
    # Go's ParseRequestURI error text
    ("uri", "../x", ['parse "../x": invalid URI for request']),
    ("uuid", "x", ["does not match the UUID format"]),
    ("uuid", "123e4567-e89b-12d3-a456-426614174000\n", ["does not match the UUID format"]),
    ("byte", "!!", ["invalid base64"]),
    ("date", "2023-02-29", ["invalid date"]),
    ("date", "2024-1-01", ["invalid date"]),
    # strfmt's IsDateTime: no space separator, seconds <= 59, the offset needs its colon
    ("datetime", "2024-01-01 10:00:00Z", ["invalid datetime"]),
    ("datetime", "2024-01-01T10:00:60Z", ["invalid datetime"]),
    ("datetime", "2024-01-01T10:00:00+0200", ["invalid datetime"]),
    ("datetime", "2024-01-01", ["invalid datetime"]),
]


@pytest.mark.parametrize(("name", "text", "errors"), INVALID)
def test_invalid_strings_give_kubernetes_messages(name, text, errors):
    assert evaluate(f"format.{name}().validate(s).value()", {"s": text}) == errors


def test_named_formats():
    # K8s test: an unknown name is an empty optional; a known one validates as its constant
    assert evaluate("format.named('unknown').hasValue()", {}) is False
    assert evaluate("format.named('dns1123Label').value().validate('a.b').value()", {}) == [
        "must not contain dots"
    ]
    assert evaluate("format.named('uuid') == optional.of(format.uuid())", {}) is True


def test_validate_needs_a_format():
    with pytest.raises(CelError, match="no such overload"):
        evaluate("'x'.validate('y')", {})


def _load(name: str) -> list[dict]:
    return [d for d in yaml.safe_load_all((FIXTURE / name).read_text()) if d]


def test_a_policy_using_the_libraries_through_kyverno_test():
    result = run_test_file(FIXTURE / "kyverno-test.yaml")
    assert result.error is None
    outcomes = {e.resource: (e.expected, e.outcome) for e in result.expectations}
    assert outcomes == {
        "good": ("pass", "passed"),
        "bad-port-name": ("fail", "passed"),
        "outside-range": ("fail", "passed"),
        "not-a-cidr": ("fail", "passed"),
        "http-docs": ("fail", "passed"),
        "loopback-ip": ("fail", "passed"),
    }


def test_each_resource_fails_for_its_own_reason():
    # a library error would fail the bad resources too: their messages say which check failed
    results = apply(_load("policy.yaml"), _load("resources.yaml"))
    by_name = {r.name: (r.status, r.message) for r in results}
    assert by_name["good"][0] == "pass"
    assert by_name["bad-port-name"] == ("fail", "port name: " + DNS1035)
    assert by_name["outside-range"] == (
        "fail",
        "loadBalancerSourceRanges must be CIDRs inside 10.0.0.0/8",
    )
    assert by_name["not-a-cidr"] == (
        "fail",
        "loadBalancerSourceRanges must be CIDRs inside 10.0.0.0/8",
    )
    assert by_name["http-docs"] == ("fail", "the docs annotation must be an https URL")
    assert by_name["loopback-ip"] == (
        "fail",
        "clusterIP must be a global unicast IP, not 127.0.0.1",
    )
