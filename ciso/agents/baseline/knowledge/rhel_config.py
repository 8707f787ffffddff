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
from ciso.agents.baseline.knowledge.number_words import WORD_NUMBER, word_value


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
    "sessions": Setting("sshd", "MaxSessions", 10, "int"),
    # 0: sshd never probes an idle client, so nothing disconnects it
    "alive": Setting("sshd", "ClientAliveInterval", 0, "time"),
    "banner": Setting("sshd", "Banner", "none", "word"),
    # RHEL 9's DEFAULT crypto policy offers no CBC cipher to SSH clients
    "ciphers": Setting("sshd", "Ciphers", "", "list"),
}
LOGIN_DEFS = {
    "max-days": Setting("login.defs", "PASS_MAX_DAYS", None, "int"),
    "warn-age": Setting("login.defs", "PASS_WARN_AGE", None, "int"),
    "min-days": Setting("login.defs", "PASS_MIN_DAYS", None, "int"),
}
AUDITD = {"keep-logs": Setting("auditd", "max_log_file_action", "rotate", "word", "keep_logs")}

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
    "month": 30,
    "year": 365,
}
#: a number in digits or words; "a"/"an" count as one only before a unit ("within a year")
_NUM = (
    rf"(\d+|\b(?:{WORD_NUMBER})\b|\ban?(?=\s+(?:second|sec|minute|min|hour|day|week|month|year)))"
)


def _number(token: str) -> int:
    """``365``, ``fourteen``, ``three hundred and sixty-five``, ``a`` (before a unit) as int."""
    token = token.lower().strip()
    if token.isdigit():
        return int(token)
    if token in ("a", "an"):
        return 1
    return word_value(token)


def _quantity(match: re.Match[str], number_group: int, unit_group: int) -> int:
    value = _number(match.group(number_group))
    unit = (match.group(unit_group) or "").lower()
    if unit:
        unit = unit.rstrip("s") or "s"
        value *= _UNITS.get(unit, _UNITS.get(unit + "s", 1))
    return value


_UNIT = (
    r"\s*(seconds?|secs?|minutes?|mins?|hours?|days?|weeks?|months?|years?|characters?|chars?|"
    r"attempts?|tries)?\b"
)
#: phrases that state the bound itself ("at most 4", "4 or fewer", "a maximum of 4")
_UPPER = (
    rf"(?:at\s+most|no\s+more\s+than|not\s+more\s+than|(?:a\s+)?maximum\s+(?:[a-z]+\s+){{0,2}}"
    rf"(?:of|is)|max(?:imum)?\s+of|up\s+to|within|less\s+than\s+or\s+equal\s+to|"
    rf"no\s+(?:longer|later|higher|greater|bigger)\s+than|not\s+(?:above|over)|"
    rf"not\s+exceed(?:ing)?|(?:must|may|should|shall)\s+not\s+exceed)\s+{_NUM}{_UNIT}"
)
_UPPER_AFTER = (
    rf"{_NUM}{_UNIT}\s+(?:or\s+(?:less|fewer|lower|below|shorter|sooner)|at\s+(?:the\s+)?most)"
)
_LOWER = (
    rf"(?:at\s+least|no\s+less\s+than|not\s+less\s+than|(?:a\s+)?minimum\s+(?:[a-z]+\s+){{0,2}}"
    rf"(?:of|is)|min(?:imum)?\s+of|no\s+fewer\s+than|no\s+(?:shorter|lower|smaller)\s+than|"
    rf"not\s+(?:below|under)|greater\s+than\s+or\s+equal\s+to)\s+{_NUM}{_UNIT}"
)
_LOWER_AFTER = (
    rf"{_NUM}{_UNIT}\s+(?:or\s+(?:more|greater|higher|above|longer|later)|at\s+(?:the\s+)?least)"
)
_RANGE = (
    rf"(?:between|from|range\s+(?:of\s+)?)\s+{_NUM}{_UNIT}\s+(?:and|to|through|-)\s+{_NUM}{_UNIT}"
)
#: strict comparisons; what they mean depends on whether the sentence states a failure
_BELOW = rf"(?:below|under|less\s+than|fewer\s+than|shorter\s+than|lower\s+than|smaller\s+than)\s+{_NUM}{_UNIT}"
_ABOVE = (
    rf"(?:above|over|more\s+than|greater\s+than|longer\s+than|higher\s+than|exceeds?|exceeding)"
    rf"\s+{_NUM}{_UNIT}"
)
#: "fails when", "is a finding", "must be refused": the sentence describes what violates
_FAILURE = re.compile(
    r"\bfail\w*\s+(?:when|if|whenever)\b|\bfindings?\b|\bviolat\w*|\brefused?\b|\brejected?\b|"
    r"\bnon-?compliant\b|\bnot\s+(?:allowed|permitted|accepted)\b|\bflag(?:ged)?\b|"
    # "must not allow more than ten": the comparison names what is forbidden
    r"\b(?:must|may|should|shall|can)\s*(?:not|n't)\s+(?:allow|permit|accept|offer|have|be)\b",
    re.I,
)


