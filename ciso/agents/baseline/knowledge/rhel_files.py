"""RHEL 9 file presence and permissions: owner, group and the most permissive mode accepted.

"Mode 0600 or stricter" means no bit outside 0600; when several modes are accepted the union of
their bits is the limit. Drop-in globs are judged for every file present.
"""

from __future__ import annotations

import re

from ciso.agents.baseline.intent import FilePermissionCheck
from ciso.agents.baseline.knowledge import Concept, words

_MODE = re.compile(r"\b0?([0-7]{3,4})\b")
_PATH = re.compile(r"(/(?:etc|var|usr|boot|root)/[\w./*-]*[\w*-])")


def _modes(text: str) -> list[int]:
    found = []
    for m in re.finditer(r"\b(?:mode|permissions?|chmod|and|or|,)\s+(0[0-7]{3})\b", text, re.I):
        found.append(int(m.group(1), 8))
    for m in re.finditer(r"\b(0[0-7]{3})\b", text):
        found.append(int(m.group(1), 8))
    return found


#: sentences that name a file only to say it does not count ("cron.deny alone does not comply")
_DISMISSIVE = re.compile(r"\balone\b|does\s+not\s+(comply|count|suffice)|not\s+enough", re.I)


def _relevant(text: str) -> str:
    sentences = re.split(r"(?<=[.!?])\s+", text)
    return " ".join(s for s in sentences if not _DISMISSIVE.search(s))


def _build(text: str) -> FilePermissionCheck | None:
    text = _relevant(text)
    paths: list[str] = []
    globs: list[str] = []
    for raw in _PATH.findall(text):
        path = raw.rstrip(".,;:")
        if path in paths or path in globs:
            continue
        if "*" in path:
            globs.append(path)
        else:
            paths.append(path)
    # "every *.conf drop-in in /etc/ssh/sshd_config.d": a glob written before its directory
    for m in re.finditer(
        r"(\*\.\w+)\s+(?:drop-ins?\s+|files?\s+)?(?:in|under)\s+(/[\w./-]+\w)", text
    ):
        glob = f"{m.group(2)}/{m.group(1)}"
        if m.group(2) in paths:
            paths.remove(m.group(2))
        if glob not in globs:
            globs.append(glob)
    # "/etc/ssh/sshd_config and its *.conf drop-ins": the drop-in directory is the file's ".d"
    for m in re.finditer(
        r"(/[\w./-]+\w)\s+and\s+(?:its|the)\s+(\*\.\w+)\s+(?:drop-?ins?|snippets?|fragments?)",
        text,
    ):
        glob = f"{m.group(1)}.d/{m.group(2)}"
        if glob not in globs:
            globs.append(glob)
    modes = _modes(text)
    if not paths and not globs or not modes:
        return None
    limit = 0
    for mode in modes:
        limit |= mode
    owner = re.search(r"owned\s+by\s+(?:user\s+)?([a-z_][\w-]*)", text, re.I)
    group = re.search(r"group\s+([a-z_][\w-]*)", text, re.I)
    must_exist = bool(
        re.search(r"\bmust\s+exist\b|\bis\s+present\b|\bmust\s+be\s+present\b", text, re.I)
    )
    return FilePermissionCheck(
        paths=tuple(paths),
        max_mode=limit,
        owner=owner.group(1) if owner else "root",
        group=group.group(1) if group else "root",
        globs=tuple(globs),
        must_exist=must_exist,
    )


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "file-permissions",
        (
            words(r"\bmode\b", r"\bpermissions?\b", r"\bowned\b", r"\bchmod\b", r"\breadable\b"),
            words(r"/(etc|var|usr|boot|root)/"),
        ),
        _build,
    ),
)
