"""The baseline reads requirements by meaning: exemptions in their many wordings, controls stated
by their effect, a field the text names beating one it only describes, what the text says of an
unset setting, and capability names in any letter case. Each sentence here is written for this
test (none is a generator's or the suite's phrasing)."""

from __future__ import annotations

import pytest
import yaml

from ciso.agents.baseline.intent import (
    SYSTEM_NAMESPACES,
    ConfigSetting,
    ContainerFieldCheck,
    FilePermissionCheck,
    Intent,
    ModuleDisabledCheck,
    PodFieldCheck,
)
from ciso.agents.baseline.parser import parse
from ciso.agents.baseline.render import render
from ciso.evaluation.kyverno_engines import select_scanner
from ciso.evaluation.kyverno_migrate import _flagged


def _intent(text: str, platform: str = "kubernetes") -> Intent:
    parsed = parse(text, platform)
    assert isinstance(parsed, Intent), parsed
    return parsed


@pytest.mark.parametrize(
    ("text", "namespaces", "builtin"),
    [
        (
            "No container may run privileged. Leave kube-system, kube-public and kube-node-lease "
            "alone.",
            set(SYSTEM_NAMESPACES),
            False,
        ),
        (
            "Pods must not share the host network. Out of scope: the system namespaces.",
            set(SYSTEM_NAMESPACES),
            False,
        ),
        (
            "No role may use a wildcard in its verbs. Built-in roles (prefix system:) are out of "
            "scope.",
            set(),
            True,
        ),
        (
            "Nothing may bind cluster-admin; this does not apply to the bindings Kubernetes ships.",
            set(),
            True,
        ),
        (
            "Pods must not use hostPath volumes, even in kube-system; kube-public is excluded.",
            {"kube-public"},
            False,
        ),
    ],
)
def test_exemptions_in_other_words(text: str, namespaces: set, builtin: bool) -> None:
    scope = _intent(text).scope
    assert set(scope.exempt_namespaces) == namespaces, text
    assert scope.exempt_builtin_rbac is builtin, text


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("Workloads must not be able to see other processes on the node.", "hostPID"),
        ("A pod must never signal or trace processes running on the host machine.", "hostPID"),
        ("No pod may reach the shared memory segments of the node.", "hostIPC"),
        (
            "A container sharing the node's IPC can read the memory of node processes: flag "
            "every pod spec with hostIPC: true.",
            "hostIPC",
        ),
        ("Pods must not use the node's network interfaces directly.", "hostNetwork"),
    ],
)
def test_host_namespaces_stated_by_their_effect(text: str, field: str) -> None:
    (check,) = _intent(text).checks
    assert isinstance(check, PodFieldCheck) and check.field == field, check


def test_privileged_stated_by_its_effect() -> None:
    (check,) = _intent("No container may get at all the host's devices.").checks
    assert isinstance(check, ContainerFieldCheck)
    assert check.path == ("securityContext", "privileged") and check.forbidden is True


@pytest.mark.parametrize(
    "text",
    [
        "Flag each container that does not set allowPrivilegeEscalation: false.",
        "Kubernetes allows privilege escalation when it is unset, so every container needs "
        "allowPrivilegeEscalation set to false.",
    ],
)
def test_privilege_escalation_unset_is_a_finding_when_the_text_says_so(text: str) -> None:
    (check,) = _intent(text).checks
    assert isinstance(check, ContainerFieldCheck)
    assert check.required is False and check.forbidden is None, check


def test_rhel_keywords_and_effects() -> None:
    (x11,) = _intent("Set X11Forwarding to no for the SSH daemon.", "rhel9").checks
    assert isinstance(x11, ConfigSetting) and x11.key == "X11Forwarding"
    (module,) = _intent(
        "Mounting of squashfs file systems must be disabled (squashfs blacklisted).", "rhel9"
    ).checks
    assert isinstance(module, ModuleDisabledCheck) and module.module == "squashfs"
    (aging,) = _intent(
        "Aging bounds how long a stolen password works: PASS_MAX_DAYS at most 90.", "rhel9"
    ).checks
    assert isinstance(aging, ConfigSetting) and aging.key == "PASS_MAX_DAYS"
    (files,) = _intent(
        "/etc/ssh/sshd_config and its *.conf drop-ins: owner root, group root, mode 0600 or "
        "tighter.",
        "rhel9",
    ).checks
    assert isinstance(files, FilePermissionCheck)
    assert files.globs == ("/etc/ssh/sshd_config.d/*.conf",)


@pytest.mark.parametrize(
    ("text", "unset_complies"),
    [
        ("The host fails unless net.ipv4.ip_forward is 0 in the sysctl configuration.", False),
        ("net.ipv4.ip_forward must be 0; leaving it unset is a finding.", False),
        ("net.ipv4.ip_forward must not be 1 (unset passes: the kernel default is 0).", True),
    ],
)
def test_what_the_text_says_of_an_unset_setting(text: str, unset_complies: bool) -> None:
    (check,) = _intent(text, "rhel9").checks
    assert isinstance(check, ConfigSetting) and check.unset_complies is unset_complies


def test_rendered_kyverno_reads_capabilities_in_any_letter_case() -> None:
    intent = _intent("Every container must drop NET_RAW (or ALL) and must not add NET_RAW.")
    policy = [
        d for d in yaml.safe_load_all(render(intent, "kyverno").files["kyverno-policy.yaml"]) if d
    ]

    def pod(name: str, drop: list[str], add: list[str]) -> dict:
        capabilities = {"drop": drop, "add": add}
        container = {"name": "c", "image": "x", "securityContext": {"capabilities": capabilities}}
        return {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": name, "namespace": "shop"},
            "spec": {"containers": [container]},
        }

    objects = [
        pod("lower-drop", ["net_raw"], []),
        pod("lower-all", ["all"], []),
        pod("no-drop", [], []),
        pod("lower-add", ["ALL"], ["net_raw"]),
    ]
    failed = {r.name for r in _flagged(select_scanner("itbench"), policy, objects)}
    assert failed == {"no-drop", "lower-add"}
