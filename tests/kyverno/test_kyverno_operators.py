"""Each condition operator with keys and values of every JSON type, as Kyverno's operator
handlers decide them: a case that holds and one that does not per operator, and the type rules
(numbers are float64, strings may be durations, quantities, numbers or versions)."""

from __future__ import annotations

import pytest

from ciso.engines.kyverno.conditions import ConditionError, check

CASES = [
    # Equals: strings use the value as a wildcard; numbers compare with numeric strings one way
    ("Equals", "nginx:1.25", "nginx:*", True),
    ("Equals", "nginx", "busybox", False),
    ("Equals", 5, "5", True),
    ("Equals", "5", 5, False),  # a string key needs a string value
    ("Equals", "1h", "60m", True),  # durations
    ("Equals", "60", "1m", False),  # "60" is no duration and no match
    ("Equals", "1m", 60, True),  # a number next to a duration string is seconds
    ("Equals", 60, "1m", False),  # but a number key only reads the value as a number
    ("Equals", "1Gi", "1024Mi", True),  # quantities
    ("Equals", "1Gi", "lots", False),  # a quantity key and a non-quantity value
    ("Equals", True, True, True),
    ("Equals", True, "true", False),
    ("Equals", {"a": [1]}, {"a": [1.0]}, True),
    ("Equals", ["a"], "a", False),
    ("Equals", None, None, False),  # a null key never equals
    # NotEquals is not simply the negation
    ("NotEquals", "a", "b", True),
    ("NotEquals", "abc", "a*", False),
    ("NotEquals", "5", 5, True),
    ("NotEquals", None, "x", False),
    ("NotEquals", 1, "1.0", False),
    # In / NotIn: one key
    ("In", "b", ["a", "b"], True),
    ("In", "c", ["a", "b"], False),
    ("In", "web-1", ["web-*"], True),
    ("In", "x", '["x", "y"]', True),
    ("In", "x", "x,y", False),  # not JSON, not a wildcard match: refused
    ("In", 5, ["5"], True),
    ("NotIn", "c", ["a", "b"], True),
    ("NotIn", "a", ["a", "b"], False),
    ("NotIn", None, ["a"], False),
    # In / NotIn: a list key is a set that must be (not) contained, exactly
    ("In", ["a", "b"], ["a", "b", "c"], True),
    ("In", ["a", "z"], ["a", "b"], False),
    ("NotIn", ["a", "z"], ["a", "b"], True),
    ("NotIn", ["a"], ["a", "b"], False),
    # AnyIn / AllIn / AnyNotIn / AllNotIn
    ("AnyIn", ["x", "b"], ["a", "b"], True),
    ("AnyIn", ["x", "y"], ["a", "b"], False),
    ("AnyIn", ["*"], ["rbac.authorization.k8s.io"], True),
    ("AnyIn", [8080], "8000-9000", True),  # a range
    ("AnyIn", "admin", "admin", True),
    ("AllIn", ["a", "b"], ["a", "b", "c"], True),
    ("AllIn", ["x", "b"], ["a", "b"], False),
    ("AllIn", [1, 2], "1-5", True),
    ("AnyNotIn", ["a", "x"], ["a"], True),
    ("AnyNotIn", ["a"], ["a", "b"], False),
    ("AnyNotIn", [5555], "5000-6000", False),
    ("AnyNotIn", [7000], "5000-6000", True),
    ("AllNotIn", ["x", "y"], ["a"], True),
    ("AllNotIn", ["x", "a"], ["a"], False),
    ("AllNotIn", [1], 1, False),  # AllNotIn refuses a number value
    ("AnyNotIn", [1], 2, True),  # AnyNotIn takes it
    # ordering: numbers, durations, quantities, numeric strings, versions
    ("GreaterThan", 3, 2, True),
    ("GreaterThan", 2, 3, False),
    ("GreaterThan", "2Gi", "1Gi", True),
    ("GreaterThan", "500m", "1", False),
    ("LessThan", "1m", "90s", True),
    ("LessThan", 30, "1m", True),  # 30 seconds
    ("LessThan", "1.10.0", "1.9.0", False),  # semantic versions, not numbers
    ("GreaterThan", "1.10.0", "1.9.0", True),
    ("GreaterThanOrEquals", "3", 3, True),
    ("GreaterThanOrEquals", "2", 3, False),
    ("LessThanOrEquals", 3, 3, True),
    ("LessThanOrEquals", "4Ki", "4000", False),
    ("GreaterThan", True, 0, False),
    ("GreaterThan", "abc", "abd", False),
    # deprecated Duration* operators: numbers are seconds
    ("DurationGreaterThan", "2h", "90m", True),
    ("DurationGreaterThan", "1h", 7200, False),
    ("DurationLessThanOrEquals", 60, "1m", True),
    ("DurationLessThanOrEquals", 61, "1m", False),
    ("DurationLessThan", "soon", "1h", False),
    ("DurationLessThan", "30m", "1h", True),
    ("DurationGreaterThanOrEquals", "1h", "60m", True),
    ("DurationGreaterThanOrEquals", "1s", 2, False),
    # operator names are case-insensitive
    ("anyin", ["a"], ["a"], True),
]


