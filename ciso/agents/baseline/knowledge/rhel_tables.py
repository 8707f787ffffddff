"""RHEL 9 system tables of one entry per line, judged row by row.

Two shapes: the colon-separated account tables (passwd(5), group(5), shadow(5): which account
holds UID 0, duplicate ids or names, an empty password field) and lists of one word per line
(shells(5), securetty: an entry that must not be listed, or must be). A row is named by its first
field; the accounts or groups the text sets apart ("root is the only ...", "other than root")
are exempt.
"""

from __future__ import annotations

import re

from ciso.agents.baseline.intent import TableRowCheck
from ciso.agents.baseline.knowledge import Concept, words

_PASSWD, _GROUP, _SHADOW = "/etc/passwd", "/etc/group", "/etc/shadow"
#: passwd(5) and group(5): name, password, id, (passwd: primary GID)
_ID_FIELD, _PRIMARY_GID_FIELD = 2, 3

_ZERO = r"(?:0|zero)\b"
_UID_ZERO = re.compile(
    rf"\b(?:uid|user\s+id)\s+(?:of\s+|=\s*)?{_ZERO}|\buid[- ]?0\b|\bsuperuser\s+uid\b", re.I
)
_GID_ZERO = re.compile(rf"\b(?:gid|group\s+id)\s+(?:of\s+|=\s*)?{_ZERO}|\bgid[- ]?0\b", re.I)
#: the text speaks of groups as the rows (group(5)), not of accounts' primary groups
_GROUP_ROWS = re.compile(r"/etc/group\b|\bgroups?\b(?!\s+(?:id|field))", re.I)
_ACCOUNT_ROWS = re.compile(r"\b(?:accounts?|users?|logins?)\b|/etc/passwd\b", re.I)

_NAME = r"[`'\"]?([a-z_][a-z0-9_.-]*)[`'\"]?"
#: the rows the text sets apart: "root is the only ...", "other than root", "only root may"
_SET_APART = (
    re.compile(
        rf"\b{_NAME}\s+(?:account\s+|group\s+)?(?:is|must\s+be|remains?|stays?)\s+the\s+"
        r"(?:only|sole|single|one)\b",
        re.I,
    ),
    re.compile(
        rf"\b(?:other\s+than|except(?:\s+for)?|besides|apart\s+from|but|save|beyond)\s+"
        rf"(?:the\s+)?(?:account\s+|user\s+|group\s+)?{_NAME}",
        re.I,
    ),
    re.compile(
        rf"\bonly\s+(?:the\s+)?(?:account\s+|user\s+|group\s+)?{_NAME}\s+"
        r"(?:account\s+|user\s+|group\s+)?(?:may|can|is\s+allowed|has|holds?)\b",
        re.I,
    ),
)
_NOT_NAMES = {"the", "a", "an", "one", "account", "user", "group", "uid", "gid", "no", "any", "not"}


def _exempt(text: str) -> tuple[str, ...]:
    names = [m.group(1) for p in _SET_APART for m in p.finditer(text)]
    return tuple(dict.fromkeys(n for n in names if n.lower() not in _NOT_NAMES))


def _id_zero(text: str) -> TableRowCheck | None:
    """ "root is the only UID 0 account", "no group other than root may have GID 0"."""
    exempt = _exempt(text)
    if _UID_ZERO.search(text):
        return TableRowCheck(_PASSWD, _ID_FIELD, forbidden=("0",), exempt=exempt)
    if _GID_ZERO.search(text):
        if _GROUP_ROWS.search(text) and not re.search(r"\bprimary\b", text, re.I):
            return TableRowCheck(_GROUP, _ID_FIELD, forbidden=("0",), exempt=exempt)
        if _ACCOUNT_ROWS.search(text):
            return TableRowCheck(_PASSWD, _PRIMARY_GID_FIELD, forbidden=("0",), exempt=exempt)
    return None


#: what must not repeat: (words, table, field)
_UNIQUE = (
    (re.compile(r"\buids?\b|\buser\s+ids?\b", re.I), _PASSWD, _ID_FIELD),
    (re.compile(r"\bgids?\b|\bgroup\s+ids?\b", re.I), _GROUP, _ID_FIELD),
    (re.compile(r"\buser\s*names?\b|\baccount\s+names?\b|\blogin\s+names?\b", re.I), _PASSWD, 0),
    (re.compile(r"\bgroup\s*names?\b", re.I), _GROUP, 0),
)


def _duplicates(text: str) -> TableRowCheck | None:
    """ "no duplicate UIDs", "group names must be unique"."""
    for said, table, field in _UNIQUE:
        if said.search(text):
            return TableRowCheck(table, field, unique=True)
    return None


def _empty_password(text: str) -> TableRowCheck | None:
    """ "password fields in /etc/shadow are not empty", "no account has a blank password"."""
    return TableRowCheck(_SHADOW, 1, forbidden=("",), exempt=_exempt(text))


def _shadowed(text: str) -> TableRowCheck | None:
    """ "accounts in /etc/passwd use shadowed passwords": passwd's password field is "x"."""
    return TableRowCheck(_PASSWD, 1, allowed=("x",), exempt=_exempt(text))


