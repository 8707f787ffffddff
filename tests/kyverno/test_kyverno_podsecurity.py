"""validate.podSecurity: each Pod Security Standards check with a pod it allows and one it
forbids, version selection, exclusions by control, image, field and value, and the rule as the
engine runs it (controllers, CronJobs, errors)."""

from __future__ import annotations

import copy

import pytest

from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.podsecurity import check_pod
from ciso.engines.kyverno.podsecurity.checks import evaluate

RESTRICTED_OK = {
    "securityContext": {"runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}},
    "containers": [
        {
            "name": "app",
            "image": "nginx",
            "securityContext": {
                "allowPrivilegeEscalation": False,
                "capabilities": {"drop": ["ALL"]},
            },
        }
    ],
}


def _with(change) -> dict:
    spec = copy.deepcopy(RESTRICTED_OK)
    change(spec)
    return spec


def _container(spec) -> dict:
    return spec["containers"][0]


def _ctx(spec) -> dict:
    return _container(spec)["securityContext"]


# (check id, how the pod breaks it, field of the first field error, its bad value)
BREAKS = [
    ("hostNamespaces", lambda s: s.update(hostNetwork=True), "spec.hostNetwork", True),
    (
        "privileged",
        lambda s: _ctx(s).update(privileged=True),
        "spec.containers[0].securityContext.privileged",
        True,
    ),
    (
        "capabilities_baseline",
        lambda s: _ctx(s)["capabilities"].update(add=["NET_ADMIN", "CHOWN"]),
        "spec.containers[0].securityContext.capabilities.add",
        ["NET_ADMIN"],
    ),
    (
        "hostPathVolumes",
        lambda s: s.update(volumes=[{"name": "h", "hostPath": {"path": "/etc"}}]),
        "spec.volumes[0].hostPath",
        "/etc",
    ),
    (
        "hostPorts",
        lambda s: _container(s).update(ports=[{"containerPort": 80, "hostPort": 8080}]),
        "spec.containers[0].ports[0].hostPort",
        8080,
    ),
    (
        "appArmorProfile",
        lambda s: _ctx(s).update(appArmorProfile={"type": "Unconfined"}),
        "spec.containers[0].securityContext.appArmorProfile.type",
        "Unconfined",
    ),
    (
        "seLinuxOptions",
        lambda s: s["securityContext"].update(seLinuxOptions={"type": "spc_t"}),
        "spec.securityContext.seLinuxOptions.type",
        "spc_t",
    ),
    (
        "procMount",
        lambda s: _ctx(s).update(procMount="Unmasked"),
        "spec.containers[0].securityContext.procMount",
        "Unmasked",
    ),
    (
        "seccompProfile_baseline",
        lambda s: s["securityContext"].update(seccompProfile={"type": "Unconfined"}),
        "spec.securityContext.seccompProfile.type",
        "Unconfined",
    ),
    (
        "sysctls",
        lambda s: s["securityContext"].update(sysctls=[{"name": "kernel.msgmax", "value": "1"}]),
        "spec.securityContext.sysctls[0].name",
        "kernel.msgmax",
    ),
    (
        "windowsHostProcess",
        lambda s: _ctx(s).update(windowsOptions={"hostProcess": True}),
        "spec.containers[0].securityContext.windowsOptions.hostProcess",
        True,
    ),
    (
        "hostProbesAndHostLifecycle",
        lambda s: _container(s).update(livenessProbe={"httpGet": {"host": "10.0.0.1", "port": 80}}),
        None,
        None,
    ),
    (
        "allowPrivilegeEscalation",
        lambda s: _ctx(s).pop("allowPrivilegeEscalation"),
        "spec.containers[0].securityContext.allowPrivilegeEscalation",
        "nil",
    ),
    (
        "capabilities_restricted",
        lambda s: _ctx(s)["capabilities"].update(drop=["NET_RAW"]),
        "spec.containers[0].securityContext.capabilities.drop",
        ["NET_RAW"],
    ),
    (
        "restrictedVolumes",
        lambda s: s.update(volumes=[{"name": "n", "nfs": {"server": "x"}}]),
        "spec.volumes[0].nfs",
        "",
    ),
    (
        "runAsNonRoot",
        lambda s: s["securityContext"].update(runAsNonRoot=False),
        "spec.securityContext.runAsNonRoot",
        False,
    ),
    (
        "runAsUser",
        lambda s: _ctx(s).update(runAsUser=0),
        "spec.containers[0].securityContext.runAsUser",
        0,
    ),
    (
        "seccompProfile_restricted",
        lambda s: s["securityContext"].pop("seccompProfile"),
        "spec.containers[0].securityContext.seccompProfile.type",
        "",
    ),
]


def test_the_restricted_pod_passes_every_check():
    assert evaluate("restricted", 10_000, {}, RESTRICTED_OK) == []


@pytest.mark.parametrize(("check", "change", "field", "bad"), BREAKS, ids=[b[0] for b in BREAKS])
def test_each_check_forbids_its_field(check, change, field, bad):
    found = {v.check: v for v in evaluate("restricted", 10_000, {}, _with(change))}
    assert check in found, found
    if field is not None:
        first = found[check].errors[0]
        assert (first.field, first.bad_value) == (field, bad)


def test_baseline_level_skips_restricted_checks():
    spec = _with(lambda s: _ctx(s).pop("allowPrivilegeEscalation"))
    assert evaluate("baseline", 10_000, {}, spec) == []


@pytest.mark.parametrize(
    ("minor", "allowed"),
    [(26, False), (27, True)],  # net.ipv4.ip_local_reserved_ports became safe in 1.27
)
def test_versions_select_the_check_version(minor, allowed):
    spec = _with(
        lambda s: s["securityContext"].update(
            sysctls=[{"name": "net.ipv4.ip_local_reserved_ports"}]
        )
    )
    assert (evaluate("baseline", minor, {}, spec) == []) is allowed


def test_windows_pods_skip_linux_only_restricted_checks():
    spec = _with(
        lambda s: (_ctx(s).pop("allowPrivilegeEscalation"), s.update(os={"name": "windows"}))
    )
    assert evaluate("restricted", 25, {}, spec) == []
    assert [v.check for v in evaluate("restricted", 24, {}, spec)] == ["allowPrivilegeEscalation"]


TWO_CONTAINERS = _with(
    lambda s: s["containers"].append(
        {
            "name": "sidecar",
            "image": "istio/proxy:1",
            "securityContext": {
                "allowPrivilegeEscalation": False,
                "capabilities": {"drop": ["ALL"], "add": ["NET_ADMIN", "NET_RAW"]},
            },
        }
    )
)


@pytest.mark.parametrize(
    ("exclusion", "allowed"),
    [
        ({"controlName": "Capabilities", "images": ["istio/*"]}, True),
        ({"controlName": "Capabilities", "images": ["nginx"]}, False),
        (
            {
                "controlName": "Capabilities",
                "images": ["istio/*"],
                "restrictedField": "spec.containers[*].securityContext.capabilities.add",
                "values": ["NET_ADMIN", "NET_RAW"],
            },
            True,
        ),
        (
            {
                "controlName": "Capabilities",
                "images": ["istio/*"],
                "restrictedField": "spec.containers[*].securityContext.capabilities.add",
                "values": ["NET_ADMIN"],  # NET_RAW is not covered
            },
            False,
        ),
        # container-level controls cannot be exempted without images
        ({"controlName": "Capabilities"}, False),
        ({"controlName": "Host Namespaces"}, False),
    ],
)
def test_exclusions(exclusion, allowed):
    assert (check_pod("restricted", 10_000, [exclusion], {}, TWO_CONTAINERS) == []) is allowed


def test_pod_level_exclusion_by_field_and_value():
    spec = _with(lambda s: s.update(hostNetwork=True, hostPID=True))
    network_only = {
        "controlName": "Host Namespaces",
        "restrictedField": "spec.hostNetwork",
        "values": ["true"],
    }
    both = {"controlName": "Host Namespaces"}
    left = check_pod("baseline", 10_000, [network_only], {}, spec)
    assert [(v.check, [e.field for e in v.errors]) for v in left] == [
        ("hostNamespaces", ["spec.hostPID"])
    ]
    assert check_pod("baseline", 10_000, [both], {}, spec) == []


def _policy(level="baseline", version="latest", exclude=None) -> dict:
    security = {"level": level, "version": version, **({"exclude": exclude} if exclude else {})}
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "pss"},
        "spec": {
            "rules": [
                {
                    "name": "baseline",
                    "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    "validate": {"podSecurity": security},
                }
            ]
        },
    }


