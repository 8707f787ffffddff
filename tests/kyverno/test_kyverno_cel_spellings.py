"""CEL that Kyverno's own newer tests write and the evaluator lacked: ``string(bool)`` (CEL
defines it; the evaluator's string() did not, and our ``string`` overload for IPs answered "no
such overload"), and Kyverno 1.16's lower-case ``generator.apply``. Found by running Kyverno's
test/cli suite (benchmarks/kyverno_cli_tests.py)."""

from __future__ import annotations

from ciso.engines.kyverno.cel.libraries.generator import collecting
from ciso.engines.kyverno.cel.program import evaluate


def test_string_of_a_bool():
    assert evaluate("string(true) + '/' + string(1 > 2)", {}) == "true/false"
    # the other conversions stay CEL's own
    assert evaluate("string(1) + string(1.5) + string(b'ab')", {}) == "11.5ab"


def test_generator_apply_in_either_spelling():
    for call in ("generator.Apply", "generator.apply"):
        with collecting() as made:
            expression = (
                call
                + '("ns", [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}])'
            )
            assert evaluate(expression, {}) is True
        assert made == [
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "ns"}}
        ]


def test_cel_go_regex_extension_that_kyverno_adds():
    # Kyverno's own mutating-policy test rewrites registries with regex.replace
    rewrite = r"""regex.replace('docker.io/app:1', '^docker\\.io/(.*)', r'registry.corp/\1')"""
    assert evaluate(rewrite, {}) == "registry.corp/app:1"
    assert evaluate("""regex.replace('foo bar', '(fo)o (ba)r', r'\\2 \\1')""", {}) == "ba fo"
    assert evaluate("regex.replace('aaa', 'a', 'b', 2)", {}) == "bba"
    assert evaluate(r"regex.extract('id:123', 'id:(\\d+)').value()", {}) == "123"
    assert evaluate("regex.extract('abc', 'z').hasValue()", {}) is False
    assert evaluate(r"regex.extractAll('a1b22', '\\d+')", {}) == ["1", "22"]
