"""What a generated RHEL 9 instance is: two host trees (files under the host's root) and its
ground truth; written as ``violating/host/...`` and ``compliant/host/...``."""

from __future__ import annotations

from dataclasses import dataclass

#: Host files: path under the host root (``etc/ssh/sshd_config``) -> text.
HostFiles = dict[str, str]


@dataclass(frozen=True)
class HostInstance:
    violating: HostFiles
    compliant: HostFiles
    violating_resources: tuple[str, ...]
    requirement: str
    notes: str
