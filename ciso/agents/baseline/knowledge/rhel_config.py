"""RHEL 9 configuration settings: sshd, login.defs, auditd.conf, sysctl.

Semantics the rendered Rego implements (see the ``family`` of each setting):
- ``sshd``: keywords are case-insensitive; the FIRST value wins, ``Include`` is expanded in place
  (RHEL 9's sshd_config includes ``/etc/ssh/sshd_config.d/*.conf`` in lexical order first);
  a ``Match`` block overrides for matching connections, so every Match value must comply too.
- ``login.defs`` and ``auditd``: one file, the LAST value wins.
- ``sysctl``: files of /usr/lib/sysctl.d, /run/sysctl.d and /etc/sysctl.d ordered by file name (a
  file in /etc hides one of the same name elsewhere), /etc/sysctl.conf last; the last value
  wins; ``a/b/c`` is the same key as ``a.b.c``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ciso.agents.baseline.intent import Comparison, ConfigSetting, ModuleDisabledCheck
from ciso.agents.baseline.knowledge import Concept, negated, words


@dataclass(frozen=True)
class Setting:
    family: str
    key: str
    #: the value the platform uses when nothing sets it (None: no usable default)
    default: Any
    #: "bool": yes/no; "int": a number; "time": sshd time (1m30s); "word": a keyword
    value_type: str
    #: the compliant value of a bool/word setting when the text gives none
    safe: Any = None


SSHD = {
    "x11": Setting("sshd", "X11Forwarding", "no", "bool", "no"),
    "rhosts": Setting("sshd", "IgnoreRhosts", "yes", "bool", "yes"),
    "max-auth": Setting("sshd", "MaxAuthTries", 6, "int"),
    "grace": Setting("sshd", "LoginGraceTime", 120, "time"),
    "root": Setting("sshd", "PermitRootLogin", "prohibit-password", "word", "no"),
    "empty": Setting("sshd", "PermitEmptyPasswords", "no", "bool", "no"),
}
LOGIN_DEFS = {
    "max-days": Setting("login.defs", "PASS_MAX_DAYS", None, "int"),
    "warn-age": Setting("login.defs", "PASS_WARN_AGE", None, "int"),
}
AUDITD = {"keep-logs": Setting("auditd", "max_log_file_action", "rotate", "word", "keep_logs")}

_NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a": 1,
    "an": 1,
}
#: seconds for times, days for ages (the two never meet in one setting), 1 for counts
_UNITS = {
    "character": 1,
    "char": 1,
    "attempt": 1,
    "trie": 1,
    "second": 1,
    "sec": 1,
    "s": 1,
    "minute": 60,
    "min": 60,
    "m": 60,
    "hour": 3600,
    "h": 3600,
    "day": 1,
    "days": 1,
    "week": 7,
    "year": 365,
}
_NUM = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|an?)"


def _number(token: str) -> int:
    return int(token) if token.isdigit() else _NUMBER_WORDS[token.lower()]


def _quantity(match: re.Match[str], unit_group: int | None) -> int:
    value = _number(match.group(1))
    if unit_group is not None and match.group(unit_group):
        unit = match.group(unit_group).lower().rstrip("s") or "s"
        value *= _UNITS.get(unit, _UNITS.get(unit + "s", 1))
    return value


_UNIT = (
    r"\s*(seconds?|secs?|minutes?|mins?|hours?|days?|weeks?|years?|characters?|chars?|"
    r"attempts?|tries)?"
)


def bounds(text: str) -> tuple[Comparison, tuple[int, ...]] | None:
    """The numeric constraint of a requirement: at most / no more than / N or less / between /
    within / at least / N or more. Units are converted to seconds (times) or days (ages)."""
    t = text.lower()
    between = re.search(rf"between\s+{_NUM}{_UNIT}\s+and\s+{_NUM}{_UNIT}", t)
    if between:
        low = _number(between.group(1)) * _UNITS.get(
            (between.group(2) or "s").rstrip("s") or "s", 1
        )
        high_unit = (between.group(4) or between.group(2) or "s").rstrip("s") or "s"
        high = _number(between.group(3)) * _UNITS.get(high_unit, 1)
        return "between", (low, high)
    upper = re.search(
        rf"(?:at\s+most|no\s+more\s+than|not\s+more\s+than|maximum\s+of|up\s+to|within|"
        rf"less\s+than\s+or\s+equal\s+to|not\s+exceed(?:ing)?)\s+{_NUM}{_UNIT}",
        t,
    ) or re.search(rf"{_NUM}{_UNIT}\s+(?:or\s+(?:less|fewer|lower|below)|at\s+(?:the\s+)?most)", t)
    if upper:
        return "le", (_quantity(upper, 2),)
    lower = re.search(
        rf"(?:at\s+least|no\s+less\s+than|not\s+less\s+than|minimum\s+of|no\s+fewer\s+than)"
        rf"\s+{_NUM}{_UNIT}",
        t,
    ) or re.search(
        rf"{_NUM}{_UNIT}\s+(?:or\s+(?:more|greater|higher|above|longer)|at\s+(?:the\s+)?least)", t
    )
    if lower:
        return "ge", (_quantity(lower, 2),)
    return None


def _complies(setting: Setting, comparison: Comparison, values: tuple[Any, ...]) -> bool:
    """Whether the platform default satisfies the constraint (then unset complies)."""
    default = setting.default
    if default is None:
        return False
    if comparison == "eq":
        return str(default).lower() in {str(v).lower() for v in values}
    number = int(default)
    if comparison == "le":
        return 0 < number <= values[0]
    if comparison == "ge":
        return number >= values[0]
    return values[0] <= number <= values[1]


def _explicit_word(text: str, setting: Setting) -> str | None:
    """``must be no`` / ``set to keep_logs`` spelled out next to the keyword."""
    m = re.search(
        rf"{re.escape(setting.key)}\b[^.]{{0,60}}?\b(?:be|to|is|=|:)\s+['\"`]?([A-Za-z_-]+)",
        text,
        re.I,
    )
    if m and m.group(1).lower() in {"yes", "no", "keep_logs", "rotate", "suspend", "ignore"}:
        return m.group(1).lower()
    return None


def _bool_setting(setting: Setting, on_means_safe: bool):
    """A yes/no keyword; the text's polarity decides when the value is not spelled out."""

    def build(text: str) -> ConfigSetting:
        value = _explicit_word(text, setting)
        if value is None:
            wants_on = not negated(text) if on_means_safe else False
            value = "yes" if wants_on else "no"
            if on_means_safe and value != setting.safe:
                value = setting.safe  # "must ignore" vs "must never honour": both mean yes
        values = (value,)
        return ConfigSetting(
            family=setting.family,
            key=setting.key,
            comparison="eq",
            values=values,
            unset_complies=_complies(setting, "eq", values),
        )

    return build


