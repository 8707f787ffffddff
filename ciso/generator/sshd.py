"""Instances of the SSH daemon controls of RHEL 9: host trees (``/etc/ssh/sshd_config`` and its
drop-in directory) judged by the value sshd actually uses, read the way sshd reads it.

How sshd reads its configuration (OpenSSH 8.7, as the reference policies follow it): keywords are
case-insensitive, ``Keyword value`` and ``Keyword=value`` alike; ``#`` lines are comments; the
``Include`` line (RHEL 9 puts it at the top of the main file) reads the matching ``*.conf`` drop-ins
in lexical order in its place, so they come before the rest of the main file; the first value read
wins; after a ``Match`` line settings apply only to matching connections, up to the next ``Match``
or the end of that file.

A naive check greps the main file for the keyword as the manual spells it and keeps the last
value. The violating host hides the violation from it: in a drop-in read first, in odd case or
the ``=`` form before a compliant line, in a ``Match`` block of a drop-in, or by leaving unset a
keyword whose default violates (a commented-out compliant line in view). The compliant host holds
the near-misses: a compliant drop-in read before a violating line of the main file, a violating
``.conf.disabled`` drop-in sshd never reads, a comment holding a violating setting, a compliant
``Match`` block, lookalike keywords and the violations of other SSH controls.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random

from ciso.generator.hosts import HostFiles, HostInstance, judged_instance

MAIN = "etc/ssh/sshd_config"
DROP_IN_DIR = "etc/ssh/sshd_config.d"
_SETTING = re.compile(r'^\s*([A-Za-z][A-Za-z0-9]*)(?:\s*=\s*|\s+)"?([^"\s]*)')

_HEADER = (
    "# /etc/ssh/sshd_config: the SSH daemon's main configuration, see sshd_config(5).\n"
    "# Local changes go into /etc/ssh/sshd_config.d/*.conf, read where the Include line is.\n"
)
_STOCK_MAIN = (
    "#Port 22",
    "HostKey /etc/ssh/ssh_host_rsa_key",
    "HostKey /etc/ssh/ssh_host_ecdsa_key",
    "HostKey /etc/ssh/ssh_host_ed25519_key",
    "SyslogFacility AUTHPRIV",
    "AuthorizedKeysFile\t.ssh/authorized_keys",
    "PasswordAuthentication yes",
    "Subsystem\tsftp\t/usr/libexec/openssh/sftp-server",
)
#: RHEL 9's own drop-in, as shipped (its X11Forwarding yes is CIS 5.2.12's business).
STOCK_DROP_IN = (
    "50-redhat.conf",
    (
        "# Defaults shipped with the distribution. Files in this directory that sort",
        "# before this one take precedence over it.",
        "KbdInteractiveAuthentication no",
        "GSSAPIAuthentication yes",
        "GSSAPICleanupCredentials no",
        "UsePAM yes",
        "X11Forwarding yes",
        "PrintMotd no",
    ),
)
_MATCHES = (
    "Match User kiosk",
    "Match Group sftp-only",
    "Match Address 192.0.2.0/24",
    "Match Host *.batch.example.com",
    "Match User deploy,backup",
)
_DROP_IN_NAMES = ("legacy", "vendor-agent", "migration", "bastion", "team-ops", "old-defaults")


@dataclass(frozen=True)
class Setting:
    keyword: str  # lower case
    value: str
    in_match: bool


def read_settings(files: Mapping[str, str]) -> list[Setting]:
    """Every setting sshd reads from a host's files, in the order it reads them."""
    main = files.get(MAIN, "").split("\n")
    out: list[Setting] = []
    main_matches = 0
    for line in main:
        found = _SETTING.match(line)
        if not found:
            continue
        keyword, value = found.group(1).lower(), found.group(2)
        if keyword == "match":
            main_matches += 1
        elif keyword == "include":
            for pattern in line.split()[1:]:
                absolute = pattern if pattern.startswith("/") else f"/etc/ssh/{pattern}"
                paths = sorted(
                    p for p in files if fnmatch.fnmatchcase("/" + p, absolute) and p != MAIN
                )
                for path in paths:
                    out += _drop_in_settings(files[path], main_matches > 0)
        else:
            out.append(Setting(keyword, value, main_matches > 0))
    return out