#: a list file of one word per line the text names
_LIST_FILE = re.compile(r"(/etc/(?:shells|securetty|ftpusers|(?:cron|at)\.(?:allow|deny)))\b")
#: an entry, perhaps followed by what it is ("the false program")
_ENTRY = (
    r"[`'\"]?(/?[\w.+-]+(?:/[\w.+-]+)*)[`'\"]?"
    r"(?:\s+(?:program|shell|binary|command|tool|tty|terminal))?"
)
_NOT_LISTED = (
    re.compile(
        rf"{_ENTRY}\s+(?:is|are|must|may|should|shall)\s*(?:not|never|n't)\s+(?:be\s+)?"
        r"(?:listed|present|appear|included|named|an?\s+entry)",
        re.I,
    ),
    re.compile(
        r"\b(?:must|may|should|shall|does|do)\s*(?:not|never|n't)\s+(?:list|contain|include|name)"
        rf"\s+(?:an?\s+|any\s+)?(?:entry\s+(?:for\s+)?)?{_ENTRY}",
        re.I,
    ),
    re.compile(rf"\bno\s+{_ENTRY}\s+(?:entry|line)\b", re.I),
)
_LISTED = (
    re.compile(rf"{_ENTRY}\s+(?:is|are|must|shall)\s+(?:be\s+)?(?:listed|present|included)", re.I),
    re.compile(
        r"\b(?:must|shall)\s+(?:list|contain|include|name)\s+(?:an?\s+)?(?:entry\s+"
        rf"(?:for\s+)?)?{_ENTRY}",
        re.I,
    ),
)
_NOT_ENTRIES = {"it", "this", "that", "file", "entry", "there", "which", "one"}


def _entries(patterns: tuple[re.Pattern[str], ...], text: str, path: str) -> tuple[str, ...]:
    # a sentence's full stop is no part of the entry
    found = [m.group(1).rstrip(".") for p in patterns for m in p.finditer(text)]
    return tuple(dict.fromkeys(e for e in found if e.lower() not in _NOT_ENTRIES and e != path))


def _listed(text: str) -> TableRowCheck | None:
    """ "nologin is not listed in /etc/shells", "/etc/securetty must not contain ttyS0"."""
    path = _LIST_FILE.search(text)
    if path is None:
        return None
    forbidden = _entries(_NOT_LISTED, text, path.group(1))
    required = () if forbidden else _entries(_LISTED, text, path.group(1))
    if not forbidden and not required:
        return None
    return TableRowCheck(path.group(1), 0, separator="", forbidden=forbidden, by_name=True,
                         required=required)  # fmt: skip


#: mount options a requirement asks a file system to be mounted with (mount(8))
_MOUNT_OPTION = re.compile(r"\b(nodev|nosuid|noexec|ro|noatime|hidepid=\w+|gid=\w+)\b")
#: a mount point the text names (not a configuration file)
_MOUNT_POINT = re.compile(r"(?<![\w/.])(/(?:[\w.-]+(?:/[\w.-]+)*)?)(?![\w/])")


def _mount_options(text: str) -> TableRowCheck | None:
    """ "/dev/shm must be mounted with nodev, nosuid and noexec": every /etc/fstab line that
    mounts a named point carries each option, and such a line exists."""
    options = tuple(dict.fromkeys(m.group(1) for m in _MOUNT_OPTION.finditer(text)))
    points = tuple(
        dict.fromkeys(
            p for m in _MOUNT_POINT.finditer(text)
            for p in [m.group(1).rstrip(".")] if p and not p.startswith("/etc/")
        )
    )  # fmt: skip
    if not options or not points:
        return None
    return TableRowCheck("/etc/fstab", 3, separator="", name_field=1, rows=points,
                         must_carry=options, required=points)  # fmt: skip


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "id-zero-rows",
        ((_UID_ZERO, _GID_ZERO),),
        _id_zero,
    ),
    Concept(
        "unique-table-field",
        (
            words(r"\bduplicates?\b", r"\bunique\b", r"\bshared?\s+by\s+(?:two|several|more)\b"),
            words(
                r"\b(?:uids?|gids?|user\s*names?|group\s*names?|user\s+ids?|group\s+ids?|"
                r"account\s+names?|login\s+names?)\b"
            ),
        ),
        _duplicates,
    ),
    Concept(
        "empty-password-field",
        (
            words(
                r"\b(?:empty|blank)\s+(?:password|passwd)\b",
                r"\bpassword\s+fields?\b.{0,60}\b(?:empty|blank)\b",
            ),
        ),
        _empty_password,
        none_of=words(r"\bssh", r"\bPermitEmptyPasswords\b", r"\bnullok\b"),
    ),
    Concept(
        "shadowed-passwords",
        (
            words(r"\bshadowed\s+passwords?\b", r"\buse\s+(?:the\s+)?shadow\b"),
            words(r"/etc/passwd\b"),
        ),
        _shadowed,
    ),
    Concept(
        "mount-options",
        (words(r"\bmount(?:ed|s|ing)?\b", r"/etc/fstab\b", r"\bpartition\b"), (_MOUNT_OPTION,)),
        _mount_options,
    ),
    Concept(
        "listed-entries",
        (
            (_LIST_FILE,),
            words(
                r"\blist(?:ed|s)?\b", r"\bcontain", r"\bentr(?:y|ies)\b", r"\bappear", r"\binclude"
            ),
        ),
        _listed,
        none_of=words(
            r"\bmode\b", r"\bpermissions?\b", r"\bowned\b", r"\bowner\b", r"\b0[0-7]{3}\b"
        ),
    ),
)
