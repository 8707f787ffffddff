"""Kyverno's JMESPath dialect: the "not found" rule and each family of custom functions, each
with values Kyverno itself produces and the errors it raises."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from jmespath.exceptions import JMESPathError

from ciso.engines.kyverno.jmespath import NotFound, compile_check, search
from ciso.engines.kyverno.jmespath.gotypes import (
    Quantity,
    parse_duration,
    parse_layout,
)
from ciso.engines.kyverno.jmespath.interpreter import compiled
from ciso.engines.kyverno.jmespath.objects import random_string
from ciso.engines.kyverno.variables import UnknownKey, VariableError, evaluate
from itbench.gotime import format_duration

DIGEST = "sha256:" + "a" * 64
POD = {
    "spec": {
        "containers": [
            {"name": "a"},
            {"name": "b", "resources": {"limits": {"cpu": "1"}}},
            {"name": "c", "resources": None},
        ]
    },
    "metadata": {"labels": {"app": "web"}},
}

# -- not found -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        # an absent key inside a projection is dropped before keys(@) ever runs on it
        ("spec.containers[0:2].resources.keys(@)[]", ["limits"]),
        ("metadata.labels.team || 'none'", "none"),
        ("to_string(metadata.labels.team)", "null"),
        ("metadata.labels.team == null", True),
        ("spec.containers[?name=='b'].resources.limits.cpu", ["1"]),
        ("[metadata.labels.team, metadata.labels.app]", [None, "web"]),
        ("metadata.labels | team", None),  # a pipe swallows not found
        ("spec.containers[2].resources.limits", None),  # null, not absent: no error
    ],
)
def test_not_found_is_absorbed_where_go_jmespath_absorbs_it(expression, expected):
    assert search(expression, POD) == expected


@pytest.mark.parametrize(
    ("expression", "key"),
    [
        ("metadata.labels.team", "team"),
        ("metadata.annotations.team", "annotations"),
        ("spec.containers[0].resources.limits", "resources"),
        ("nothing", "nothing"),
    ],
)
def test_an_expression_ending_at_an_absent_key_is_not_found(expression, key):
    with pytest.raises(NotFound, match=f'Unknown key "{key}" in path'):
        search(expression, POD)
    with pytest.raises(UnknownKey):
        evaluate(expression, POD)


def test_a_function_on_null_is_still_a_type_error():
    with pytest.raises(JMESPathError, match="keys"):
        search("spec.containers[2].resources.keys(@)", POD)


def test_expressions_are_compiled_once():
    assert compiled("metadata.name") is compiled("metadata.name")
    compile_check("a.b")
    with pytest.raises(JMESPathError):
        compile_check("a.[[")


# -- functions, family by family -----------------------------------------------------------------

VALUES = [
    # strings
    ("compare('a', 'b')", -1),
    ("compare('b', 'b')", 0),
    ("equal_fold('Go', 'GO')", True),
    ("replace('oink oink oink', 'k', 'ky', `2`)", "oinky oinky oink"),
    ("replace('oink oink oink', 'oink', 'moo', `-1`)", "moo moo moo"),
    ("replace_all('Lorem ipsum dolor sit amet', 'ipsum', 'muspi')", "Lorem muspi dolor sit amet"),
    ("to_upper('abc')", "ABC"),
    ("to_lower('ABC')", "abc"),
    ("trim('¡¡¡Hello, Gophers!!!', '!¡')", "Hello, Gophers"),
    ("trim_prefix('registry.io/app', 'registry.io/')", "app"),
    ("split('a,b,c', ',')", ["a", "b", "c"]),
    ("split('abc', '')", ["a", "b", "c"]),
    ("truncate('Lorem ipsum', `5`)", "Lorem"),
    ("truncate('Lorem', `-1`)", ""),
    ("regex_match('^[0-9]+$', '123')", True),
    ("regex_match('^[0-9]+$', `123`)", True),
    ("regex_match('^a', 'ba')", False),
    ("regex_replace_all('a(x*)b', '-ab-axxb-', '${1}W')", "-W-xxW-"),
    # Go reads $1W as the group named "1W", which does not exist: it expands to nothing
    ("regex_replace_all('a(x*)b', '-ab-axxb-', '$1W')", "---"),
    ("regex_replace_all('(\\d+)', 'port 8080', 'N$1')", "port N8080"),
    ("regex_replace_all_literal('[Hh]el?', 'Hello, Gophers', 'G$1')", "G$1lo, GopG$1rs"),
    ("pattern_match('*.io', 'registry.io')", True),
    ("pattern_match('nginx:?.?', 'nginx:1.2')", True),
    ("pattern_match('[ab]', 'a')", False),
    ("to_boolean('TRUE')", True),
    ("to_boolean('false')", False),
    ("path_canonicalize('/a/b/../c//d/')", "/a/c/d"),
    ("path_canonicalize('//etc')", "/etc"),
    # arithmetic (Kyverno's own expected values)
    ("add(`12`, `13`)", 25),
    ("add('12Ki', '13Ki')", "25Ki"),
    ("add('12Ki', '13')", "12301"),
    ("add('12s', '13s')", "25s"),
    ("add('1h', '30m0s')", "1h30m0s"),
    # "30m" reads as a quantity (30 milli) before it could read as a duration
    ("add('1', '30m')", "1030m"),
    ("sum(['12Ki', '13Ki', '1Ki', '4Ki'])", "30Ki"),
    ("sum(['12s', '13s'])", "25s"),
    ("sum([`1`, `2`])", 3),
    ("subtract(`12`, `13`)", -1),
    ("subtract('12Ki', '13Ki')", "-1Ki"),
    ("subtract('1h', '30m0s')", "30m0s"),
    ("multiply(`2.5`, `2.5`)", 6.25),
    ("multiply(`2.5`, '12Ki')", "30Ki"),
    ("multiply(`2.5`, '12')", "30"),
    ("multiply(`2.5`, '40s')", "1m40s"),
    ("divide('512M', '256M')", 2.0),
    ("divide('128M', '256M')", 0.5),
    ("divide('12Ki', `3`)", "4Ki"),
    ("divide('12Ki', '200')", 61.44),
    ("divide('12s', `3`)", "4s"),
    ("divide('12s', '5s')", 2.4),
    ("divide(`14`, `3`)", 14 / 3),
    ("modulo('12Ki', '5Ki')", "2Ki"),
    ("modulo('13s', '2s')", "1s"),
    ("modulo(`13`, `5`)", 3.0),
    ("round(`9.414675`, `2`)", 9.41),
    ("round(`2.5`, `0`)", 3.0),
    # encoding
    ("base64_encode('hello')", "aGVsbG8="),
    ("base64_decode('aGVsbG8=')", "hello"),
    ("parse_json('{\"a\": [1, 2]}')", {"a": [1, 2]}),
    ("parse_yaml('a: [1, 2]')", {"a": [1, 2]}),
    ("sha256('abc')", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("sha1('abc')", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    ("md5('abc')", "900150983cd24fb0d6963f7d28e17f72"),
    # objects
    ("lookup({a: `1`}, 'a')", 1),
    ("lookup(['x', 'y'], `1`)", "y"),
    ("lookup(['x'], `5`)", None),
    (
        "items({b: `2`, a: `1`}, 'key', 'value')",
        [{"key": "a", "value": 1}, {"key": "b", "value": 2}],
    ),
    ("items(['x'], 'i', 'v')", [{"i": 0, "v": "x"}]),
    ("object_from_lists(['a', 'b'], [`1`])", {"a": 1, "b": None}),
    ("label_match({app: 'web'}, {app: 'web', tier: 'x'})", True),
    ("label_match({app: 'web'}, {tier: 'x'})", False),
    # images and URLs
    ("image_normalize('nginx')", "docker.io/nginx:latest"),
    ("image_normalize('ghcr.io/org/app:1.2')", "ghcr.io/org/app:1.2"),
    (f"image_normalize('localhost:5000/app:1@{DIGEST}')", f"localhost:5000/app@{DIGEST}"),
    ("image_normalize('library/busybox')", "docker.io/library/busybox:latest"),
    ("is_external_url('http://10.0.0.1/x')", False),
    ("is_external_url('https://8.8.8.8')", True),
    ("is_external_url('http://localhost:8080')", False),
    # semver
    ("semver_compare('1.2.3', '>=1.0.0 <2.0.0')", True),
    ("semver_compare('2.1.0', '>=1.0.0 <2.0.0')", False),
    ("semver_compare('1.5.0', '<1.0.0 || >=1.5.0')", True),
    ("semver_compare('1.2.9', '1.2.x')", True),
    ("semver_compare('1.3.0', '1.2.x')", False),
    ("semver_compare('1.0.0-rc.1', '<1.0.0')", True),
    # time
    ("time_to_cron('2023-02-02T15:04:05Z')", "4 15 2 2 4"),
    ("time_add('2021-01-02T15:04:05Z', '1h30m')", "2021-01-02T16:34:05Z"),
    (
        "time_parse('2006-01-02T15:04:05Z07:00', '2021-01-02T15:04:05-07:00')",
        "2021-01-02T15:04:05-07:00",
    ),
    (
        "time_parse('Mon Jan 2 15:04:05 MST 2006', 'Sat Jan 2 15:04:05 UTC 2021')",
        "2021-01-02T15:04:05Z",
    ),
    ("time_parse('1136214245', '1136214245')", "2006-01-02T15:04:05Z"),
    ("time_utc('2021-01-02T18:04:05+03:00')", "2021-01-02T15:04:05Z"),
    ("time_diff('2021-01-02T15:04:05Z', '2021-01-02T16:04:05Z')", "1h0m0s"),
    ("time_before('2021-01-02T15:04:05Z', '2021-01-02T16:04:05Z')", True),
    ("time_after('2021-01-02T15:04:05Z', '2021-01-02T16:04:05Z')", False),
    ("time_between('2021-01-02T17:04:05Z', '2021-01-01T00:00:00Z', '2021-01-03T00:00:00Z')", True),
    ("time_truncate('2023-02-02T15:04:05Z', '1h')", "2023-02-02T15:00:00Z"),
    ("time_since('', '2021-01-02T15:04:05Z', '2021-01-02T15:04:06Z')", "1s"),
]


@pytest.mark.parametrize(("expression", "expected"), VALUES)
def test_function_values(expression, expected):
    result = search(expression, {})
    if isinstance(expected, float):
        assert result == pytest.approx(expected)
    else:
        assert result == expected


ERRORS = [
    ("add('12', '13s')", "types mismatch"),
    ("add(`12`, '13Ki')", "types mismatch"),
    ("add('12s', `13`)", "types mismatch"),
    ("add('1h', '30m')", "types mismatch"),
    ("add('abc', `1`)", "invalid operand"),
    ("sum(`[]`)", "at least one element"),
    ("divide('4s', '0s')", "Zero divisor"),
    ("divide(`4`, `0`)", "Zero divisor"),
    ("modulo(`14.5`, `2`)", "Non-integer"),
    ("round(`14`, `-2`)", "out of bounds"),
    ("to_boolean('yes')", "must be 'true' or 'false'"),
    ("regex_match('(', 'x')", "error parsing regexp: missing closing \\): `\\(`"),
    ("base64_decode('%%%')", "base64_decode"),
    ("parse_json('{')", "parse_json"),
    ("time_add('yesterday', '1h')", "cannot parse"),
    ("time_add('2021-01-02T15:04:05Z', '1 hour')", "invalid duration"),
    ("semver_compare('1.0.0', '>=banana')", "invalid version"),
    ("lookup({a: `1`}, `1`)", "must be a string"),
    ("to_upper(`1`)", "to_upper"),
    ("image_normalize('Bad Image')", "bad image"),
]


@pytest.mark.parametrize(("expression", "message"), ERRORS)
def test_function_errors(expression, message):
    with pytest.raises(JMESPathError, match=message):
        search(expression, {})
    with pytest.raises(VariableError):
        evaluate(expression, {})


def test_time_now_functions_are_rfc3339_now():
    now = dt.datetime.now(dt.UTC)
    stamp = dt.datetime.fromisoformat(search("time_now_utc()", {}).replace("Z", "+00:00"))
    assert abs((stamp - now).total_seconds()) < 5
    assert search("time_now()", {})[:4].isdigit()


def test_random_follows_its_pattern():
    rng = random.Random(7)
    for _ in range(20):
        value = random_string("[a-z0-9]{6}", rng)
        assert len(value) == 6 and all(c.isdigit() or "a" <= c <= "z" for c in value)
    assert len(search("random('[0-9a-f]{8}')", {})) == 8
    with pytest.raises(JMESPathError, match="unsupported"):
        search("random('(a|b)')", {})


def test_x509_decode_reads_a_certificate():
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import NameOID

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "itbench.example")])
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(42)
        .not_valid_before(dt.datetime(2024, 1, 1, tzinfo=dt.UTC))
        .not_valid_after(dt.datetime(2025, 1, 1, tzinfo=dt.UTC))
        .sign(key, hashes.SHA256())
    )
    pem = cert.public_bytes(serialization.Encoding.PEM).decode()
    decoded = search("x509_decode(@)", pem)
    assert decoded["Subject"]["CommonName"] == "itbench.example"
    assert decoded["NotAfter"] == "2025-01-01T00:00:00Z" and decoded["SerialNumber"] == 42
    assert decoded["PublicKey"]["E"] == 65537
    with pytest.raises(JMESPathError, match="x509_decode"):
        search("x509_decode('not a pem')", {})


# -- Go value types ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("1h30m", "1h30m0s"), ("1.5s", "1.5s"), ("300ms", "300ms"), ("-2h", "-2h0m0s"), ("0", "0s")],
)
def test_go_durations_round_trip(text, canonical):
    assert format_duration(parse_duration(text)) == canonical


@pytest.mark.parametrize("text", ["", "1", "1x", "h"])
def test_bad_durations(text):
    with pytest.raises(ValueError):
        parse_duration(text)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("1.5Gi", "1536Mi"), ("0.5", "500m"), ("2000", "2k"), ("1536", "1536"), ("1e3", "1e3")],
)
def test_quantities_print_canonically(text, canonical):
    assert str(Quantity.parse(text)) == canonical


def test_go_layouts():
    assert parse_layout("2006-01-02", "2021-05-06") == dt.datetime(2021, 5, 6, tzinfo=dt.UTC)
    with pytest.raises(ValueError):
        parse_layout("2006-01-02", "May 6")
