"""The CEL cost estimate and deadline: honest about what the input actually holds (a policy the
corpus runs with three nested comprehensions over a Pod is evaluated), still refusing a hostile
nesting before it runs, and stopping a slow expression at the time limit."""

from __future__ import annotations

import time

import pytest

from ciso.engines.kyverno.cel import limits
from ciso.engines.kyverno.cel.program import CelError, evaluate
from ciso.engines.kyverno.cel.syntax import cost_shape

#: the shape of other-mpol/remove-hostpath-volumes: containers x their mounts x hostPath volumes
REMOVE_HOSTPATH_MOUNTS = """
[JSONPatch{op: "replace", path: "/spec/volumes",
           value: object.spec.volumes.filter(v, !has(v.hostPath))}] +
object.spec.containers.map(c,
  has(c.volumeMounts) ?
    JSONPatch{op: "replace",
              path: "/spec/containers/" + string(object.spec.containers.indexOf(c)) + "/volumeMounts",
              value: c.volumeMounts.filter(vm, !variables.hostpath.exists(h, h == vm.name))}
  : JSONPatch{op: "test", path: "/", value: null}
).filter(p, p.op != "test")
"""


def _pod(containers: int, mounts: int) -> dict:
    volumes = [{"name": f"v{i}", "hostPath": {"path": "/x"}} for i in range(mounts)]
    return {
        "spec": {
            "volumes": [*volumes, {"name": "data", "emptyDir": {}}],
            "containers": [
                {
                    "name": f"c{n}",
                    "volumeMounts": [{"name": v["name"]} for v in volumes] + [{"name": "data"}],
                }
                for n in range(containers)
            ],
        }
    }


def test_cost_shape_counts_literals_and_list_concatenations():
    shape = cost_shape('[1, 2, 3] + [4, [5, 6]] + {"a": 1}.map(k, k)')
    # 3 + 2 + the nested 2 + 1: every literal element, nested ones again (an overestimate)
    assert (shape.depth, shape.literal_elements, shape.concatenations) == (1, 8, 2)
    # '+' beside a string literal or string(...) joins strings, not lists
    assert cost_shape('"a" + string(1) + "b"').concatenations == 0
    assert cost_shape("x.split(',').all(p, p != '')").reads_strings_as_lists is True
    assert cost_shape("x.all(p, p != '')").reads_strings_as_lists is False


def test_three_nested_comprehensions_over_a_pod_are_evaluated():
    pod = _pod(containers=3, mounts=4)
    bindings = {"object": pod, "variables": {"hostpath": [f"v{i}" for i in range(4)]}}
    patches = evaluate(REMOVE_HOSTPATH_MOUNTS, bindings)
    assert [p["path"] for p in patches] == [
        "/spec/volumes",
        "/spec/containers/0/volumeMounts",
        "/spec/containers/1/volumeMounts",
        "/spec/containers/2/volumeMounts",
    ]
    assert patches[1]["value"] == [{"name": "data"}]


def test_the_same_nesting_over_a_huge_pod_is_refused_before_it_runs():
    pod = _pod(containers=3, mounts=400)
    bindings = {"object": pod, "variables": {"hostpath": [f"v{i}" for i in range(400)]}}
    start = time.monotonic()
    with pytest.raises(CelError, match="exceeds the cost limit"):
        evaluate(REMOVE_HOSTPATH_MOUNTS, bindings)
    assert time.monotonic() - start < 0.5


def test_concatenating_an_input_counts_in_the_bound():
    items = {"l": list(range(400))}
    assert evaluate("l.all(a, l.all(b, a != b || true))", items) is True
    concatenated = "(l + l + l + l).all(a, (l + l + l + l).all(b, a != b || true))"
    with pytest.raises(CelError, match="exceeds the cost limit") as info:
        evaluate(concatenated, items)
    # 400 elements, six "+", so up to 7 terms: 2800 per level
    assert "over up to 2800 elements" in str(info.value)


def test_a_string_split_into_a_list_counts_its_length():
    text = {"s": "x" * 3000}
    with pytest.raises(CelError, match="3000 elements"):
        evaluate("s.split('').all(a, s.split('').all(b, a == b))", text)
    # without a split the string is a scalar: a small map is all there is to range over
    assert evaluate("[s].all(a, [s].all(b, a == b))", text) is True


def test_an_expression_under_the_cost_limit_still_stops_at_the_deadline():
    # 1400 x 1400 is under the cost limit, but every step calls a library function, which is
    # where the deadline is checked
    words = {"l": [f"w{i}" for i in range(1400)]}
    source = "l.all(a, l.all(b, a.indexOf('z') < 0))"
    assert limits.COST_LIMIT >= 1400**2
    start = time.monotonic()
    with pytest.raises(CelError, match="time limit"):
        evaluate(source, words)
    assert time.monotonic() - start < limits.TIME_LIMIT_SECONDS + 1.5
