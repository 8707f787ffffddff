"""Instances of the ``/etc/login.defs`` controls of RHEL 9, read the way shadow-utils reads the
file: ``NAME value`` lines, names case-sensitive, ``#`` lines ignored, a value may be quoted, and
when a name appears twice the LAST line wins.

A naive check takes the first line naming the setting, in any case. The violating host hides the
violation from it: a compliant line added near the top while the stock violating line further
down still wins, the setting left unset beside a lower-case lookalike line that is not the name,
or a quoted violating value. The compliant host holds the stock violating line followed by a
compliant one appended at the end (the boundary value), a comment holding a violating value, a
lower-case lookalike, and the other login.defs control's violation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random

from ciso.generator.hosts import HostFiles, HostInstance, judged_instance

PATH = "etc/login.defs"
_LINE = re.compile(r'^\s*([A-Za-z0-9_]+)\s+"?([^"\s]*)')

_BEFORE = (
    "# /etc/login.defs: defaults for the shadow password suite (useradd, passwd, chage).",
    "MAIL_DIR\t/var/spool/mail",
    "#MAIL_FILE\t.mail",
    "",
    "# Password aging controls for new accounts:",
    "#\tPASS_MAX_DAYS\tMaximum number of days a password may be used.",
    "#\tPASS_MIN_DAYS\tMinimum number of days allowed between password changes.",
    "#\tPASS_WARN_AGE\tNumber of days warning given before a password expires.",
)
_AFTER = (
    "",
    "UID_MIN                  1000",
    "UID_MAX                 60000",
    "GID_MIN                  1000",
    "GID_MAX                 60000",
    "CREATE_HOME\tyes",
    "UMASK\t\t022",
    "USERGROUPS_ENAB yes",
    "ENCRYPT_METHOD SHA512",
)


def effective(text: str, name: str) -> str | None:
    """The value shadow-utils uses for ``name`` (None: unset)."""
    values = [m.group(2) for m in map(_LINE.match, text.split("\n")) if m and m.group(1) == name]
    return values[-1] if values else None


@dataclass(frozen=True)
class LoginDefsControl:
    cis_id: str
    builtin_id: str
    #: The setting's name, as login.defs(5) spells it (case matters).
    name: str
    #: The control's meaning for one value (unset always violates here).
    complies: Callable[[str], bool]
    #: Violating values, the stock one first.
    bad_values: tuple[str, ...]
    #: Compliant values, the boundary first.
    good_values: tuple[str, ...]
    phrasings: tuple[str, ...]

    @property
    def resource(self) -> str:
        return f"login.defs//{self.name}"

    def violates(self, files: HostFiles) -> bool:
        value = effective(files.get(PATH, ""), self.name)
        return value is None or not self.complies(value)


def _file(aging: list[str], extra_head: list[str], tail: list[str]) -> HostFiles:
    lines = [*_BEFORE[:2], *extra_head, *_BEFORE[2:], *aging, *_AFTER, *tail]
    return {PATH: "\n".join(lines) + "\n"}


def _aging(c: LoginDefsControl, mine: str | None, others: dict[str, str]) -> list[str]:
    values = {"PASS_MAX_DAYS": "365", "PASS_MIN_DAYS": "1", "PASS_WARN_AGE": "7", **others}
    out = []
    for name in ("PASS_MAX_DAYS", "PASS_MIN_DAYS", "PASS_WARN_AGE"):
        value = mine if name == c.name else values[name]
        if value is not None:
            out.append(f"{name}\t{value}")
    return out


def build_login_defs_instance(
    c: LoginDefsControl, others: Sequence[LoginDefsControl], rng: Random
) -> HostInstance:
    bad, good = rng.choice(c.bad_values), rng.choice(c.good_values)
    way = rng.randrange(3)
    if way == 0:
        # a compliant line near the top; the stock violating line further down wins
        files = _file(_aging(c, bad, {}), [f"{c.name}\t{good}"], [])
        hidden = f"'{c.name} {good}' near the top, the later '{c.name} {bad}' wins"
    elif way == 1:
        files = _file(
            _aging(c, None, {}), [], [f"# CIS: {c.name} {good}", f"{c.name.lower()} {good}"]
        )
        hidden = f"unset; '{c.name.lower()} {good}' is not the name (case-sensitive)"
    else:
        files = _file(_aging(c, good, {}), [], [f'{c.name}\t"{bad}"'])
        hidden = f'the last line says {c.name} "{bad}" (quoted)'
    broken = {
        o.name: rng.choice(o.bad_values) for o in rng.sample(list(others), min(1, len(others)))
    }
    stock, boundary = rng.choice(c.bad_values), c.good_values[0]
    tail = [
        f"# Auditors asked for {boundary} (not #{c.name} {rng.choice(c.bad_values)}).",
        f"{c.name.lower()} {rng.choice(c.bad_values)}",
        f"{c.name} {boundary}",
    ]
    compliant = _file(_aging(c, stock, broken), [], tail)
    kept = [
        f"'{c.name} {stock}' first, '{c.name} {boundary}' (the boundary) last",
        "a comment and a lower-case lookalike hold violating values",
        *(f"{n} {v} violates another control" for n, v in broken.items()),
    ]
    return judged_instance(
        f"{c.cis_id} ({c.name})",
        c.violates(files) and not c.violates(compliant),
        files,
        compliant,
        c.resource,
        rng.choice(c.phrasings),
        hidden,
        kept,
    )
