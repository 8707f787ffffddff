"""Reading untrusted YAML: aliases refused, nesting bounded before the parser can overflow."""

from __future__ import annotations

import pytest
import yaml

from itbench.yamlsafe import MAX_NESTING, load_all, nesting_bound


@pytest.mark.parametrize(
    ("text", "documents"),
    [
        ("a: 1\n---\nb: [1, {c: 2}]\n", [{"a": 1}, {"b": [1, {"c": 2}]}]),
        ("k: '[[[[[['\n", [{"k": "[[[[[["}]),  # brackets inside quotes do not nest
    ],
)
def test_ordinary_yaml_loads(text, documents):
    assert load_all(text) == documents


@pytest.mark.parametrize(
    "text",
    [
        "x: " + "[" * 200_000 + "]" * 200_000,
        "x: " + "{a: " * 5_000 + "1" + "}" * 5_000,
        "".join(" " * i + "- \n" for i in range(MAX_NESTING + 5)),
        "a: &a [1]\nb: [*a, *a]\n",
    ],
    ids=["flow-lists", "flow-maps", "block", "alias"],
)
def test_hostile_yaml_is_a_yaml_error(text):
    with pytest.raises(yaml.YAMLError):
        load_all(text)


def test_nesting_bound_is_an_upper_bound():
    text = "a:\n  b:\n    - [1, [2]]\n"
    assert nesting_bound(text) >= 4
    assert nesting_bound("x: '" + "[" * 5000 + "'\n") < MAX_NESTING
