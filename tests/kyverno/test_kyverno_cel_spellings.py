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
            assert evaluate(expression, {}) is None
        assert made == [
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "ns"}}
        ]