def _drop_in_settings(text: str, in_match: bool) -> list[Setting]:
    out = []
    for line in text.split("\n"):
        found = _SETTING.match(line)
        if not found:
            continue
        keyword = found.group(1).lower()
        if keyword == "match":
            in_match = True
        elif keyword != "include":
            out.append(Setting(keyword, found.group(2), in_match))
    return out


@dataclass(frozen=True)
class SshdControl:
    cis_id: str
    builtin_id: str
    #: The keyword as sshd_config(5) spells it.
    keyword: str
    #: The control's meaning for one value.
    complies: Callable[[str], bool]
    #: Whether sshd's default (the keyword unset) complies.
    default_complies: bool
    #: Whether the keyword may appear in a Match block (LoginGraceTime may not).
    in_match: bool
    #: Values that violate, the plain one first (a naive check understands it).
    bad_values: tuple[str, ...]
    #: Values that comply, the boundary first.
    good_values: tuple[str, ...]
    #: Lines of other keywords that look related and are not the control's business.
    lookalikes: tuple[str, ...]
    phrasings: tuple[str, ...]

    @property
    def resource(self) -> str:
        return f"sshd//{self.keyword}"

    def violates(self, files: Mapping[str, str]) -> bool:
        """The control's verdict on a host: the global value sshd uses, and every Match value."""
        mine = [s for s in read_settings(files) if s.keyword == self.keyword.lower()]
        first = next((s.value for s in mine if not s.in_match), None)
        if first is None and not self.default_complies:
            return True
        if first is not None and not self.complies(first):
            return True
        return self.in_match and any(not self.complies(s.value) for s in mine if s.in_match)


@dataclass
class _Config:
    """One host's sshd configuration while it is built."""

    include: str
    head: list[str] = field(default_factory=list)  # right after the Include line
    tail: list[str] = field(default_factory=list)  # after the stock lines
    matches: list[list[str]] = field(default_factory=list)  # at the end of the main file
    drop_ins: dict[str, list[str]] = field(default_factory=dict)

    def files(self) -> HostFiles:
        main = [_HEADER + self.include, "", *self.head, *_STOCK_MAIN, *self.tail]
        for block in self.matches:
            main += block
        out = {MAIN: "\n".join(main) + "\n"}
        for name, lines in sorted(self.drop_ins.items()):
            out[f"{DROP_IN_DIR}/{name}"] = "\n".join(lines) + "\n"
        return out


def _config(rng: Random) -> _Config:
    include = rng.choice(("Include /etc/ssh/sshd_config.d/*.conf", "Include sshd_config.d/*.conf"))
    config = _Config(include)
    name, lines = STOCK_DROP_IN
    config.drop_ins[name] = list(lines)
    return config


def _odd(keyword: str, value: str, rng: Random) -> str:
    spelled = rng.choice((keyword.lower(), keyword.upper(), keyword[0].lower() + keyword[1:]))
    return f"{spelled}{rng.choice(('   ', chr(9), ' = ', '='))}{value}"


def _drop_in_name(rng: Random, low: int, high: int, taken: Mapping[str, object]) -> str:
    while True:
        name = f"{rng.randrange(low, high):02d}-{rng.choice(_DROP_IN_NAMES)}.conf"
        if name not in taken:
            return name


def _match_block(rng: Random, line: str) -> list[str]:
    return [rng.choice(_MATCHES), f"\t{line}", "\tAllowTcpForwarding no"]


# Ways a violation hides from a check of the main file's last properly spelled line. Each adds
# the violation to a config whose main file ends up showing a compliant value (or none).
def _in_a_drop_in_read_first(c: SshdControl, config: _Config, rng: Random) -> str:
    name = _drop_in_name(rng, 10, 49, config.drop_ins)
    bad = rng.choice(c.bad_values)
    config.drop_ins[name] = [
        "# kept from the old image until the migration is done",
        _odd(c.keyword, bad, rng),
    ]
    config.tail += ["# CIS hardening", f"{c.keyword} {rng.choice(c.good_values)}"]
    return f"drop-in {name} sets {bad}, read before the main file's compliant line"


