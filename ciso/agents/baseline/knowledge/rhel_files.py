"""RHEL 9 file presence and permissions: owner, group and the most permissive mode accepted.

"Mode 0600 or stricter" means no bit outside 0600; when several modes are accepted the union of
their bits is the limit. Drop-in globs are judged for every file present.
"""

from __future__ import annotations

import re

from ciso.agents.baseline.intent import AuditWatchCheck, FilePermissionCheck
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


#: sentences that name a file only to say it does not count ("cron.deny alone does not comply",
#: "backups are not evidence"); "stay root's alone" is no such sentence
_DISMISSIVE = re.compile(
    r"\balone\s+(?:does|is|will)\s*(?:not|n't)\b|does\s+not\s+(comply|count|suffice)|"
    r"not\s+enough|\bnot\s+(?:evidence|judged|checked|in\s+scope)\b|\bout\s+of\s+scope\b",
    re.I,
)


def _relevant(text: str) -> str:
    sentences = re.split(r"(?<=[.!?])\s+", text)
    kept = " ".join(s for s in sentences if not _DISMISSIVE.search(s))
    # a text whose only sentence naming the files also dismisses others keeps it
    return kept if _PATH.search(kept) else text


#: the file must be there: "must exist", "ensure X exists", "fails when X is absent"
_MUST_EXIST = re.compile(
    r"\b(?:must|shall|has\s+to|have\s+to|needs?\s+to)\s+(?:exist|be\s+present)\b|\bexists\b|"
    r"\bis\s+present\b|\b(?:is|are)\s+(?:absent|missing)\b|"
    r"\b(?:absent|missing|does\s*(?:not|n't)\s+exist)\b.{0,40}\b(?:fail\w*|finding|violat\w*)|"
    # what goes wrong "without one" (the tools fall back, everyone gets in): it must be there
    r"\bwithout\s+(?:one|it|them|the\s+file|such\s+a\s+(?:file|list))\b(?!\s+(?:is|being)\s+fine)",
    re.I,
)
#: ...unless the text makes the file optional: "when present", "if it exists", "absent passes"
_OPTIONAL = re.compile(
    r"\b(?:if|when|where|whenever)\s+(?:it\s+|they\s+|one\s+)?(?:exists?|is\s+present|"
    r"are\s+present|present)\b|\bmay\s+be\s+(?:absent|missing)\b|"
    r"\b(?:absent|missing)\b.{0,30}\b(?:pass(?:es)?|compl(?:y|ies)|is\s+fine)\b",
    re.I,
)
_NAME = r"([a-z_][a-z0-9_-]*)"
#: words that follow "group" without naming one ("no group or other bit", "group-writable")
_NOT_NAMES = {"or", "and", "other", "others", "bits", "bit", "owner", "permissions", "write",
              "writable", "readable", "read", "execute", "must", "should", "is", "the", "of",
              "members", "ownership", "id", "access", "to", "that", "which", "who"}  # fmt: skip


def _owner_group(text: str) -> tuple[str, str]:
    """The owner and group the text asks for: "owned by user root and group root",
    "root:root", "belong to root", "group shadow"; root when it names none."""
    pair = re.search(rf"\b{_NAME}:{_NAME}\b(?!/)", text)
    if pair and pair.group(1) not in _NOT_NAMES:
        return pair.group(1), pair.group(2)
    owner = re.search(
        rf"\b(?:owned\s+by|belongs?\s+to|owner\s+(?:must\s+be|is|of))\s+(?:the\s+)?(?:user\s+)?{_NAME}",
        text,
        re.I,
    )
    groups = [
        m.group(1)
        for m in re.finditer(rf"\bgroup\s+(?:must\s+be\s+|is\s+|owner\s+)?{_NAME}", text, re.I)
        if m.group(1).lower() not in _NOT_NAMES
    ]
    owner_name = owner.group(1) if owner and owner.group(1).lower() not in _NOT_NAMES else "root"
    return owner_name, groups[0] if groups else "root"