def _numeric_setting(setting: Setting, default_bounds: tuple[Comparison, tuple[int, ...]]):
    def build(text: str) -> ConfigSetting | None:
        found = bounds(text) or default_bounds
        comparison, values = found
        if comparison == "le":
            # "within N" and "at most N": 0 (and -1) mean "no limit" for these settings
            comparison, values = "between", (1, values[0])
        return ConfigSetting(
            family=setting.family,
            key=setting.key,
            comparison=comparison,
            values=values,
            unset_complies=_complies(setting, comparison, values),
        )

    return build


def _word_setting(setting: Setting):
    def build(text: str) -> ConfigSetting:
        value = _explicit_word(text, setting) or setting.safe
        values = (value,)
        return ConfigSetting(
            family=setting.family,
            key=setting.key,
            comparison="eq",
            values=values,
            unset_complies=_complies(setting, "eq", values),
        )

    return build


def _sysctl_forwarding(text: str) -> tuple[ConfigSetting, ...]:
    keys = ["net.ipv4.ip_forward"]
    # both address families unless the text names IPv4 alone
    if re.search(r"ipv6", text, re.I) or not re.search(r"ipv4|ip_forward", text, re.I):
        keys.append("net.ipv6.conf.all.forwarding")
    # the kernel's default is 0 (no routing): a host that never sets the key complies
    return tuple(
        ConfigSetting(family="sysctl", key=k, comparison="eq", values=("0",), unset_complies=True)
        for k in dict.fromkeys(keys)
    )


_MODULE = re.compile(
    r"\b(?:the\s+)?[`'\"]?([a-z0-9_-]+)[`'\"]?\s+(?:kernel\s+)?module\b"
    r"|\bmodule\s+[`'\"]?([a-z0-9_-]+)"
    r"|\b(?:load|loading|insert)\s+[`'\"]?([a-z0-9_-]+)"
    # named by what modprobe does with it, or by the filesystem it mounts
    r"|\b(?:install\s+(?:rule|line|directive)\s+for|black-?list(?:ed|ing)?|deny-?list(?:ed|ing)?)"
    r"\s+[`'\"]?([a-z0-9_-]+)"
    r"|\b(?:mounting|mount)\s+(?:of\s+)?[`'\"]?([a-z0-9_-]+)[`'\"]?\s+file\s*systems?\b",
    re.I,
)
_NOT_MODULE_NAMES = {"kernel", "the", "a", "this", "that", "pam", "each", "every", "any", "it",
                     "is", "are", "rule", "rules", "module", "modules"}  # fmt: skip


def _module_disabled(text: str) -> ModuleDisabledCheck | None:
    for m in _MODULE.finditer(text):
        name = next((g for g in m.groups() if g), "").lower()
        if name and name not in _NOT_MODULE_NAMES:
            blacklisted = bool(re.search(r"\bblack-?list|\bdeny-?list", text, re.I))
            return ModuleDisabledCheck(module=name, blacklisted=blacklisted)
    return None


