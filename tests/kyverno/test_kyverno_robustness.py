"""Whatever a policy or resource holds, the engine answers with results (an ``error`` result at
worst) and never raises: generated policies of every rule shape against generated resources."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.reports import policy_reports
from ciso.engines.kyverno.structure import PolicyError

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=False, allow_infinity=False, width=16),
    st.sampled_from(
        ["", "*", "?*", "a*", "!a", ">1", "1-5", "1Gi", "5m", "x|y", "null", "{{ @ }}"]
    ),
    st.sampled_from(["{{ request.object.metadata.name }}", "{{ element.name }}", "{{ bad.[ }}"]),
)
KEYS = st.sampled_from(
    [
        "name",
        "image",
        "spec",
        "containers",
        "=(a)",
        "(b)",
        "X(c)",
        "^(d)",
        "<(e)",
        "+(f)",
        "Q(g)",
        "a",
    ]
)
VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(KEYS, children, max_size=3)
    ),
    max_leaves=12,
)
OPERATORS = st.sampled_from(
    [
        "Equals",
        "NotEquals",
        "In",
        "AnyIn",
        "AllNotIn",
        "GreaterThan",
        "DurationLessThan",
        "Bogus",
        7,
    ]
)
CONDITION = st.fixed_dictionaries({"key": VALUES, "operator": OPERATORS, "value": VALUES})
CONDITIONS = st.one_of(
    st.lists(CONDITION, max_size=2),
    st.fixed_dictionaries({"any": st.lists(CONDITION, max_size=2)}),
    st.fixed_dictionaries({"all": st.lists(CONDITION, max_size=2)}),
)
LISTS = st.sampled_from(
    ["request.object.spec.containers", "request.object.spec", "bad.[", '`[1, null, "x"]`', ""]
)
ENTRY = st.one_of(
    st.fixed_dictionaries(
        {"list": LISTS, "deny": st.fixed_dictionaries({"conditions": CONDITIONS})}
    ),
    st.fixed_dictionaries(
        {"list": LISTS, "pattern": VALUES}, optional={"preconditions": CONDITIONS}
    ),
    st.fixed_dictionaries(
        {"list": LISTS, "patchStrategicMerge": st.dictionaries(KEYS, VALUES, max_size=3)}
    ),
    st.fixed_dictionaries({"list": VALUES}),
)
FOREACH = st.lists(ENTRY, max_size=2)
VALIDATE = st.one_of(
    st.fixed_dictionaries({"message": SCALARS, "pattern": VALUES}),
    st.fixed_dictionaries({"anyPattern": st.lists(VALUES, max_size=3)}),
    st.fixed_dictionaries({"deny": st.fixed_dictionaries({"conditions": CONDITIONS})}),
    st.fixed_dictionaries({"foreach": FOREACH}),
    st.fixed_dictionaries(
        {
            "podSecurity": st.fixed_dictionaries(
                {"level": VALUES, "version": VALUES, "exclude": VALUES}
            )
        }
    ),
    st.dictionaries(KEYS, VALUES, max_size=2),
)
MUTATE = st.one_of(
    st.fixed_dictionaries({"patchStrategicMerge": st.dictionaries(KEYS, VALUES, max_size=3)}),
    st.fixed_dictionaries(
        {
            "patchesJson6902": st.one_of(
                VALUES,
                st.sampled_from(
                    [
                        "- op: add\n  path: /x/-1\n  value: 1",
                        "[",
                        "- op: move\n  from: /nope\n  path: /a",
                    ]
                ),
            )
        }
    ),
    st.fixed_dictionaries({"foreach": FOREACH}),
)
GENERATE = st.fixed_dictionaries(
    {"kind": SCALARS, "name": SCALARS},
    optional={"data": VALUES, "clone": VALUES, "cloneList": VALUES},
)
MATCH = st.one_of(
    st.just({"any": [{"resources": {"kinds": ["Pod"]}}]}),
    st.just({"resources": {"kinds": ["*"]}}),
    st.fixed_dictionaries(
        {
            "all": st.lists(
                st.fixed_dictionaries(
                    {
                        "resources": st.fixed_dictionaries(
                            {"kinds": st.just(["*"])},
                            optional={"names": st.lists(SCALARS, max_size=2), "selector": VALUES},
                        )
                    }
                ),
                min_size=1,
                max_size=2,
            )
        }
    ),
)
COMMON = {
    "name": st.sampled_from(["r", "s", "t"]),
    "match": MATCH,
}
OPTIONAL = {
    "exclude": MATCH,
    "preconditions": CONDITIONS,
    "context": st.lists(
        st.one_of(
            st.fixed_dictionaries({"name": SCALARS, "variable": VALUES}),
            st.fixed_dictionaries({"name": st.just("cm"), "configMap": VALUES}),
            st.fixed_dictionaries({"name": st.just("api"), "apiCall": VALUES}),
        ),
        max_size=2,
    ),
}
RULE = st.one_of(
    st.fixed_dictionaries({**COMMON, "validate": VALIDATE}, optional=OPTIONAL),
    st.fixed_dictionaries({**COMMON, "mutate": MUTATE}, optional=OPTIONAL),
    st.fixed_dictionaries({**COMMON, "generate": GENERATE}, optional=OPTIONAL),
    # shapes Kyverno would refuse
    st.dictionaries(
        st.sampled_from(["name", "match", "validate", "mutate", "exclude"]), VALUES, max_size=4
    ),
)
POLICY = st.fixed_dictionaries(
    {
        "apiVersion": st.just("kyverno.io/v1"),
        "kind": st.sampled_from(["ClusterPolicy", "Policy"]),
        "metadata": st.fixed_dictionaries({"name": st.just("p"), "namespace": st.just("d")}),
        "spec": st.fixed_dictionaries({"rules": st.lists(RULE, min_size=1, max_size=3)}),
    }
)
RESOURCE = st.fixed_dictionaries(
    {
        "apiVersion": st.sampled_from(["v1", "apps/v1"]),
        "kind": st.sampled_from(["Pod", "Deployment", "ConfigMap"]),
        "metadata": st.fixed_dictionaries(
            {"name": st.just("x"), "namespace": st.just("d")},
            optional={"labels": st.dictionaries(st.sampled_from(["a", "b"]), SCALARS, max_size=2)},
        ),
    },
    optional={"spec": VALUES},
)


# the strategies are large: hypothesis warns when it prints them, which is only noise here
@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(POLICY, st.lists(RESOURCE, min_size=1, max_size=3))
def test_any_policy_on_any_resource_gives_results_not_exceptions(policy, resources):
    try:
        results = apply([policy], resources, Context(objects=resources))
    except PolicyError as exc:
        # a shape Kyverno would refuse: a clear error naming the policy (and rule), no traceback
        assert str(exc).startswith(
            ("policy p, rule", "policy d/p, rule", "policy p:", "policy d/p:")
        ), exc
        assert policy_reports([policy], resources) == []
        return
    for result in results:
        assert result.status in ("pass", "fail", "skip", "error")
        assert isinstance(result.message, str)
    policy_reports([policy], resources)
