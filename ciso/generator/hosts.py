"""What a generated RHEL 9 instance is: two host trees (files under the host's root, with their
modes and owners where the control reads them) and its ground truth; written as
``violating/host/...`` and ``compliant/host/...`` (attributes in ``host-attributes.yaml``)."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Host files: path under the host root (``etc/ssh/sshd_config``) -> text.
HostFiles = dict[str, str]


@dataclass(frozen=True)
class FileAttributes:
    """A host file's mode and owners, as ``host-attributes.yaml`` states them."""

    mode: int
    owner: str = "root"
    group: str = "root"

    def octal(self) -> str:
        return f"{self.mode:04o}"


#: Path under the host root -> its attributes (a file not listed keeps what the writer gave it).
HostAttributes = dict[str, FileAttributes]


@dataclass(frozen=True)
class HostInstance:
    violating: HostFiles
    compliant: HostFiles
    violating_resources: tuple[str, ...]
    requirement: str
    notes: str
    violating_attributes: HostAttributes = field(default_factory=dict)
    compliant_attributes: HostAttributes = field(default_factory=dict)