def test_rule_results_on_pods_and_controllers():
    bad_spec = _with(lambda s: _ctx(s).update(privileged=True))
    resources = [
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "ok", "namespace": "d"},
            "spec": RESTRICTED_OK,
        },
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "bad", "namespace": "d"},
            "spec": bad_spec,
        },
        {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "dep", "namespace": "d"},
            "spec": {"template": {"metadata": {}, "spec": bad_spec}},
        },
        {
            "apiVersion": "batch/v1",
            "kind": "CronJob",
            "metadata": {"name": "cron", "namespace": "d"},
            "spec": {"jobTemplate": {"spec": {"template": {"spec": RESTRICTED_OK}}}},
        },
    ]
    results = {(r.rule, r.name): r for r in apply([_policy()], resources, Context())}
    assert {k: r.status for k, r in results.items()} == {
        ("baseline", "ok"): "pass",
        ("baseline", "bad"): "fail",
        ("autogen-baseline", "dep"): "fail",
        ("autogen-cronjob-baseline", "cron"): "pass",
    }
    assert 'violates PodSecurity "baseline:latest"' in results[("baseline", "bad")].message
    assert (
        "spec.template.spec.containers[0].securityContext.privileged"
        in results[("autogen-baseline", "dep")].message
    )


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        (_policy(version="1.25"), 'version must be "latest" or "v1.x"'),
        (_policy(level="strict"), "level must be privileged, baseline or restricted"),
    ],
)
def test_bad_settings_are_rule_errors(policy, message):
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p", "namespace": "d"},
        "spec": RESTRICTED_OK,
    }
    (result,) = apply([policy], [pod], Context())
    assert (
        result.status == "error"
        and message in result.message
        and "validate.podSecurity" in result.message
    )


@pytest.mark.parametrize("bad", ["x", "80", 1.5, True])
def test_a_host_port_that_is_not_an_integer_is_a_located_rule_error(bad):
    from ciso.engines.kyverno.errors import RuleError
    from ciso.engines.kyverno.podsecurity.checks import host_ports

    spec = {"containers": [{"name": "c", "image": "nginx", "ports": [{"hostPort": bad}]}]}
    with pytest.raises(RuleError, match=r"spec\.containers\[0\]\.ports\[0\]\.hostPort"):
        host_ports({}, spec)


def test_an_integer_host_port_is_still_a_violation():
    from ciso.engines.kyverno.podsecurity.checks import host_ports

    spec = {"containers": [{"name": "c", "image": "nginx", "ports": [{"hostPort": 8080}]}]}
    assert host_ports({}, spec) is not None