def _odd_spelling_first(c: SshdControl, config: _Config, rng: Random) -> str:
    bad = rng.choice(c.bad_values)
    line = _odd(c.keyword, bad, rng)
    config.head.append(line)
    config.tail += ["# CIS hardening", f"{c.keyword} {rng.choice(c.good_values)}"]
    return f"main file: {line!r} comes first; the later compliant line does not win"


def _match_in_a_drop_in(c: SshdControl, config: _Config, rng: Random) -> str:
    name = _drop_in_name(rng, 10, 99, config.drop_ins)
    bad = rng.choice(c.bad_values)
    config.drop_ins[name] = [
        "# exceptions for one group of clients",
        *_match_block(rng, _odd(c.keyword, bad, rng)),
    ]
    config.tail.append(f"{c.keyword} {rng.choice(c.good_values)}")
    return f"drop-in {name}: a Match block sets {bad}"


def _unset_with_a_commented_line(c: SshdControl, config: _Config, rng: Random) -> str:
    good = rng.choice(c.good_values)
    config.tail.append(f"#{c.keyword} {good}")
    if c.in_match:
        config.matches.append(_match_block(rng, f"{c.keyword} {good}"))
    return f"unset (the default violates); '#{c.keyword} {good}' is a comment"


def _hiding_ways(c: SshdControl) -> list[Callable[[SshdControl, _Config, Random], str]]:
    ways: list[Callable[[SshdControl, _Config, Random], str]] = [
        _in_a_drop_in_read_first,
        _odd_spelling_first,
    ]
    if c.in_match:
        ways.append(_match_in_a_drop_in)
    if not c.default_complies:
        ways.append(_unset_with_a_commented_line)
    return ways


def _compliant(
    c: SshdControl, others: Sequence[SshdControl], rng: Random
) -> tuple[_Config, list[str]]:
    config = _config(rng)
    kept = []
    # a compliant drop-in read before a violating line of the main file (and, for X11Forwarding,
    # before the stock drop-in's yes)
    name = _drop_in_name(rng, 0, 10, config.drop_ins)
    good = c.good_values[0]
    config.drop_ins[name] = ["# CIS hardening", _odd(c.keyword, good, rng)]
    config.tail.append(f"{c.keyword} {c.bad_values[0]}")
    kept.append(f"drop-in {name} sets {good}, read before the main file's {c.bad_values[0]}")
    disabled = _drop_in_name(rng, 10, 99, config.drop_ins) + ".disabled"
    config.drop_ins[disabled] = [f"{c.keyword} {rng.choice(c.bad_values)}"]
    kept.append(f"{disabled} is never read")
    config.head.append(f"# {c.keyword} {rng.choice(c.bad_values)}")
    kept.append("a comment holds a violating setting")
    if c.in_match:
        config.matches.append(_match_block(rng, _odd(c.keyword, rng.choice(c.good_values), rng)))
        kept.append("a Match block sets a compliant value")
    config.head += list(c.lookalikes)
    for other in rng.sample(list(others), min(2, len(others))):
        config.head.append(f"{other.keyword} {other.bad_values[0]}")
        kept.append(
            f"{other.keyword} {other.bad_values[0]} violates CIS {other.cis_id}, another control"
        )
    return config, kept


def build_sshd_instance(c: SshdControl, others: Sequence[SshdControl], rng: Random) -> HostInstance:
    violating = _config(rng)
    way = rng.choice(_hiding_ways(c))
    hidden = [way(c, violating, rng)]
    compliant, kept = _compliant(c, [o for o in others if o.keyword != c.keyword], rng)
    bad_files, good_files = violating.files(), compliant.files()
    return judged_instance(
        f"{c.cis_id} (sshd {c.keyword})",
        c.violates(bad_files) and not c.violates(good_files),
        bad_files,
        good_files,
        c.resource,
        rng.choice(c.phrasings),
        "; ".join(hidden),
        kept,
    )