def _sentence_at(text: str, position: int) -> tuple[str, int]:
    """The sentence around ``position`` and the offset of ``position`` in it."""
    start = max(text.rfind(". ", 0, position), text.rfind(": ", 0, position))
    start = start + 2 if start >= 0 else 0
    end = text.find(". ", position)
    return text[start : end if end >= 0 else len(text)], position - start


def _states_failure(text: str, position: int) -> bool:
    """Whether the comparison at ``position`` describes the violating values ("fails when it is
    below 14", "shorter than 14 must be refused") rather than the compliant ones ("fails unless
    it is above 0")."""
    sentence, at = _sentence_at(text, position)
    if not _FAILURE.search(sentence):
        return False
    return not re.search(r"\bunless\b|\bonly\s+if\b", sentence[:at], re.I)


def bounds(text: str) -> tuple[Comparison, tuple[int, ...]] | None:
    """The numeric constraint of a requirement: at most / no more than / N or less / between /
    from N to M / within / at least / N or more, and strict bounds read by the sentence's
    polarity ("fails when below 14": at least 14). Numbers may be words; units are converted
    to seconds (times) or days (ages)."""
    t = text.lower()
    between = re.search(_RANGE, t)
    if between:
        high = _number(between.group(3))
        high_unit = (between.group(4) or between.group(2) or "").lower()
        if high_unit:
            high *= _UNITS.get(high_unit.rstrip("s") or "s", 1)
        return "between", (_quantity(between, 1, 2), high)
    upper = re.search(_UPPER, t) or re.search(_UPPER_AFTER, t)
    if upper:
        return "le", (_quantity(upper, 1, 2),)
    lower = re.search(_LOWER, t) or re.search(_LOWER_AFTER, t)
    if lower:
        return "ge", (_quantity(lower, 1, 2),)
    below = re.search(_BELOW, t)
    if below:
        value = _quantity(below, 1, 2)
        return ("ge", (value,)) if _states_failure(t, below.start()) else ("le", (value - 1,))
    above = re.search(_ABOVE, t)
    if above:
        value = _quantity(above, 1, 2)
        return ("le", (value,)) if _states_failure(t, above.start()) else ("ge", (value + 1,))
    return None


def _complies(setting: Setting, comparison: Comparison, values: tuple[Any, ...]) -> bool:
    """Whether the platform default satisfies the constraint (then unset complies)."""
    default = setting.default
    if default is None:
        return False
    if comparison == "eq":
        return str(default).lower() in {str(v).lower() for v in values}
    if comparison == "excludes":
        return not any(str(v).lower() in str(default).lower() for v in values)
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


def timeout_bounds(text: str) -> tuple[Comparison, tuple[int, ...]] | None:
    """The bound of a timeout: always an upper one. "Drop a client idle for longer than ten
    minutes" names the time after which the action must have happened, so the setting is at most
    that, whatever the sentence's polarity says of a plain number."""
    t = text.lower()
    if not (re.search(_RANGE, t) or re.search(_UPPER, t) or re.search(_UPPER_AFTER, t)):
        above = re.search(_ABOVE, t)
        if above:
            return "le", (_quantity(above, 1, 2),)
    found = bounds(text)
    if found is not None and found[0] == "ge":
        return "le", found[1]
    return found


def _numeric_setting(
    setting: Setting,
    default_bounds: tuple[Comparison, tuple[int, ...]],
    reader: Any = bounds,
):
    def build(text: str) -> ConfigSetting | None:
        found = reader(text) or default_bounds
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


