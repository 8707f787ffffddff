"""Values a requirement states in words rather than as one literal (issue 32 item 6, issue 28):
a numeric range on a field the text spells beside a word that names a neighbouring setting, a
set of directory roots a path may be at or below, values by their shape (a domain and its
subdomains, a version pattern, a URL scheme, a program by name or by path) and allow-lists of
values. The requirements and objects are written for this test; every rendered class (Kyverno,
kubectl-opa Rego, opa-static Rego) is judged by the real engines and must flag exactly the
violating objects."""

from __future__ import annotations

from typing import Any

import pytest

from tests._support.ciso_baseline import (
    CLASSES,
    api_object,
    app_container,
    flagged,
    intent_of,
    names_of,
    pod_carrier,
)

# ---- a range on the field the text spells, not on the setting its words suggest ---------------

HEALTH_PORT_WINDOW = (
    "A Service port that fixes a node port (`spec.ports[*].nodePort`) must use a port from the "
    "platform block 31200 to 31249 inclusive. Ports that leave it to the cluster are fine."
)


def _service(name: str, *node_ports: int | None, **spec: Any) -> dict[str, Any]:
    ports = [
        {"port": 80 + i, **({"nodePort": p} if p is not None else {})}
        for i, p in enumerate(node_ports)
    ]
    return api_object("v1", "Service", name, spec={"ports": ports, **spec})