#: files a text names in words, as RHEL 9 lays them out (sshd's host keys, one per algorithm)
FILES_IN_WORDS = (
    (re.compile(r"\bprivate\s+(?:ssh\s+)?host\s+keys?\b", re.I), "/etc/ssh/ssh_host_*_key"),
    (re.compile(r"\bpublic\s+(?:ssh\s+)?host\s+keys?\b", re.I), "/etc/ssh/ssh_host_*_key.pub"),
)
_OWNER_ONLY = (
    r"(?:only\s+(?:the\s+owner|root)|(?:nobody|no\s+one)\s+(?:but|except|other\s+than)\s+root)"
)
#: "only root may read", "nobody but root may change them"
_OWNER_READS = re.compile(_OWNER_ONLY + r"\s+(?:may|can|is\s+allowed\s+to)\s+read\b", re.I)
_OWNER_WRITES = re.compile(
    _OWNER_ONLY + r"\s+(?:may|can|is\s+allowed\s+to)\s+(?:change|modify|write|alter)\b", re.I
)
#: "apart from the ssh_keys group": a group that may read too, and may own the files
_GROUP_EXCEPTION = re.compile(
    r"\b(?:apart\s+from|except(?:\s+for)?|besides|other\s+than|and)\s+(?:members\s+of\s+)?"
    r"the\s+([a-z_][a-z0-9_-]*)\s+group\b",
    re.I,
)


def _in_words(text: str) -> tuple[int, tuple[str, ...]] | None:
    """The mode a text states by who may read and change a file ("only root may read them,
    apart from the ssh_keys group; nobody but root may change them" is 0640), and the groups
    it lets read; None when it states none."""
    if not _OWNER_READS.search(text):
        return None
    groups = tuple(dict.fromkeys(m.group(1) for m in _GROUP_EXCEPTION.finditer(text)))
    return (0o640 if groups else 0o600), groups


def _build(text: str) -> FilePermissionCheck | None:
    text = _relevant(text)
    paths: list[str] = []
    globs: list[str] = []
    # a file named in words, unless the sentence naming it lets it be ("may stay world-readable")
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        if re.search(r"\bmay\s+(?:stay|remain|be)\b", sentence, re.I):
            continue
        globs += [g for pattern, g in FILES_IN_WORDS if pattern.search(sentence) and g not in globs]
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
    stated = _in_words(text) if not modes else None
    if stated:
        modes = [stated[0]]
    if not paths and not globs or not modes:
        return None
    limit = 0
    for mode in modes:
        limit |= mode
    owner, group = _owner_group(text)
    must_exist = bool(_MUST_EXIST.search(text)) and not _OPTIONAL.search(text)
    return FilePermissionCheck(
        paths=tuple(paths),
        max_mode=limit,
        owner=owner,
        group=group,
        globs=tuple(globs),
        must_exist=must_exist,
        also_groups=tuple(g for g in (stated[1] if stated else ()) if g != group),
    )


#: a clause that requires its files ("must exist", "have to be present") or forbids them ("must
#: not exist", "must be absent", "must be removed")
_PRESENT = re.compile(
    r"\b(?:must|shall|has\s+to|have\s+to|needs?\s+to)\s+(?:exist|be\s+present|be\s+in\s+place)\b",
    re.I,
)
_ABSENT = re.compile(
    r"\b(?:must|shall|may)\s*(?:not|n't)\s+(?:exist|be\s+present)\b|"
    r"\b(?:must|shall|has\s+to|have\s+to|needs?\s+to)\s+(?:be\s+)?(?:absent|removed|deleted)\b",
    re.I,
)


#: every account's home directory ("no home directory of an account", "users' home
#: directories")
_IN_HOMES = re.compile(r"\bhome\s+director(?:y|ies)\b|\bhome\s+dirs?\b", re.I)
#: a clause that forbids what it names there
_NONE_MAY_HOLD = re.compile(
    r"\bno\b[^.;]*\b(?:may|can|must|shall)\s+(?:contain|hold|have|keep)\b|"
    r"\b(?:must|may|shall)\s*(?:not|n't)\s+(?:contain|hold|have|keep)\b",
    re.I,
)
#: a dot file named by itself (".rhosts", ".netrc"), not a path or a word's ending
_DOT_FILE = re.compile(r"(?<![\w/.-])(\.[A-Za-z][\w.-]*[A-Za-z0-9])")