def _banner(text: str) -> ConfigSetting:
    """The file sshd shows before authentication: the path the text names (CIS: /etc/issue.net),
    else any value but ``none`` (sshd's default, no banner)."""
    path = re.search(r"(/[\w.-]+(?:/[\w.-]+)*[\w])", text)
    setting = SSHD["banner"]
    if path:
        return ConfigSetting(setting.family, setting.key, "eq", (path.group(1),), False)
    return ConfigSetting(setting.family, setting.key, "excludes", ("none",), False)


#: cipher families a text may rule out, as the words name them and as OpenSSH spells them
_CIPHER_FAMILIES = {
    r"\bcbc\b|\bcipher[\s-]+block[\s-]+chaining\b": "cbc",
    r"\barcfour\b|\brc4\b": "arcfour",
    r"\b3des\b|\btriple[\s-]+des\b": "3des",
}


def _ciphers(text: str) -> ConfigSetting | None:
    """``Ciphers`` must offer no cipher of the families the text rules out. RHEL 9's crypto
    policy offers none of them when sshd_config sets nothing, so unset complies."""
    banned = tuple(
        name for pattern, name in _CIPHER_FAMILIES.items() if re.search(pattern, text, re.I)
    )
    if not banned:
        return None
    return ConfigSetting("sshd", "Ciphers", "excludes", banned, True)


def _sysctl_redirects(text: str) -> tuple[ConfigSetting, ...]:
    """Ignoring ICMP redirects is ``accept_redirects = 0`` for every interface and for the
    default of new ones; the kernel accepts redirects when nothing sets it (unset violates)."""
    families = ["ipv4", "ipv6"]
    if re.search(r"ipv4", text, re.I) and not re.search(r"ipv6", text, re.I):
        families = ["ipv4"]
    elif re.search(r"ipv6", text, re.I) and not re.search(r"ipv4", text, re.I):
        families = ["ipv6"]
    keys = [f"net.{f}.conf.{i}.accept_redirects" for f in families for i in ("all", "default")]
    return tuple(ConfigSetting("sysctl", k, "eq", ("0",), False) for k in keys)


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


_Q = "[`'\"]?"
#: the ways a text names the module, each tried at every position (the name is group 1)
_MODULE_NAMES = tuple(
    re.compile(p, re.I)
    for p in (
        rf"\b(?:the\s+)?{_Q}([a-z0-9_-]+){_Q}\s+(?:kernel\s+)?module\b",
        rf"\bmodule\s+{_Q}([a-z0-9_-]+)",
        rf"\b(?:load|loading|insert)\s+{_Q}([a-z0-9_-]+)",
        # named by what modprobe does with it, or by the filesystem it mounts
        rf"\b(?:install\s+(?:rule|line|directive)\s+for|black-?list(?:ed|ing)?|deny-?list(?:ed|ing)?)"
        rf"\s+{_Q}([a-z0-9_-]+)",
        rf"\b(?:mounting|mount)\s+(?:of\s+)?{_Q}([a-z0-9_-]+){_Q}\s+file\s*systems?\b",
        # the directive quoted ("the first 'install udf' rule"), or the module as the subject of
        # "is blacklisted" / "must be blacklisted" / "must not load"
        r"[`'\"](?:install|blacklist)\s+([a-z0-9_-]+)",
        rf"\b([a-z0-9_-]+){_Q}\s+(?:(?:must|should|shall|has\s+to|needs?\s+to)\s+)?(?:is|be|are)\s+"
        r"(?:black|deny)-?listed\b",
        rf"\b([a-z0-9_-]+){_Q}\s+(?:must|may|should|shall|can)\s*(?:not|never|n't)\s+(?:be\s+)?load",
        # the module's name in parentheses after the driver it is ("the kernel driver for USB
        # mass storage (usb-storage)")
        rf"\b(?:driver|module)\b[^.;()]{{0,50}}\(\s*{_Q}([a-z0-9_-]+){_Q}\s*\)",
    )
)
_NOT_MODULE_NAMES = {"kernel", "the", "a", "an", "of", "this", "that", "pam", "each", "every", "any",
                     "it", "its", "is", "are", "rule", "rules", "module", "modules", "modprobe",
                     "host", "system", "which", "what", "nothing", "one", "none", "must", "should",
                     "shall", "may", "can", "also", "and", "not", "never", "to", "too"}  # fmt: skip