@pytest.mark.parametrize(("operator", "key", "value", "holds"), CASES)
def test_operator(operator, key, value, holds):
    assert check(operator, key, value) is holds


def test_every_operator_has_a_case_that_holds_and_one_that_does_not():
    from ciso.engines.kyverno.conditions.operators import OPERATORS

    covered = {}
    for operator, _key, _value, holds in CASES:
        covered.setdefault(operator.lower(), set()).add(holds)
    # Equal and NotEqual are aliases of Equals and NotEquals
    for name in set(OPERATORS) - {"equal", "notequal"}:
        assert covered.get(name) == {True, False}, name


def test_in_with_a_list_key_of_non_strings_is_an_error():
    with pytest.raises(ConditionError, match="list of strings"):
        check("In", [1, 2], ["1"])


PATTERN_LEAVES = [
    ("nginx:1.25", "nginx:*", True),
    ("nginx", "!ngi*", False),
    ("5", 5, True),  # a numeric string against a number leaf
    (5, "5", True),  # a number against a quantity-like string
    (8080, "*0", False),  # numbers print as 8.08E+03 for wildcards, as Kyverno does
    (8080, "?*", True),
    (90, ">1m", True),  # "1m" reads as a quantity (0.001) before any number
    ("90s", ">1m", True),  # both durations
    ("1.5Gi", "1Gi-2Gi", True),
    ("3Gi", "1Gi!-2Gi", True),
    ("1500m", "1-2", True),
    (None, "0", True),  # null compares as "0"
    (None, "*", False),
    ({"a": 1}, "*", False),
    ({"a": 1}, {}, True),
    (0, None, True),
    ("x", None, False),
    (True, "true", True),
    (False, True, False),
    ("a", "b | a", True),
    (7, ">5 & <10", True),
    (12, ">5 & <10", False),
]


@pytest.mark.parametrize(("value", "pattern", "holds"), PATTERN_LEAVES)
def test_pattern_leaf(value, pattern, holds):
    from ciso.engines.kyverno.pattern.values import value_matches

    assert value_matches(value, pattern) is holds


# -- anchors within one map, in Kyverno's order ------------------------------------------------------


@pytest.mark.parametrize(
    ("resource", "pattern", "outcome"),
    [
        # a failed condition makes a sibling equality failure irrelevant, whatever the key order
        ({"a": 1, "b": 2}, {"=(b)": 3, "(a)": 2, "c": "x"}, "skip"),
        ({"a": 1, "b": 2}, {"(a)": 2, "=(b)": 3}, "skip"),
        # with the condition met, the equality failure stands
        ({"a": 2, "b": 2}, {"=(b)": 3, "(a)": 2}, "fail"),
        # any failure under a conditional anchor is a skip, not a fail
        ({"spec": {"x": {"y": 1}}}, {"spec": {"(x)": {"y": 2}, "z": 1}}, "skip"),
        # a global anchor that fails skips the whole rule
        ({"kind": "Pod", "spec": {"x": 1}}, {"<(kind)": "Deployment", "spec": {"x": 2}}, "skip"),
        # negation fails when the key is present
        ({"spec": {"secret": 1}}, {"spec": {"X(secret)": "null"}}, "fail"),
        # existence: one element of the list must match each pattern map
        ({"c": [{"n": "a"}, {"n": "b"}]}, {"^(c)": [{"n": "b"}]}, "pass"),
    ],
)
def test_anchor_order_and_skips(resource, pattern, outcome):
    from ciso.engines.kyverno.pattern.check import Mismatch, validate

    try:
        validate(resource, pattern)
    except Mismatch as exc:
        assert ("skip" if exc.skip else "fail") == outcome, exc
        return
    assert outcome == "pass"
