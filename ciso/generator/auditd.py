"""Instances of the ``/etc/audit/auditd.conf`` control of RHEL 9 (4.1.2.2), read as the
reference policy reads it: ``keyword = value`` lines (spaces around ``=`` optional), keywords and
values case-insensitive, ``#`` lines ignored; every line setting the keyword must say the
compliant value (auditd applies them in order, a reader should not have to), and unset violates.

A naive check takes the first ``keyword = value`` line spelled in lower case with spaces and
compares the value case-sensitively. The violating host hides the violation from it: a second,
spaceless line further down, an upper-case keyword, or the keyword unset beside a comment holding
the compliant setting. The compliant host writes the value in upper case, keeps a comment with a
violating value, the similar keyword ``max_log_file`` and other ``*_action`` keywords.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random

from ciso.generator.hosts import HostFiles, HostInstance, judged_instance

PATH = "etc/audit/auditd.conf"
_LINE = re.compile(r"^\s*([A-Za-z_]+)\s*=\s*(\S*)")

_STOCK = (
    "# /etc/audit/auditd.conf: configuration of the audit daemon, see auditd.conf(5).",
    "local_events = yes",
    "write_logs = yes",
    "log_file = /var/log/audit/audit.log",
    "log_group = root",
    "log_format = ENRICHED",
    "flush = INCREMENTAL_ASYNC",
    "freq = 50",
)
_AFTER = (
    "space_left = 75",
    "space_left_action = SYSLOG",
    "admin_space_left_action = SUSPEND",
    "disk_full_action = SUSPEND",
)


def values(text: str, keyword: str) -> list[str]:
    """Every value the file gives the keyword, in order."""
    found = (m for m in map(_LINE.match, text.split("\n")) if m)
    return [m.group(2) for m in found if m.group(1).lower() == keyword.lower()]


@dataclass(frozen=True)
class AuditdControl:
    cis_id: str
    builtin_id: str
    keyword: str
    #: The control's meaning for one value.
    complies: Callable[[str], bool]
    bad_values: tuple[str, ...]
    good_values: tuple[str, ...]
    phrasings: tuple[str, ...]

    @property
    def resource(self) -> str:
        return f"auditd//{self.keyword}"

    def violates(self, files: HostFiles) -> bool:
        given = values(files.get(PATH, ""), self.keyword)
        return not given or any(not self.complies(v) for v in given)


def _file(lines: Sequence[str]) -> HostFiles:
    return {PATH: "\n".join([*_STOCK, *lines, *_AFTER]) + "\n"}


def build_auditd_instance(
    c: AuditdControl, others: Sequence[AuditdControl], rng: Random
) -> HostInstance:
    size = f"max_log_file = {rng.choice((8, 16, 32, 64))}"
    bad, good = rng.choice(c.bad_values), rng.choice(c.good_values)
    way = rng.randrange(3)
    if way == 0:
        lines = [
            size,
            "num_logs = 5",
            f"{c.keyword} = {good}",
            "# bigger logs, fewer files",
            f"{c.keyword}={bad}",
        ]
        hidden = f"'{c.keyword} = {good}' first, '{c.keyword}={bad}' further down"
    elif way == 1:
        lines = [size, f"{c.keyword.upper()} = {bad}"]
        hidden = f"'{c.keyword.upper()} = {bad}' (keywords are case-insensitive)"
    else:
        lines = [size, f"# {c.keyword} = {good}", f"# CIS: set {c.keyword} to {good}"]
        hidden = f"unset (the default, ROTATE, violates); '# {c.keyword} = {good}' is a comment"
    violating = _file(lines)
    compliant = _file(
        [
            size,
            "num_logs = 5",
            f"# was: {c.keyword} = {rng.choice(c.bad_values)}",
            f"{c.keyword} = {good.upper()}",
        ]
    )
    kept = [
        f"'{c.keyword} = {good.upper()}' (values are case-insensitive)",
        "a comment with a violating value; max_log_file and other *_action keywords",
    ]
    return judged_instance(
        f"{c.cis_id} ({c.keyword})",
        c.violates(violating) and not c.violates(compliant),
        violating,
        compliant,
        c.resource,
        rng.choice(c.phrasings),
        hidden,
        kept,
    )