def _pwquality_minlen(text: str) -> ConfigSetting | None:
    found = bounds(text)
    if found is None:
        m = re.search(r"\bminlen\s*(?:=|of|to)?\s*(\d+)", text, re.I)
        found = ("ge", (int(m.group(1)),)) if m else None
    if found is None or found[0] != "ge":
        return None
    pam = re.findall(r"/etc/pam\.d/[\w-]+", text) or [
        "/etc/pam.d/system-auth",
        "/etc/pam.d/password-auth",
    ]
    return ConfigSetting(
        family="pwquality",
        key="minlen",
        comparison="ge",
        values=found[1],
        # libpwquality's built-in minimum length is 8 (9 with credits): shorter than any CIS value
        unset_complies=False,
        pam_files=tuple(dict.fromkeys(pam)),
    )


SSH = words(r"\bssh", r"\bsecure\s+shell\b", r"sshd")

CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "kernel-module-disabled",
        (
            words(
                r"\bkernel\s+modules?\b",
                r"\bmodprobe\b",
                r"\bmodule\b.{0,40}\b(load|insert)",
                r"\bmounting\s+(of\s+)?\S+\s+file\s*systems?\b.{0,40}\bdisabled\b",
            ),
        ),
        _module_disabled,
    ),
    Concept(
        "pwquality-minlen",
        (
            words(
                r"pwquality",
                r"\bminlen\b",
                r"\bpasswords?\b.{0,40}\b(long|length|characters)\b",
            ),
        ),
        _pwquality_minlen,
    ),
    Concept(
        "sshd-x11-forwarding",
        (
            words(
                r"\bX11",
                r"\bX\s+(window\s+)?forwarding\b",
                r"\bgraphical\s+forwarding\b",
                r"\b(forward\w*|tunnel\w*)\b.{0,40}\b(graphical|gui|display)\b",
            ),
        ),
        _bool_setting(SSHD["x11"], on_means_safe=False),
    ),
    Concept(
        "sshd-ignore-rhosts",
        (words(r"rhosts", r"shosts", r"\btrusted\s+hosts?\s+files?\b"),),
        _bool_setting(SSHD["rhosts"], on_means_safe=True),
    ),
    Concept(
        "sshd-max-auth-tries",
        (
            words(
                r"MaxAuthTries",
                r"\b(authentication|auth|login|password)\s+(attempts|tries|retries)\b",
                r"\b(attempts|tries)\s+to\s+(authenticate|log\s*in)\b",
            ),
        ),
        _numeric_setting(SSHD["max-auth"], ("le", (4,))),
    ),
    Concept(
        "sshd-login-grace-time",
        (
            words(
                r"LoginGraceTime",
                r"\bgrace\s+(time|period)\b",
                r"\b(not|un)\s*authenticated\s+(within|after|in)\b",
                r"\bauthenticate\s+within\b",
            ),
        ),
        _numeric_setting(SSHD["grace"], ("le", (60,))),
    ),
    Concept(
        "sshd-permit-root-login",
        (
            words(
                r"PermitRootLogin", r"\broot\b.{0,30}\blog\s*-?\s*in", r"\broot\s+log\s*-?ins?\b"
            ),
            SSH,
        ),
        _word_setting(SSHD["root"]),
    ),
    Concept(
        "sshd-permit-empty-passwords",
        (words(r"PermitEmptyPasswords", r"\b(empty|blank|null)\s+passwords?\b"), SSH),
        _bool_setting(SSHD["empty"], on_means_safe=False),
    ),
    Concept(
        "login-defs-pass-max-days",
        (
            words(
                r"PASS_MAX_DAYS",
                r"\bpasswords?\b.{0,40}\b(expire|expiry|expiration|maximum\s+age|lifetime)\b",
                r"\b(maximum|max)\s+password\s+age\b",
            ),
        ),
        _numeric_setting(LOGIN_DEFS["max-days"], ("between", (1, 365))),
        none_of=words(r"\bwarn"),
    ),
    Concept(
        "login-defs-pass-warn-age",
        (words(r"PASS_WARN_AGE", r"\bwarn\w*\b.{0,60}\bpasswords?\b", r"\bpassword\s+warning"),),
        _numeric_setting(LOGIN_DEFS["warn-age"], ("ge", (7,))),
    ),
    Concept(
        "auditd-keep-logs",
        (
            words(r"max_log_file_action", r"\baudit"),
            words(r"keep_logs", r"\b(delete|overwrite|rotate|discard|remove)\w*\b", r"\bkeep"),
        ),
        _word_setting(AUDITD["keep-logs"]),
    ),
    Concept(
        "sysctl-ip-forwarding",
        (
            words(
                r"ip_forward",
                r"\bforwarding\b",
                r"\broute\s+packets\b",
                r"\b(act|work)\s+as\s+a\s+router\b",
            ),
        ),
        _sysctl_forwarding,
        none_of=words(r"\bX11", r"\bssh"),
    ),
)
