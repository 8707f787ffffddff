"""Differential fidelity: every Rego file the project ships, plus random inputs, through both
embedded backends; any disagreement fails. (Derandomized hypothesis; the shipped policies use no
builtin regorus lacks, which the first test checks.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from ciso.engines.rego.backends.opa_golib import available as golib_available
from ciso.engines.rego.backends.regorus_backend import MISSING_BUILTINS

pytestmark = pytest.mark.skipif(
    not golib_available(), reason="needs both embedded backends (opa-golib is x86-64 Linux only)"
)

SHIPPED = sorted(p for p in (REPO / "policies").rglob("*.rego"))
POLICY_DIRS = sorted({p.parent for p in SHIPPED})


def _modules(folder: Path) -> dict[str, str]:
    return {str(p): p.read_text() for p in sorted(folder.glob("*.rego"))}


def _backends():
    from ciso.engines.rego.backends.opa_golib import OpaGolib
    from ciso.engines.rego.backends.regorus_backend import Regorus

    return OpaGolib(), Regorus()


def test_shipped_policies_avoid_builtins_regorus_lacks():
    assert SHIPPED, "the project ships Rego policies"
    for path in SHIPPED:
        text = path.read_text()
        assert not [b for b in MISSING_BUILTINS if b in text], path


@pytest.mark.parametrize("folder", POLICY_DIRS, ids=lambda p: p.name)
def test_every_test_rule_agrees(folder):
    from ciso.engines.rego.testing import run_tests

    golib, regorus = _backends()
    modules = _modules(folder)
    a, b = run_tests(golib, modules), run_tests(regorus, modules)
    assert [(c.name, c.status) for c in a.cases] == [(c.name, c.status) for c in b.cases]


container = st.fixed_dictionaries(
    {"name": st.text(alphabet="abc", min_size=1, max_size=3)},
    optional={
        "image": st.sampled_from(["nginx", "registry.io/app:1", ""]),
        "securityContext": st.fixed_dictionaries(
            {}, optional={"privileged": st.one_of(st.booleans(), st.none(), st.just("true"))}
        ),
    },
)
pod_spec = st.fixed_dictionaries(
    {"containers": st.lists(container, max_size=3)},
    optional={
        "hostNetwork": st.one_of(st.booleans(), st.none(), st.just(1)),
        "initContainers": st.lists(container, max_size=2),
    },
)
workload = st.one_of(
    st.builds(lambda spec: {"kind": "Pod", "spec": spec}, pod_spec),
    st.builds(lambda spec: {"kind": "Deployment", "spec": {"template": {"spec": spec}}}, pod_spec),
    st.builds(
        lambda spec: {
            "kind": "CronJob",
            "spec": {"jobTemplate": {"spec": {"template": {"spec": spec}}}},
        },
        pod_spec,
    ),
)
k8s_input = st.one_of(
    workload,
    st.builds(lambda items: {"kind": "List", "items": items}, st.lists(workload, max_size=4)),
)
sshd_input = st.one_of(
    st.builds(
        lambda v: {"x11_forwarding": v},
        st.sampled_from(
            [
                "X11Forwarding yes",
                "X11Forwarding no",
                "X11Forwarding not set",
                "  x11forwarding YES ",
                "",
                "PermitRootLogin yes",
            ]
        ),
    ),
    st.just({}),
    st.builds(lambda v: {"x11_forwarding": v}, st.integers()),
)


def _agree(folder: Path, value) -> None:
    golib, regorus = _backends()
    modules = {k: v for k, v in _modules(folder).items() if not k.endswith("_test.rego")}
    outcomes = []
    for backend in (golib, regorus):
        try:
            outcomes.append(("value", backend.evaluate(modules, "data.check.result", value).value))
        except Exception as exc:  # both must fail alike: an error is an outcome too
            outcomes.append(("error", type(exc).__name__))
    assert outcomes[0] == outcomes[1], (folder.name, value, outcomes)


@pytest.mark.parametrize(
    "folder", [d for d in POLICY_DIRS if "k8s" in d.name], ids=lambda p: p.name
)
@settings(derandomize=True, max_examples=60, deadline=None)
@given(value=k8s_input)
def test_k8s_policies_agree_on_random_inputs(folder, value):
    _agree(folder, value)


@pytest.mark.parametrize(
    "folder", [d for d in POLICY_DIRS if "rhel9" in d.name], ids=lambda p: p.name
)
@settings(derandomize=True, max_examples=40, deadline=None)
@given(value=sshd_input)
def test_rhel9_policies_agree_on_random_inputs(folder, value):
    _agree(folder, value)