HEALTH_VIOLATING = [
    _service("second-port", 31200, 31250, type="NodePort"),
    _service("balancer", 30100, type="LoadBalancer"),
    _service("one-below", 31199, type="NodePort"),
]
HEALTH_COMPLIANT = [
    _service("bounds", 31200, 31249, type="NodePort"),
    _service("unpinned", None, type="NodePort"),
    _service("cluster-ip", None, type="ClusterIP"),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_range_on_the_field_spelled_beside_a_generic_word(ciso_class: str) -> None:
    objects = [*HEALTH_VIOLATING, *HEALTH_COMPLIANT]
    assert flagged(intent_of(HEALTH_PORT_WINDOW), objects, ciso_class) == names_of(HEALTH_VIOLATING)


# ---- a path field at one of the roots a text lists, or below one of them ----------------------

WORKDIR_ROOTS = (
    "Any container that chooses its working directory (`workingDir`) must use /opt/svc or "
    "/var/lib/svc, or a directory below one of them; leaving it unset is fine."
)


def _workdir(kind: str, name: str, *dirs: str | None) -> dict[str, Any]:
    containers = [
        app_container(name=f"c{i}", **({"workingDir": d} if d is not None else {}))
        for i, d in enumerate(dirs)
    ]
    return pod_carrier(kind, name, {"initContainers": containers[:1], "containers": containers[1:]})


WORKDIR_VIOLATING = [
    _workdir("Deployment", "root-dir", None, "/opt/svc", "/"),
    _workdir("CronJob", "elsewhere", None, "/tmp/svc"),
    # shares the text of /opt/svc but is not below it
    _workdir("StatefulSet", "same-prefix", "/opt/svcs", "/opt/svc"),
]
WORKDIR_COMPLIANT = [
    _workdir("Deployment", "roots", "/opt/svc", "/var/lib/svc"),
    _workdir("DaemonSet", "below", "/opt/svc/bin", "/var/lib/svc/"),
    _workdir("Job", "unset", None, None),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_path_at_or_below_one_of_the_roots_listed(ciso_class: str) -> None:
    objects = [*WORKDIR_VIOLATING, *WORKDIR_COMPLIANT]
    assert flagged(intent_of(WORKDIR_ROOTS), objects, ciso_class) == names_of(WORKDIR_VIOLATING)


# ---- a value of a shape stated in words ---------------------------------------------------------

RELEASE_LABEL = (
    "Every StatefulSet and Deployment must itself carry the label example.org/release, set to "
    "a semantic version (major.minor.patch, an optional pre-release after a hyphen). A label "
    "that only the pod template carries does not count."
)


def _labelled(kind: str, name: str, own: str | None, template: str | None = None) -> dict:
    obj = pod_carrier(kind, name, {"containers": [app_container()]})
    if own is not None:
        obj["metadata"]["labels"] = {"example.org/release": own}
    if template is not None:
        obj["spec"]["template"]["metadata"] = {"labels": {"example.org/release": template}}
    return obj


RELEASE_VIOLATING = [
    _labelled("Deployment", "two-parts", "3.1"),
    _labelled("StatefulSet", "template-only", None, "1.0.0"),
    _labelled("Deployment", "prefixed", "v1.0.0"),
    _labelled("Deployment", "word", "stable"),
]
RELEASE_COMPLIANT = [
    _labelled("Deployment", "plain", "0.4.12"),
    _labelled("StatefulSet", "pre-release", "5.0.0-alpha.3", "anything"),
    # kinds the text does not name
    _labelled("DaemonSet", "other-kind", None),
    _labelled("Job", "job-kind", "latest"),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_label_holding_a_semantic_version(ciso_class: str) -> None:
    objects = [*RELEASE_VIOLATING, *RELEASE_COMPLIANT]
    assert flagged(intent_of(RELEASE_LABEL), objects, ciso_class) == names_of(RELEASE_VIOLATING)


ROUTES_IN_DOMAIN = (
    "An Ingress may only serve our public zone: each of its rules must name a host, and the "
    "host has to be shop.example.net itself or a subdomain of it."
)


def _ingress(name: str, *hosts: str | None) -> dict[str, Any]:
    rules = [{**({"host": h} if h is not None else {}), "http": {"paths": []}} for h in hosts]
    return api_object("networking.k8s.io/v1", "Ingress", name, spec={"rules": rules})


ROUTES_VIOLATING = [
    _ingress("second-rule", "shop.example.net", "shop.example.org"),
    # ends with the text of the domain, but is not below it
    _ingress("glued", "myshop.example.net"),
    _ingress("catch-all", None),
]
ROUTES_COMPLIANT = [
    _ingress("apex", "shop.example.net"),
    _ingress("deep", "eu.api.shop.example.net", "www.shop.example.net"),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_host_in_a_domain_or_below_it(ciso_class: str) -> None:
    objects = [*ROUTES_VIOLATING, *ROUTES_COMPLIANT]
    assert flagged(intent_of(ROUTES_IN_DOMAIN), objects, ciso_class) == names_of(ROUTES_VIOLATING)


NO_PLAIN_FTP = (
    "Links kept in annotations must not use an unencrypted scheme: on Deployments and Services, "
    "and on the pod templates inside them, no annotation value may be an ftp:// link."
)


def _annotated(kind: str, name: str, own: dict[str, str], template: dict[str, str]) -> dict:
    obj = pod_carrier(kind, name, {"containers": [app_container()]})
    obj["metadata"]["annotations"] = own
    obj["spec"]["template"]["metadata"] = {"annotations": template}
    return obj


def _service_annotated(name: str, annotations: dict[str, str]) -> dict[str, Any]:
    obj = api_object("v1", "Service", name, spec={"ports": [{"port": 21}]})
    obj["metadata"]["annotations"] = annotations
    return obj


FTP_VIOLATING = [
    _annotated("Deployment", "own-link", {"docs": "ftp://files.example/a"}, {}),
    _annotated("Deployment", "template-link", {}, {"mirror": "FTP://files.example/b"}),
    _service_annotated("service-link", {"owner": "team-a", "dump": "ftp://dump.example"}),
]
FTP_COMPLIANT = [
    _annotated("Deployment", "secure", {"docs": "sftp://files.example/a"}, {"x": "https://a"}),
    # a value naming the scheme is no link
    _service_annotated("scheme-word", {"transfer/scheme": "ftp"}),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_an_annotation_value_that_is_a_url_of_a_forbidden_scheme(ciso_class: str) -> None:
    objects = [*FTP_VIOLATING, *FTP_COMPLIANT]
    assert flagged(intent_of(NO_PLAIN_FTP), objects, ciso_class) == names_of(FTP_VIOLATING)


NO_INTERPRETER_PROBES = (
    "Readiness probes that execute a command must start the checker itself: the command's "
    "first element must not be python, python3 or perl, by name or by path."
)


def _probed(kind: str, name: str, readiness: list[str] | None, startup: list[str] | None) -> dict:
    probes: dict[str, Any] = {}
    if readiness is not None:
        probes["readinessProbe"] = {"exec": {"command": readiness}}
    if startup is not None:
        probes["startupProbe"] = {"exec": {"command": startup}}
    return pod_carrier(
        kind, name, {"containers": [app_container(), app_container(name="side", **probes)]}
    )


PROBES_VIOLATING = [
    _probed("Deployment", "by-name", ["python3", "/check.py"], None),
    _probed("DaemonSet", "by-path", ["/usr/local/bin/perl", "check.pl"], None),
]
PROBES_COMPLIANT = [
    _probed("Deployment", "direct", ["/bin/check", "--ready"], None),
    # a startup probe is not judged; an argument that names an interpreter is no program
    _probed("StatefulSet", "startup", ["/bin/check"], ["python", "x.py"]),
    _probed("Deployment", "argument", ["/bin/run-with", "python"], None),
    _probed("Deployment", "longer-name", ["/usr/bin/python3.11-check"], None),
]


@pytest.mark.parametrize("ciso_class", CLASSES)
def test_a_program_named_by_name_or_by_path(ciso_class: str) -> None:
    objects = [*PROBES_VIOLATING, *PROBES_COMPLIANT]
    assert flagged(intent_of(NO_INTERPRETER_PROBES), objects, ciso_class) == names_of(
        PROBES_VIOLATING
    )
