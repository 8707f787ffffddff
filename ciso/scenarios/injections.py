"""How ITBench's live bundles make their environment violate a requirement, written down as data.

The public bundles do not all ship their environment: the kubectl-opa bundle has only
``info.json`` and the RHEL bundle no host tree (the originals inject the violation with Ansible
against a live cluster or host). Each :class:`Injection` records one bundle's fault injection
(from the bundle's documentation: ``nginx-deployment`` with ``hostNetwork: true`` deployed into
namespace ``paa``; ``X11Forwarding yes`` in ``/etc/ssh/sshd_config``) and the one change that
makes the environment compliant, so both environments can be rebuilt offline. Matching is by the
bundle's requirement text, which is what identifies the control (one catalogue calls 5.2.5
"5.2.6").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ciso.scenarios.model import Platform


@dataclass(frozen=True)
class Injection:
    #: The bundle's requirement, normalised (see :func:`normalise_goal`).
    goal: str
    platform: Platform
    #: What the original injects, in one sentence (recorded in the scenario's metadata).
    description: str
    #: ``Kind/namespace/name`` of the injected objects (RHEL: ``<config>//<setting>``).
    violating_resources: tuple[str, ...]
    #: kubernetes: the namespace the bundle deploys into (its manifests carry none).
    namespace: str | None = None
    #: kubernetes: the injected object, used when the bundle ships no ``manifests/``.
    injected: Mapping[str, Any] | None = None
    #: kubernetes: field path -> value that makes the injected object compliant.
    remedy: tuple[tuple[tuple[str, ...], Any], ...] = ()
    #: rhel9: absolute path -> (violating text, compliant text).
    host_files: Mapping[str, tuple[str, str]] = field(default_factory=dict)


def normalise_goal(goal: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9 ]", " ", goal.lower()).split())


_NGINX_HOST_NETWORK: Mapping[str, Any] = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "nginx-deployment"},
    "spec": {
        "selector": {"matchLabels": {"app": "nginx"}},
        "replicas": 1,
        "template": {
            "metadata": {"labels": {"app": "nginx"}},
            "spec": {
                "hostPID": False,
                "hostIPC": False,
                "hostNetwork": True,
                "containers": [
                    {"name": "nginx", "image": "nginx:1.14.2", "ports": [{"containerPort": 80}]}
                ],
            },
        },
    },
}

_SSHD_CONFIG = """\
# RHEL 9 sshd_config as shipped, with the setting under test set explicitly
Include /etc/ssh/sshd_config.d/*.conf
PermitRootLogin no
AuthorizedKeysFile .ssh/authorized_keys
PasswordAuthentication yes
ChallengeResponseAuthentication no
UsePAM yes
X11Forwarding {x11}
PrintMotd no
Subsystem sftp /usr/libexec/openssh/sftp-server
"""

INJECTIONS: tuple[Injection, ...] = (
    Injection(
        goal=normalise_goal(
            "Minimize the admission of containers wishing to share the host network namespace"
        ),
        platform=Platform.KUBERNETES,
        description=(
            "Deployment nginx-deployment with hostNetwork: true deployed into namespace paa; "
            "compliant: the same Deployment with hostNetwork: false"
        ),
        violating_resources=("Deployment/paa/nginx-deployment",),
        namespace="paa",
        injected=_NGINX_HOST_NETWORK,
        remedy=((("spec", "template", "spec", "hostNetwork"), False),),
    ),
    Injection(
        goal=normalise_goal("Ensure SSH X11 forwarding is disabled"),
        platform=Platform.RHEL9,
        description=("X11Forwarding yes in /etc/ssh/sshd_config; compliant: X11Forwarding no"),
        violating_resources=("sshd//X11Forwarding",),
        host_files={
            "/etc/ssh/sshd_config": (
                _SSHD_CONFIG.format(x11="yes"),
                _SSHD_CONFIG.format(x11="no"),
            )
        },
    ),
)


def find_injection(goal: str, platform: Platform) -> Injection | None:
    wanted = normalise_goal(goal)
    for injection in INJECTIONS:
        if injection.platform is platform and injection.goal == wanted:
            return injection
    return None