def _module_disabled(text: str) -> ModuleDisabledCheck | None:
    """The module the text names first, whichever way it names it."""
    found = sorted(
        (m.start(1), m.group(1).lower()) for p in _MODULE_NAMES for m in p.finditer(text)
    )
    for _, name in found:
        if name not in _NOT_MODULE_NAMES:
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
                r"\bkernel\b.{0,30}\bload\b",
                r"\bdriver\b.{0,60}\bload",
                r"\binstall\s+(rule|line|directive)\b",
                r"\bblack-?list(ed)?\b",
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
        # a text that spells another pwquality option (and not minlen) is about that option
        none_of=words(
            r"^(?!.*\bminlen\b).*\b(minclass|[dulo]credit|maxrepeat|maxsequence|maxclassrepeat|"
            r"difok|dictcheck|usercheck)\b"
        ),
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
                r"PermitRootLogin",
                r"\broot\b.{0,30}\blog\s*-?\s*in",
                r"\broot\s+log\s*-?ins?\b",
                # the login named by the account it reaches: "log in ... as root"
                r"\blog\s*-?\s*in\b.{0,40}\bas\s+(the\s+)?(root|superuser)\b",
            ),
            SSH,
        ),
        _word_setting(SSHD["root"]),
    ),
    Concept(
        "sshd-permit-empty-passwords",
        (
            words(
                r"PermitEmptyPasswords",
                r"\b(empty|blank|null)\s+passwords?\b",
                r"\bpasswords?\s+(is\s+|are\s+)?(empty|blank|null)\b",
                r"\bwithout\s+(a\s+)?password\b",
            ),
            SSH,
        ),
        _bool_setting(SSHD["empty"], on_means_safe=False),
    ),
    Concept(
        "sshd-max-sessions",
        (
            words(
                r"MaxSessions",
                r"\bsessions?\s+(per|over\s+one|on\s+one|on\s+a\s+single)\s+(network\s+)?connection\b",
                r"\b(multiplexed|concurrent|simultaneous|open)\s+(shell\s+)?sessions\b",
            ),
            SSH,
        ),
        _numeric_setting(SSHD["sessions"], ("le", (10,))),
    ),
    Concept(
        "sshd-client-alive-interval",
        (
            words(
                r"ClientAlive",
                r"\bidle\b.{0,60}\b(sessions?|connections?)\b",
                r"\b(sessions?|connections?)\b.{0,60}\bidle\b",
                r"\binactiv\w*\b.{0,60}\b(sessions?|connections?)\b",
                r"\b(unresponsive|silent|idle|inactive)\s+clients?\b",
                r"\bclients?\b.{0,30}\b(idle|inactive|unresponsive|silent)\b",
            ),
            SSH,
        ),
        _numeric_setting(SSHD["alive"], ("le", (900,)), timeout_bounds),
    ),
    Concept(
        "sshd-banner",
        (
            words(
                r"\bBanner\b",
                r"\b(legal|warning|login|pre-?login)\s+(warning|notice|text|message|banner)\b",
                r"/etc/issue(\.net)?\b",
            ),
            SSH,
        ),
        _banner,
    ),
    Concept(
        "sshd-ciphers",
        (words(r"\bciphers?\b", r"\bcbc\b", r"\bcipher[\s-]+block[\s-]+chaining\b"), SSH),
        _ciphers,
    ),
    Concept(
        "login-defs-pass-min-days",
        (
            words(
                r"PASS_MIN_DAYS",
                r"\bminimum\s+(password\s+)?age\b",
                r"\bwait\b.{0,60}\bchang\w*\b.{0,40}\bpasswords?\b",
                r"\bpasswords?\b.{0,80}\bwait\b",
                r"\bchang\w*\s+(it|their\s+password|a\s+password)\s+again\b",
            ),
        ),
        _numeric_setting(LOGIN_DEFS["min-days"], ("ge", (1,))),
        none_of=words(r"PASS_MAX_DAYS", r"PASS_WARN_AGE"),
    ),
    Concept(
        "sysctl-icmp-redirects",
        (words(r"accept_redirects", r"\b(icmp\s+)?redirect(s|\s+messages)\b"),),
        _sysctl_redirects,
        none_of=words(r"send_redirects", r"\bsend(ing)?\s+(icmp\s+)?redirects\b"),
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
                # routing said by what it does: packets passed between interfaces
                r"\bnot\s+(a\s+)?routers?\b",
                r"\b(pass|forward|relay)\w*\s+(\w+\s+){0,4}packets\s+from\s+one\s+"
                r"(network\s+)?interface\s+to\s+another\b",
            ),
        ),
        _sysctl_forwarding,
        none_of=words(r"\bX11", r"\bssh"),
    ),
)