def _presence(text: str) -> FilePermissionCheck | None:
    """Files that must exist and files that must not, clause by clause ("/etc/cron.allow and
    /etc/at.allow must exist, and /etc/cron.deny and /etc/at.deny must not exist"); nothing is
    asked of their owner or mode. None when the text names a mode (a permissions check)."""
    if _modes(text):
        return None
    present: list[str] = []
    absent: list[str] = []
    in_homes: list[str] = []
    for clause in re.split(r"[;.]\s+|,\s+(?:and|but|while)\s+", _relevant(text)):
        paths = [p.rstrip(".,;:") for p in _PATH.findall(clause)]
        if _IN_HOMES.search(clause) and _NONE_MAY_HOLD.search(clause):
            # "no home directory ... may contain a .rhosts or .netrc file"
            in_homes += _DOT_FILE.findall(clause)
        elif _ABSENT.search(clause):
            absent += paths
        elif _PRESENT.search(clause):
            present += paths
    if not (absent or in_homes):
        return None  # a text that only requires files is read by the permissions check
    return FilePermissionCheck(
        paths=tuple(dict.fromkeys(present)), max_mode=0o7777, owner="", group="",
        must_exist=True, absent=tuple(dict.fromkeys(absent)),
        absent_in_homes=tuple(dict.fromkeys(in_homes)),
    )  # fmt: skip


#: what an attribute change alters: "changes to their attributes / ownership / mode"
_META = r"(?:attributes?|ownership|owners?|modes?|permissions?)\b"
_CHANGE_OF_META = r"\bchanges?\s+to\s+(?:its|their|the)\s+" + _META
#: the kinds of access an audit rule records, by the words a text uses for them
_ACCESS = (
    ("r", re.compile(r"\breads?\b|\bread\s+access\b", re.I)),
    (
        "w",
        re.compile(
            r"\bwrit\w*|\bmodif\w*|\bchanges?\b(?!\s+to\s+(?:its|their|the)\s+" + _META + ")", re.I
        ),
    ),
    ("x", re.compile(r"\bexecut\w*", re.I)),
    ("a", re.compile(_CHANGE_OF_META + r"|\battributes?\b|\bownership\b", re.I)),
)


def _audit_watch(text: str) -> AuditWatchCheck | None:
    """The files whose accesses the audit rules loaded at boot must record, and which accesses
    ("writes ... and changes to their attributes" is ``wa``; nothing said: ``wa``)."""
    paths = [p.rstrip(".,;:/") for p in _PATH.findall(text)]
    if not paths:
        return None
    letters = "".join(letter for letter, words in _ACCESS if words.search(text)) or "wa"
    return AuditWatchCheck(paths=tuple(dict.fromkeys(paths)), permissions=letters)


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        # the audit rules, not auditd.conf: a text about what the audit log must record
        "audit-watch",
        (
            words(r"\baudit\s+(log|trail|records?|rules?|events?)\b", r"\baudit(ed|ing)\b"),
            words(r"\brecord\w*\b", r"\blogged\b", r"\bwatch\w*\b", r"\btrail\b"),
            words(r"/(etc|var|usr|boot|root)/"),
        ),
        _audit_watch,
        none_of=words(r"auditd\.conf", r"\b(space_left|max_log_file|num_logs|log_file)\w*"),
    ),
    Concept(
        # presence alone: files that must exist and files that must not
        "file-presence",
        (
            words(_ABSENT.pattern, _IN_HOMES.pattern),
            words(r"/(etc|var|usr|boot|root)/", _DOT_FILE.pattern),
        ),
        _presence,
    ),
    Concept(
        "file-permissions",
        (
            words(
                r"\bmode\b",
                r"\bpermissions?\b",
                r"\bowned\b",
                r"\bowner(ship)?\b",
                r"\bchmod\b",
                r"\breadable\b",
                r"\bwritable\b",
                r"\b(permission|special|setuid|setgid|sticky|group|other)\s+bits?\b",
                r"\bbits?\s+(beyond|outside|above)\b",
                r"\bbelongs?\s+to\b",
                _OWNER_READS.pattern,
            ),
            words(r"/(etc|var|usr|boot|root)/", *(p.pattern for p, _ in FILES_IN_WORDS)),
        ),
        _build,
    ),
)
