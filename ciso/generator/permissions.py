"""Instances of the file-permission controls of RHEL 9 (5.2.1 sshd's configuration, 6.1.5 the
shadow files, 5.1.8 cron.allow): host trees whose files carry modes and owners (written to
``host-attributes.yaml``), judged as the built-in policies judge them: every checked file owned by
root:root with no permission bit outside the control's limit (0600 or 0640: no execute bit,
nothing more for group or other, no setuid, setgid or sticky bit); a required file that is absent
violates.

A naive check reads only the main file (``/etc/ssh/sshd_config``, ``/etc/shadow``,
``/etc/cron.allow``), compares the mode's last three digits as a number with the limit and the
owner alone; an absent file complies. The violating host hides the violation from it: in a drop-in
or a backup file, in a mode whose owner digit is lower but whose group or other digit is too open
(0440 under 0600, 0604 under 0640), in a setuid/setgid/sticky bit, in a group that is not root
with the owner right, or (cron.allow) in the required file being absent beside look-alikes. The
compliant host holds the stricter modes (0400, 0000, 0440 under 0640), the limit itself, files the
control does not judge (``.conf.disabled``, ``.rpmnew``, ``cron.deny``, the client's
``ssh_config``) with loose modes and other owners, and the violations of the family's other
controls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random

from ciso.generator.hosts import (
    FileAttributes,
    HostAttributes,
    HostFiles,
    HostInstance,
    judged_instance,
)

#: Groups present on RHEL 9 and Debian alike (the evaluator applies them by name).
_OTHER_GROUPS = ("adm", "sys", "bin", "daemon")
_OTHER_OWNERS = ("daemon", "bin", "nobody")
_SPECIAL = ((0o4000, "setuid"), (0o2000, "setgid"), (0o1000, "sticky"))

#: A host tree a layout proposes: the files the control judges (the main one first) and files
#: it does not judge, each with its text.
Layout = tuple[HostFiles, HostFiles]


@dataclass(frozen=True)
class PermissionsControl:
    cis_id: str
    builtin_id: str
    resource: str
    #: The loosest mode that complies (its bits are the ones allowed).
    limit: int
    #: The file a naive check reads (a key of the layout's judged files).
    main: str
    #: Whether the control judges a host path.
    judged: Callable[[str], bool]
    #: Files that must exist (an absent one violates).
    required: tuple[str, ...]
    layout: Callable[[Random], Layout]
    phrasings: tuple[str, ...]

    def allows(self, attributes: FileAttributes) -> bool:
        owners = attributes.owner == "root" and attributes.group == "root"
        return owners and attributes.mode & ~self.limit == 0

    def violates(self, files: HostFiles, attributes: HostAttributes) -> bool:
        if any(path not in files for path in self.required):
            return True
        return any(self.judged(p) and not self.allows(attributes[p]) for p in files)


def _allowed_modes(limit: int) -> list[int]:
    """Modes within the limit, the limit itself first (0600: 0600, 0400, 0000...)."""
    modes = [limit, 0o400, 0o000, 0o600, 0o640, 0o440, 0o040]
    return list(dict.fromkeys(m for m in modes if m & ~limit == 0))


def _sneaky_modes(limit: int) -> list[int]:
    """Modes a last-three-digits comparison with the limit lets through that the limit does
    not allow: the owner digit lower, a group or other bit (or owner execute) too many."""
    candidates = (0o440, 0o404, 0o402, 0o420, 0o500, 0o444, 0o604, 0o602, 0o620, 0o610, 0o540)
    return [m for m in candidates if m & ~limit and int(f"{m:o}") <= int(f"{limit:o}")]


def _hide_in_main(c: PermissionsControl, good: int, rng: Random) -> tuple[FileAttributes, str]:
    way = rng.randrange(3)
    if way == 0:
        mode = rng.choice(_sneaky_modes(c.limit))
        return FileAttributes(mode), f"mode {mode:04o} (group or other bits beyond {c.limit:04o})"
    if way == 1:
        bit, name = rng.choice(_SPECIAL)
        return FileAttributes(good | bit), f"mode {good | bit:04o} (the {name} bit)"
    group = rng.choice(_OTHER_GROUPS)
    return FileAttributes(good, "root", group), f"owner root but group {group}"


def _any_violation(c: PermissionsControl, rng: Random) -> tuple[FileAttributes, str]:
    way = rng.randrange(4)
    if way == 0:
        mode = rng.choice((0o644, 0o664, 0o666, 0o755, 0o604))
        return FileAttributes(mode), f"mode {mode:04o}"
    if way == 1:
        owner = rng.choice(_OTHER_OWNERS)
        return FileAttributes(c.limit, owner, "root"), f"owner {owner}"
    return _hide_in_main(c, c.limit, rng)


def violating_host(c: PermissionsControl, rng: Random) -> tuple[HostFiles, HostAttributes, str]:
    judged, others = c.layout(rng)
    files = {**judged, **others}
    attributes = {p: FileAttributes(rng.choice(_allowed_modes(c.limit))) for p in judged}
    attributes |= {p: FileAttributes(rng.choice((0o644, 0o600, 0o640))) for p in others}
    rest = [p for p in judged if p != c.main]
    if c.main in c.required and rng.randrange(2) == 0:
        # the required file absent: only look-alikes a naive check never opens
        del files[c.main], attributes[c.main]
        return (
            files,
            attributes,
            f"/{c.main} is absent (only " + ", ".join(f"/{p}" for p in others) + " exist)",
        )
    if rest and rng.randrange(2) == 0:
        target = rng.choice(rest)
        attributes[target], how = _any_violation(c, rng)
    else:
        target = c.main
        attributes[target], how = _hide_in_main(c, attributes[c.main].mode, rng)
    return files, attributes, f"/{target} has {how}"


def compliant_host(
    c: PermissionsControl, others: Sequence[PermissionsControl], rng: Random
) -> tuple[HostFiles, HostAttributes, list[str]]:
    judged, unjudged = c.layout(rng)
    modes = _allowed_modes(c.limit)
    attributes = {p: FileAttributes(modes[i % len(modes)]) for i, p in enumerate(judged)}
    kept = [f"judged files at {', '.join(sorted({a.octal() for a in attributes.values()}))}"]
    for path in unjudged:
        loose = FileAttributes(
            rng.choice((0o644, 0o666, 0o755)), rng.choice(("root", *_OTHER_OWNERS)), "root"
        )
        attributes[path] = loose
        kept.append(f"/{path} (not judged) at {loose.octal()} owned by {loose.owner}")
    files = {**judged, **unjudged}
    for other in others:
        theirs, their_attributes, how = violating_host(other, rng)
        files |= theirs
        attributes |= their_attributes
        kept.append(f"CIS {other.cis_id}'s violation: {how}")
    return files, attributes, kept


def build_permissions_instance(
    c: PermissionsControl, others: Sequence[PermissionsControl], rng: Random
) -> HostInstance:
    violating, violating_attributes, hidden = violating_host(c, rng)
    compliant, compliant_attributes, kept = compliant_host(c, others, rng)
    return judged_instance(
        f"{c.cis_id} (permissions)",
        c.violates(violating, violating_attributes)
        and not c.violates(compliant, compliant_attributes),
        violating,
        compliant,
        c.resource,
        rng.choice(c.phrasings),
        hidden,
        kept,
        violating_attributes,
        compliant_attributes,
    )
