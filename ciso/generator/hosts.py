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


def judged_instance(
    control: str,
    judged_right: bool,
    violating: HostFiles,
    compliant: HostFiles,
    resource: str,
    requirement: str,
    hidden: str,
    kept: list[str],
    violating_attributes: HostAttributes | None = None,
    compliant_attributes: HostAttributes | None = None,
) -> HostInstance:
    """The instance, once the generator's self-check held: the control's own reading of the two
    hosts (``judged_right``: the violating one violates, the compliant one does not) must mean
    what the hiding places and near-misses say. ``control`` names it in the error."""
    if not judged_right:
        raise AssertionError(f"CIS {control}: generated hosts misjudged")
    return HostInstance(
        violating=violating,
        compliant=compliant,
        violating_resources=(resource,),
        requirement=requirement,
        notes=f"Violating host: {hidden}. Compliant host: " + "; ".join(kept) + ".",
        violating_attributes=violating_attributes or {},
        compliant_attributes=compliant_attributes or {},
    )
