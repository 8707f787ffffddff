"""RHEL 9 controls stated by their effect ("addresses must be randomised", "lock an account after
five failures", "logs survive a reboot"): the phrases of an effect, and the setting of the
configuration family that produces it, with its polarity and the daemon's default when unset.

The families are read as their daemon or tool reads them (templates/collect_host_families.py.j2):
- ``sysctl``: systemd-sysctl's drop-ins (see rhel_config); ``modprobe``: the FIRST install rule.
- ``faillock``/``pwhistory``: the module's own file, then each line of the PAM stacks that calls
  the module, whose ``key=value`` arguments take precedence over the file for that line.
- ``journald``: journald.conf, then the drop-ins of journald.conf.d (/usr/lib, /run, /etc; /etc
  hides a same-named file) in name order, the later assignment winning; [Journal] keys only.
- ``chrony``: chrony.conf with its ``include``, ``confdir`` and ``sourcedir`` files in place;
  every server, pool and peer line is a time source (key ``source``).
- ``sudoers``: /etc/sudoers with #include(dir)/@include(dir) in place (a file name with a dot or a
  trailing ``~`` is skipped), ``Defaults`` options split on commas, ``!opt`` is off; a Defaults
  line for some users, hosts or commands overrides for those, so it must comply too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ciso.agents.baseline.intent import ConfigSetting, ModuleDisabledCheck
from ciso.agents.baseline.knowledge import OTHER_CONTROL, Concept, negated, rhel_generic, words
from ciso.agents.baseline.knowledge.rhel_config import _NUM, SSH, _number, _quantity, bounds

#: the spellings of a true/false option each family accepts (compared in lower case)
YES = ("yes", "true", "1", "on")
NO = ("no", "false", "0", "off")


@dataclass(frozen=True)
class Effect:
    """One effect a text may state, and the setting that produces it."""

    #: phrases that state the effect (any one)
    phrases: tuple[re.Pattern[str], ...]
    family: str
    key: str
    #: the compliant values (``eq``)
    values: tuple[str, ...]
    #: the value the kernel or daemon uses when nothing sets it is compliant
    unset_complies: bool
    #: that value, where more than one value complies: a text spelling a narrower value may keep
    #: it ("perf_event_paranoid configured as 2") or leave it out ("... as 3")
    default: str | None = None


# ---- sysctl: kernel behaviour by its effect --------------------------------------------------

#: the kernel's log as a noun: "the kernel log buffer", "the kernel's own log", "what the kernel
#: logs." (the verb with an object, "the kernel logs martian packets", is another setting)
_KERNEL_LOG = (
    r"\bkernel('s)?\s+(own\s+)?(log|message|ring)s?(\s+(messages?|(ring\s+)?buffer))?"
    r"(?=\s*([.,;:)]|$)|\s+(to|from|by|for|of|unless|except|and|or|is|are|must|should|may|can|"
    r"has|have|stays?|remains?|readable|visible|accessible|hidden|private|restricted)\b)"
)
#: reading or reaching it: who may see the log is what dmesg_restrict decides
_READS_LOG = (
    r"\b(read\w*|view\w*|see|seeing|access\w*|inspect\w*|display\w*|page\s+through|look\s+at|"
    r"show\w*)\b"
)

_SYSCTL_EFFECTS: tuple[Effect, ...] = (
    # 2 randomises stack, mmap base, shared libraries AND the heap (brk); 2 is the kernel's default
    Effect(
        words(
            r"\brandomi[sz]\w*\b.{0,80}\b(address|memory|layout|stack|heap|librar\w*|mmap)",
            r"\b(address|memory)[\s-]+(space\s+)?layout\b.{0,60}\brandom",
            # the regions named first: "where the stack and heap land ... chosen at random"
            r"\b(stack|heap|librar\w*|mmap|addresses)\b.{0,100}\b(at\s+random|randomi[sz]\w*|randomly)\b",
            r"\bASLR\b",
        ),
        "sysctl",
        "kernel.randomize_va_space",
        ("2",),
        True,
    ),
    Effect(
        words(r"\bkernel\s+(pointers?|addresses)\b.{0,80}\b(hid|expos|leak|reveal|print|show)\w*"),
        "sysctl",
        "kernel.kptr_restrict",
        ("1", "2"),
        False,
    ),
    Effect(
        words(
            r"\b(kernel\s+(message\s+)?(ring\s+)?buffer|dmesg|kernel\s+log\s+messages)\b",
            # "read the kernel log buffer", "page through the kernel's log", "view what the
            # kernel logs"; "the kernel logs martian packets" reads nothing
            _READS_LOG + r"[^.;]{0,60}" + _KERNEL_LOG,
            _KERNEL_LOG + r"[^.;]{0,40}\b(readable|visible|accessible|hidden|read|viewed)\b",
        ),
        "sysctl",
        "kernel.dmesg_restrict",
        ("1",),
        False,
    ),
    Effect(
        words(
            r"\bptrace\b", r"\b(trace|attach\s+to|debug)\b.{0,40}\b(other\s+|another\s+)?process"
        ),
        "sysctl",
        "kernel.yama.ptrace_scope",
        ("1", "2", "3"),
        False,
    ),
    Effect(
        words(
            r"\bcore\s+dumps?\b.{0,80}\b(setuid|suid|privileged|elevated)\b",
            r"\b(setuid|suid)\b.{0,80}\bcore\s+dumps?\b",
            # "programs that changed their privileges (set-user-ID ...) must never be dumped"
            r"\b(set-?user-?id|setuid|suid|chang\w*\s+(their\s+)?privileges?)\b.{0,80}\bdump",
        ),  # fmt: skip
        "sysctl",
        "fs.suid_dumpable",
        ("0",),
        True,
    ),
    # 1 and 2 both refuse unprivileged BPF (2, RHEL 9's default, may be lowered at run time)
    Effect(
        words(
            r"\bunprivileged\b.{0,80}\b(e?bpf)\b",
            r"\b(e?bpf)\b.{0,80}\bunprivileged\b",
            r"\bunprivileged_bpf_disabled\b",
        ),  # fmt: skip
        "sysctl",
        "kernel.unprivileged_bpf_disabled",
        ("1", "2"),
        True,
        default="2",
    ),
    # 2 (RHEL 9's default): an unprivileged user measures only its own processes in user space
    Effect(
        words(r"\bperformance\s+(events?|counters?|monitoring)\b", r"\bperf_event_paranoid\b"),
        "sysctl",
        "kernel.perf_event_paranoid",
        ("2", "3"),
        True,
        default="2",
    ),
    Effect(
        words(r"\bsyn\s*(flood|cookies)\b", r"\btcp_syncookies\b"),
        "sysctl",
        "net.ipv4.tcp_syncookies",
        ("1",),
        True,
    ),
    Effect(
        words(
            r"\bbroadcast\b.{0,60}\b(ping|echo|icmp)", r"\b(ping|echo|icmp)\w*\b.{0,60}\bbroadcast"
        ),
        "sysctl",
        "net.ipv4.icmp_echo_ignore_broadcasts",
        ("1",),
        True,
    ),
    # fs.protected_*: what the kernel refuses in sticky world-writable directories (/tmp); 1 is
    # systemd's 50-default.conf value, the bare kernel's is 0; fifos and regular files also take
    # 2 (group-writable sticky directories too)
    Effect(
        words(
            r"\b(symbolic\s+links?|symlinks?)\b.{0,400}\b(sticky|world-writable)\b",
            r"\b(sticky|world-writable)\b.{0,400}\b(symbolic\s+links?|symlinks?)\b",
            r"\bprotected_symlinks\b",
        ),
        "sysctl",
        "fs.protected_symlinks",
        ("1",),
        False,
    ),
    Effect(
        words(
            r"\bhard\s*links?\b.{0,160}\b(own|access|permission)",
            r"\bprotected_hardlinks\b",
        ),
        "sysctl",
        "fs.protected_hardlinks",
        ("1",),
        False,
    ),
    Effect(
        words(
            r"\b(named\s+pipes?|fifos?)\b.{0,400}\b(sticky|world-writable)\b",
            r"\b(sticky|world-writable)\b.{0,400}\b(named\s+pipes?|fifos?)\b",
            r"\bprotected_fifos\b",
        ),
        "sysctl",
        "fs.protected_fifos",
        ("1", "2"),
        False,
    ),
    Effect(
        words(
            r"\b(regular|ordinary)\s+files?\b.{0,60}\b(sticky|world-writable)\b.{0,60}\b(refus|open)",
            r"\bprotected_regular\b",
        ),
        "sysctl",
        "fs.protected_regular",
        ("1", "2"),
        False,
    ),
    Effect(
        words(r"\bbogus\b.{0,40}\b(icmp|error)", r"\bmalformed\s+icmp\s+error"),
        "sysctl",
        "net.ipv4.icmp_ignore_bogus_error_responses",
        ("1",),
        True,
    ),
)

#: effects stated for every interface and for the default of new ones
_PER_INTERFACE: tuple[tuple[tuple[re.Pattern[str], ...], str, tuple[str, ...], bool], ...] = (
    (words(r"\bmartian", r"\bimpossible\s+(source\s+)?addresses\b"), "log_martians", ("1",), False),
    (words(r"\bsource[\s-]+rout\w*"), "accept_source_route", ("0",), False),
    (words(r"\breverse[\s-]+path\b", r"\brp_filter\b"), "rp_filter", ("1",), False),
    (
        words(r"\bsend\w*\s+(icmp\s+)?redirects?\b", r"\bsend_redirects\b"),
        "send_redirects",
        ("0",),
        False,
    ),
    (words(r"\brouter\s+advertisements?\b", r"\baccept_ra\b"), "accept_ra", ("0",), False),
)


#: systemd-coredump, "the crash collector": Storage=none keeps no core, ProcessSizeMax=0 processes
#: none (defaults external and 2G, so unset violates)
_CRASH_COLLECTOR = words(
    r"\b(crash|core)[\s-]*(dump\s+)?(collector|handler)\b", r"\bsystemd-coredump\b",
    r"\bcoredump\.conf\b",
)  # fmt: skip


def _crash_collector(text: str) -> list[ConfigSetting]:
    if not any(p.search(text) for p in _CRASH_COLLECTOR):
        return []
    found = [ConfigSetting("coredump", "Storage", "eq", ("none",), False)]
    if re.search(r"\bprocess", text, re.I):
        found.append(ConfigSetting("coredump", "ProcessSizeMax", "eq", ("0",), False))
    return found


#: the kernel's value for a key nothing sets, where more than one value has the effect
_DEFAULTS = {e.key: e.default for e in _SYSCTL_EFFECTS if e.default is not None}


def _narrowed(effect: ConfigSetting, spelled: tuple[ConfigSetting, ...]) -> ConfigSetting:
    """The effect's setting, or the value the text spells for its key when that value is one
    of the effect's and not all of them ("configured as 3" of perf_event_paranoid's 2 or 3); an
    unset key keeps complying when the effect said so and the kernel's default is still among
    the values the text kept (an auditor asking for 2 accepts a host that leaves the default 2)."""
    (value,) = spelled if len(spelled) == 1 else (None,)
    if value is None or value.comparison != "eq" or not set(value.values) < set(effect.values):
        return effect
    kept = effect.unset_complies and _DEFAULTS.get(effect.key) in value.values
    return replace(value, unset_complies=kept)


def _sysctl(text: str) -> tuple[ConfigSetting, ...] | None:
    settings = [
        ConfigSetting(e.family, e.key, "eq", e.values, e.unset_complies)
        for e in _SYSCTL_EFFECTS
        if any(p.search(text) for p in e.phrases)
    ]
    settings += _crash_collector(text)
    # keys the text spells beside the effects it describes ("kernel.yama.ptrace_scope must be 1
    # or higher ... hard link protection"): each read as the generic reading reads it
    sysctl = next(f for f in rhel_generic.FAMILIES if f.name == "sysctl")
    described = {s.key for s in settings}
    for key in dict.fromkeys(m.group(0) for m in sysctl.keys.finditer(text)):
        if "*" in key or _other_control(text, re.escape(key)):
            continue
        spelled = rhel_generic.setting(sysctl, key, text) or ()
        if key not in described:
            settings += spelled
        elif spelled:
            # the value the text gives the key it spells ("kernel.kptr_restrict configured as
            # 2") may be narrower than every value that has the effect
            settings = [_narrowed(s, spelled) if s.key == key else s for s in settings]
    for phrases, key, values, unset in _PER_INTERFACE:
        if not any(p.search(text) for p in phrases):
            continue
        families = ["ipv6"] if key == "accept_ra" else ["ipv4"]
        if key in ("accept_source_route",) and not re.search(r"ipv4", text, re.I):
            families.append("ipv6")
        settings += [
            ConfigSetting("sysctl", f"net.{f}.conf.{i}.{key}", "eq", values, unset)
            for f in families
            for i in ("all", "default")
        ]
    return tuple(settings) or None


# ---- modprobe: kernel support a host must never load -----------------------------------------

#: the modules of a class of rarely needed kernel support, as CIS lists them
RARE_PROTOCOLS = ("dccp", "sctp", "rds", "tipc")
RARE_FILESYSTEMS = ("cramfs", "freevxfs", "hfs", "hfsplus", "jffs2", "squashfs", "udf")
KNOWN_MODULES = (*RARE_PROTOCOLS, *RARE_FILESYSTEMS, "usb-storage", "firewire-core", "bluetooth")

_RARE_PROTOCOLS = words(
    r"\b(uncommon|rare(ly)?|seldom|unused|unneeded|obscure|less\s+common)\b[\w\s-]{0,20}\b"
    r"(network(ing)?\s+)?protocols?\b"
)
_RARE_FILESYSTEMS = words(
    r"\b(uncommon|rare(ly)?|seldom|unused|unneeded|obscure|legacy)\b[\w\s-]{0,20}\bfile\s*systems?\b"
)


def _named_modules(text: str) -> list[str]:
    found = [
        (m.start(), name)
        for name in KNOWN_MODULES
        for m in [re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I)]
        if m is not None
    ]
    return [name for _, name in sorted(found)]


def _blacklist_required(text: str) -> bool:
    """A blacklist line is required only when the text asks for one, not when it says a blacklist
    alone is not enough."""
    if not re.search(r"\bblack-?list|\bdeny-?list", text, re.I):
        return False
    return not re.search(
        r"\bblack-?list\w*(\s+\w+){0,2}\s+alone\b|\bnot\s+(enough|sufficient)\b|"
        r"\bdoes\s+not\s+(meet|suffice|satisfy)\b|\bis\s+insufficient\b",
        text,
        re.I,
    )


def _modules(text: str) -> tuple[ModuleDisabledCheck, ...] | None:
    named = _named_modules(text)
    if not named:
        if any(p.search(text) for p in _RARE_PROTOCOLS):
            named = list(RARE_PROTOCOLS)
        elif any(p.search(text) for p in _RARE_FILESYSTEMS):
            named = list(RARE_FILESYSTEMS)
    if not named:
        return None
    blacklisted = _blacklist_required(text)
    return tuple(ModuleDisabledCheck(module=m, blacklisted=blacklisted) for m in named)


def _several_modules(text: str) -> bool:
    """Several modules named, or a class of them: one module alone is rhel_config's concept."""
    return len(_named_modules(text)) > 1 or any(
        p.search(text) for p in (*_RARE_PROTOCOLS, *_RARE_FILESYSTEMS)
    )


# ---- pam_faillock: lock an account after failures --------------------------------------------

_PAM_STACKS = ("/etc/pam.d/system-auth", "/etc/pam.d/password-auth")
#: faillock's defaults: deny 3, unlock_time 600 s
_DENY_DEFAULT, _UNLOCK_DEFAULT = 3, 600
_FAILURES = (
    r"(?:\w+\s+){0,3}?(?:failed|failures?|unsuccessful|wrong|incorrect|invalid|bad|"
    r"consecutive)\b"
)
_TIME_UNIT = r"\s*(seconds?|secs?|minutes?|mins?|hours?|days?)\b"


def _pam_stacks(text: str) -> tuple[str, ...]:
    named = re.findall(r"/etc/pam\.d/[\w-]+", text)
    named += [
        f"/etc/pam.d/{m}" for m in re.findall(r"(?<![/\w-])(system-auth|password-auth)\b", text)
    ]
    return tuple(dict.fromkeys(named)) or _PAM_STACKS


def _deny_limit(text: str) -> int:
    """The most failures the text allows: the number of failures it names ("after five failed
    attempts"), else a bound it gives ("deny must be 4 or less"), else CIS's 5."""
    t = text.lower()
    failures = re.search(rf"{_NUM}\s+{_FAILURES}", t)
    if failures:
        return _number(failures.group(1))
    found = bounds(_clause(text, r"\bdeny\b|\bfail|\battempt|\btries\b"))
    if found is not None and found[0] in ("le", "between"):
        return int(found[1][-1])
    stated = re.search(r"\bdeny\b\D{0,30}?\b(\d+)\b", t)
    return int(stated.group(1)) if stated else 5


#: pam_faillock's options that are flags (present or absent, no value)
#: (audit and silent are ordinary words too: a text names them only as options by their file)
_FAILLOCK_FLAGS = ("even_deny_root", "no_log_info", "local_users_only", "nodelay")


def _other_control(text: str, subject: str) -> bool:
    """Whether every sentence naming ``subject`` says it is another control's business."""
    sentences = [s for s in re.split(r"(?<=[.;])\s+", text) if re.search(subject, s, re.I)]
    return bool(sentences) and all(OTHER_CONTROL.search(s) for s in sentences)


def _faillock(text: str) -> tuple[ConfigSetting, ...] | None:
    t = text.lower()
    # a text about the effect judges the PAM stacks too (their pam_faillock arguments win over
    # faillock.conf); one that names faillock's option and no PAM file judges faillock.conf
    names_pam = re.search(r"\bpam\b|pam\.d|system-auth|password-auth|authselect|\bstacks?\b", t)
    pam = _pam_stacks(text) if names_pam or "faillock" not in t else ()
    settings: list[ConfigSetting] = []
    # "the number of allowed failures is another control": no bound on deny
    # a text naming only other options ("even_deny_root must be present") sets no deny bound
    speaks_of_failures = re.search(rf"\bdeny\b|\b{_FAILURES}|\battempts?\b|\btries\b|\bguess", t)
    if speaks_of_failures and not _other_control(
        text, r"\bnumber\s+of\s+(\w+\s+)?(fail\w*|attempts|tries)\b|\bdeny\b"
    ):
        limit = _deny_limit(text)
        settings.append(
            ConfigSetting("faillock", "deny", "between", (1, limit), limit >= _DENY_DEFAULT, pam)
        )
    # flags the text requires present (even_deny_root): a bare word in faillock.conf or on the
    # module's line, read as the empty value
    settings += [
        ConfigSetting("faillock", flag, "eq", ("",), False, pam)
        for flag in _FAILLOCK_FLAGS
        if re.search(rf"\b{flag}\b", text) and not _other_control(text, rf"\b{flag}\b")
    ]
    # root's own lock time when the text speaks of root being locked; unset, it is unlock_time
    # (default 600 s)
    key = (
        "root_unlock_time"
        if re.search(r"\broot\b[^.;]{0,40}\blocked\b|root_unlock_time", t)
        else "unlock_time"
    )
    # how long the lock lasts: a duration next to the words that name it
    lasting = re.search(
        r"\b(unlock\w*|(stay|remain|kept|stays|remains|be)\s+locked|lock(ed|out)?\s+"
        r"(for|duration|period|time)|locked\s+out\s+for)\b",
        t,
    )
    if lasting:
        duration = re.search(rf"{_NUM}{_TIME_UNIT}", t[lasting.start() :]) or re.search(
            rf"{_NUM}{_TIME_UNIT}", t
        )
        seconds = _quantity(duration, 1, 2) if duration else 900
        never = bool(re.search(r"\bnever\b|\b0\b|\bzero\b|\badministrator\b", t))
        settings.append(
            ConfigSetting(
                "faillock",
                key,
                "ge",
                (seconds,),
                seconds <= _UNLOCK_DEFAULT,
                pam,
                also_complies=("0", "never") if never else (),
            )
        )
    # other keys of faillock.conf the text names, read as the generic reading reads them
    faillock = next(f for f in rhel_generic.FAMILIES if f.name == "faillock")
    for key in ("fail_interval",):
        if re.search(rf"\b{key}\b", text):
            settings += [
                replace(s, pam_files=pam) for s in rhel_generic.setting(faillock, key, text) or ()
            ]
    return tuple(settings) or None


# ---- pam_pwquality: what a new password must be made of --------------------------------------

_KINDS = r"(?:kinds|classes|types|categories)"


def _pwquality(text: str) -> tuple[ConfigSetting, ...] | None:
    t = text.lower()
    pam = _pam_stacks(text)
    settings = []
    # "3 of the 4 classes": the first number is the one required, the second counts the classes
    kinds = re.search(
        rf"{_NUM}\s+(?:of\s+(?:the\s+)?\w+\s+)?(?:different\s+|distinct\s+)?(?:character\s+)?"
        rf"{_KINDS}",
        t,
    )
    if kinds:
        settings.append(ConfigSetting("pwquality", "minclass", "ge", (_number(kinds.group(1)),),
                                      False, pam))  # fmt: skip
    differ = re.search(rf"\bdiffer\w*\b.{{0,60}}?{_NUM}\s+(?:characters|chars)", t)
    if differ:
        # pwquality's default difok is 1
        least = _number(differ.group(1))
        settings.append(ConfigSetting("pwquality", "difok", "ge", (least,), least <= 1, pam))
    repeat = re.search(
        rf"\b(?:same|identical|repeated)\s+characters?\b.{{0,60}}?{_NUM}\s*(?:times|characters)?", t
    )
    if repeat and re.search(r"\bin\s+a\s+row\b|\bconsecutive|\brepeat", t):
        # 0 turns the check off
        settings.append(ConfigSetting("pwquality", "maxrepeat", "between",
                                      (1, _number(repeat.group(1))), False, pam))  # fmt: skip
    if re.search(r"\bdictionary\b", t):
        # dictcheck is on unless set to 0
        settings.append(ConfigSetting("pwquality", "dictcheck", "eq", ("1",), True, pam))
    return tuple(settings) or None


# ---- login.defs: how shadow-utils hashes new passwords ---------------------------------------

_HASHES = {r"sha-?512": "SHA512", r"yescrypt": "YESCRYPT", r"sha-?256": "SHA256"}


def _encrypt_method(text: str) -> ConfigSetting | None:
    named = [v for p, v in _HASHES.items() if re.search(p, text, re.I)]
    if not named:
        return None
    # the value must be set: shadow-utils' own default is DES
    return ConfigSetting("login.defs", "ENCRYPT_METHOD", "eq", tuple(named), False)


# ---- pam_pwhistory: passwords not reused -----------------------------------------------------


def _pwhistory(text: str) -> ConfigSetting | None:
    m = re.search(rf"\b(?:last|previous|recent)\s+{_NUM}\b", text.lower()) or re.search(
        rf"{_NUM}\s+(?:\w+\s+){{0,2}}(?:previous|former|old|last|recent)\b", text.lower()
    )
    found = ("ge", (_number(m.group(1)),)) if m else bounds(text)
    if found is None or found[0] != "ge":
        return None
    return ConfigSetting("pwhistory", "remember", "ge", found[1], False, _pam_stacks(text))


# ---- chrony: where the clock comes from ------------------------------------------------------

#: a host name or address a text names as a time source (not a file name)
_HOST = re.compile(
    r"(?<![/\w.-])((?:\d{1,3}\.){3}\d{1,3}|(?:[a-z0-9-]+\.)+(?:[a-z]{2,}))(?![\w/-])", re.I
)
_NOT_HOSTS = re.compile(r"\.(conf|d|keys|sources|service|log|example)$|^chrony\.|^e\.g$", re.I)


def _time_sources(text: str) -> tuple[ConfigSetting, ...] | None:
    """The hosts every source must be, and the options each source line must set ("every
    server line sets maxpoll 10 or lower")."""
    found = []
    hosts = [
        h.rstrip(".")
        for h in (m.group(1) for m in _HOST.finditer(text))
        if not _NOT_HOSTS.search(h.rstrip("."))
    ]
    if hosts:
        # every source chronyd is given must be one of these, and at least one must be
        # systemd-timesyncd's NTP= list when the text names it, else chronyd's sources
        family = "timesyncd" if re.search(r"timesyncd|timedatectl", text, re.I) else "chrony"
        found.append(
            ConfigSetting(
                family, "source", "eq", tuple(dict.fromkeys(hosts)), False, every_value=True
            )
        )
    options = rhel_generic.read(text)
    found += [s for s in options or () if s.family == "chrony"]
    return tuple(found) or None


# ---- journald: where and how the journal is kept ---------------------------------------------


def _clause(text: str, pattern: str) -> str:
    """The clause of ``text`` where ``pattern`` first occurs."""
    m = re.search(pattern, text, re.I)
    if m is None:
        return ""
    start = max(text.rfind(s, 0, m.start()) for s in (". ", "; ", ", ", " and "))
    ends = [e for e in (text.find(s, m.end()) for s in (". ", "; ", ", but")) if e >= 0]
    return text[max(start, 0) : min(ends) if ends else len(text)]


def _journald(text: str) -> tuple[ConfigSetting, ...] | None:
    settings = []
    if re.search(
        r"\bsurviv|\bpersist|\b(reboot|restart|power[\s-]+cycle)|\bStorage\b|"
        r"\b(kept|stored|saved)\b.{0,30}\bdisk",
        text,
        re.I,
    ):
        settings.append(ConfigSetting("journald", "Storage", "eq", ("persistent",), False))
    if re.search(r"\bcompress", text, re.I):
        off = negated(_clause(text, r"\bcompress"))
        # journald compresses when nothing says otherwise
        settings.append(ConfigSetting("journald", "Compress", "eq", NO if off else YES, not off))
    if re.search(r"\b(r?syslog|ForwardToSyslog)\b", text, re.I):
        off = negated(_clause(text, r"\b(r?syslog|ForwardToSyslog)\b"))
        settings.append(ConfigSetting("journald", "ForwardToSyslog", "eq", NO if off else YES, off))
    return tuple(settings) or None


# ---- sudo: Defaults options ------------------------------------------------------------------


def _sudoers(text: str) -> tuple[ConfigSetting, ...] | None:
    settings = []
    if re.search(r"\bpseudo[\s-]*(terminal|tty)|\bpty\b|\buse_pty\b", text, re.I):
        # RHEL 9's sudo (1.9.5) does not allocate one unless use_pty is set
        settings.append(ConfigSetting("sudoers", "use_pty", "eq", ("true",), False))
    if re.search(r"\blog\s*file\b|\blog(ged|s|ging)?\b|\brecord", text, re.I):
        path = re.search(r"(/var/log/[\w./-]*[\w])", text)
        logfile = path.group(1) if path else "/var/log/sudo.log"
        settings.append(ConfigSetting("sudoers", "logfile", "eq", (logfile,), False))
    reauth = re.search(
        r"\b(?:again|re-?authenticat\w*|re-?enter\w*|cached?|remember\w*)\b.{0,80}?"
        rf"{_NUM}\s*(minutes?|mins?)\b",
        text,
        re.I,
    )
    if reauth:
        # minutes; a negative value never asks again, 0 always asks; sudo's default is 5
        minutes = _number(reauth.group(1))
        settings.append(
            ConfigSetting("sudoers", "timestamp_timeout", "between", (0, minutes), minutes >= 5)
        )
    return tuple(settings) or None


_NOPASSWD = r"\bNOPASSWD\b"
_NO_AUTHENTICATE = r"!\s*authenticate\b"
_WITHOUT_AUTHENTICATING = (
    r"\bwithout\s+(?:authenticat\w*|(?:re-?)?entering|(?:(?:a|their|the|any)\s+)?passwords?)\b"
    r"|\bpassword-?less\b"
)


def _sudo_authentication(text: str) -> tuple[ConfigSetting, ...]:
    """sudo running a command without asking who the user is: a NOPASSWD tag on a rule (the
    collector records each tag of each rule), or authenticate turned off by a Defaults entry,
    global or for some users, hosts, run-as users or commands. A text that spells only one of
    the two is about that one; otherwise both are ways around authentication."""
    tag = ConfigSetting("sudoers", "NOPASSWD", "eq", ("false",), True)
    # sudo authenticates unless told not to
    defaults = ConfigSetting("sudoers", "authenticate", "eq", ("true",), True)
    spells_tag = re.search(_NOPASSWD, text, re.I) is not None
    spells_defaults = re.search(_NO_AUTHENTICATE, text, re.I) is not None
    if spells_tag and not spells_defaults:
        return (tag,)
    if spells_defaults and not spells_tag:
        return (defaults,)
    return (tag, defaults)


# ---- pam_limits: hard limits per login -------------------------------------------------------

#: the limits a text names by what they limit, and the value a text that only turns it off means
_LIMIT_ITEMS = (
    ("core", r"\bcore\b", 0),
    (
        "maxlogins",
        r"\bmaxlogins\b|\b(?:concurrent|simultaneous|parallel)\s+log\s*-?\s*ins\b"
        # "at most ten concurrent login sessions" per account (sshd's sessions per network
        # connection are no logins)
        r"|\b(?:concurrent|simultaneous|parallel)\s+log\s*-?\s*in\s+sessions?\b",
        None,
    ),
    ("maxsyslogins", r"\bmaxsyslogins\b", None),
)
_LIMIT_VALUE = r"\D{0,40}?\b(?:is|to|of|at|=|be)\s+(\d+)\b"
_TURNED_OFF = r"\b(?:off|disabled?|forbidden|not\s+allowed|prevented|suppressed)\b"


def _limits(text: str) -> tuple[ConfigSetting, ...] | None:
    """Hard limits pam_limits sets (limits.conf and limits.d), each the text names with its
    bound: "at most 4 concurrent logins", "the hard core limit is 0" (a limit is at most its
    value), "core dumps are off" (0). The collector keeps the last hard (or "-") entry of each
    domain: "*" is the value in force, a user's or @group's overrides it for them and is judged
    too. No entry is unlimited, which fails."""
    settings = []
    for item, pattern, off in _LIMIT_ITEMS:
        clause = _clause(text, pattern)
        if not clause:
            continue
        found = bounds(clause)
        if found is not None and found[0] == "ge":
            # a limit is a cap: "nobody may hold more than 4" reads as a lower bound of 5
            found = ("le", (found[1][0] - 1,))
        value = re.search(rf"(?:{pattern}){_LIMIT_VALUE}", clause, re.I) or re.search(
            rf"\b(\d+)\s+(?:{pattern})", clause, re.I
        )
        if found is None and value is not None:
            found = ("le", (int(value.group(1)),))
        elif found is None and off is not None and re.search(_TURNED_OFF, clause, re.I):
            found = ("le", (off,))
        if found is not None:
            settings.append(ConfigSetting("limits", item, found[0], found[1], False))
    return tuple(settings) or None


# ---- systemd: the limits the service manager gives its units ---------------------------------

#: the service manager or what it starts, named as such ("services started by systemd", "the
#: manager's defaults for its units", system.conf)
_SYSTEMD_UNITS = words(
    r"\bsystemd\b(?!-)",
    r"\bsystem\.conf(\.d)?\b",
    r"\bservice\s+manager\b",
)
#: a core file said by what it is ("core dumps", "core files", "the core-file size")
_CORE_FILES = words(r"\bcore[\s-]*(dumps?|files?|sizes?|limits?)\b", r"\bdump\w*\s+core\b")


def _systemd_core_limit(text: str) -> ConfigSetting:
    """DefaultLimitCORE in system.conf and its drop-ins (system.conf.d, name order, the last
    assignment wins): the core size a unit may write unless it sets its own. 0 (or "0:0", soft
    and hard) keeps every service from dumping core; unset, systemd leaves the hard limit
    unlimited, so a service may raise its own."""
    return ConfigSetting("systemd", "DefaultLimitCORE", "eq", ("0", "0:0"), False)


# ---- crypto-policies -------------------------------------------------------------------------


def _crypto_policy(text: str) -> ConfigSetting:
    banned = ["legacy"]
    if re.search(r"\bsha-?1\b", text, re.I) and not re.search(r"no-sha1", text, re.I):
        banned.append("sha1")
    # RHEL 9's policy is DEFAULT when nothing is chosen
    return ConfigSetting("crypto-policies", "policy", "excludes", tuple(banned), True)


# ---- SELinux: the mode the system boots in ---------------------------------------------------


def _selinux_mode(text: str) -> ConfigSetting:
    # /etc/selinux/config's SELINUX= is the mode at boot; "permissive" is accepted only when the
    # text says it is ("enforcing or permissive", "not disabled")
    lenient = re.search(r"\bpermissive\b.{0,40}\b(allowed|accepted|compl\w*|fine)\b|"
                        r"\b(enforcing|permissive)\s+or\s+(enforcing|permissive)\b|"
                        r"\bnot\s+(be\s+)?disabled\b", text, re.I)  # fmt: skip
    modes = ("enforcing", "permissive") if lenient else ("enforcing",)
    return ConfigSetting("selinux", "SELINUX", "eq", modes, False)


# ---- sshd: settings described by what the daemon does ----------------------------------------

_PROBES = (
    rf"{_NUM}\s+(?:\w+\s+){{0,2}}?(?:keep[\s-]*alive|client[\s-]*alive|alive)\s+"
    r"(?:probes?|messages?|checks?|requests?)"
)
#: sshd's LogLevel words, as a text may spell them
_LOG_LEVELS = {
    r"\bquiet\b": "QUIET",
    r"\bfatal\b": "FATAL",
    r"\berror\b": "ERROR",
    r"\binfo(?:rmational)?\b": "INFO",
    r"\bverbose\b": "VERBOSE",
    r"\bdebug\b": "DEBUG",
}
_HOSTBASED = r"\bhost-?based\s+authentication\b"
_USER_ENVIRONMENT = (
    r"\benvironment\s+variables?\b.{0,80}\b(daemon|sshd|ssh)\b|~/\.ssh/environment\b"
)
_LOG_AT = re.compile(r"\blog(?:s|ging)?\s+(?:only\s+)?at\s+(?:the\s+)?([^.;()]{1,60}?)\s+levels?\b")
_MACS = r"\bH?MACs\b|\bmessage\s+authentication\s+codes?\b|\bintegrity\b.{0,60}\bsessions?\b"
_STARTUPS = (
    r"\bMaxStartups\b|\bunauthenticated\s+connections\b|"
    r"\b(connection|login)\s+floods?\b|\bfloods?\s+of\s+\w*\s*connections\b"
)
#: password login said by what the user does ("log in with a password", "password logins")
_PASSWORD_LOGIN = (
    r"\b(?:log|sign)\s*-?\s*(?:in|on)\b.{0,60}\bwith\s+(?:a\s+|their\s+)?passwords?\b"
    r"|\bpassword\s+(?:log\s*-?\s*ins?|authentication|sign-?ins?)\b"
    r"|\bauthenticat\w*\s+(?:by|with)\s+(?:a\s+)?passwords?\b"
)
#: TCP port forwarding said by what it does ("tunnel TCP traffic", "TCP port forwarding")
_TCP_TUNNEL = (
    r"\b(?:tunnel\w*|forward\w*)\b.{0,30}\bTCP\b|\bTCP\b.{0,30}\b(?:tunnel\w*|forward\w*)\b"
    r"|\bport\s+forwarding\b"
)
_SSHD_EFFECTS = words(
    _PROBES, _LOG_AT.pattern, _HOSTBASED, _USER_ENVIRONMENT, _MACS, _STARTUPS, _PASSWORD_LOGIN,
    _TCP_TUNNEL,
)  # fmt: skip
#: MAC families a text may rule out, as the words name them and as OpenSSH's names contain them
_MAC_FAMILIES = {
    r"\bmd5\b": "md5",
    r"\bsha-?1\b": "sha1",
    r"\b64-?bit\s+umac\b|\bumac-?64\b": "umac-64",
    r"\bripemd": "ripemd",
}
#: OpenSSH's MACs when nothing sets them (sshd_config(5))
_OPENSSH_MACS = (
    "umac-64-etm@openssh.com,umac-128-etm@openssh.com,hmac-sha2-256-etm@openssh.com,"
    "hmac-sha2-512-etm@openssh.com,hmac-sha1-etm@openssh.com,umac-64@openssh.com,"
    "umac-128@openssh.com,hmac-sha2-256,hmac-sha2-512,hmac-sha1"
)


def _macs(text: str) -> ConfigSetting | None:
    """``MACs`` must offer none of the families the text rules out; "only SHA-2" rules out the
    rest of OpenSSH's list."""
    banned = [name for pattern, name in _MAC_FAMILIES.items() if re.search(pattern, text, re.I)]
    if not banned and re.search(r"\bonly\b[^.;]{0,40}\bsha-?2\b", text, re.I):
        banned = ["md5", "sha1", "umac", "ripemd"]
    if not banned:
        return None
    unset = not any(b in _OPENSSH_MACS for b in banned)
    return ConfigSetting("sshd", "MACs", "excludes", tuple(banned), unset)


#: the word before a count of pending connections ("at no more than 10", "once it reaches 60";
#: not "every one")
_AT = r"\b(?:at|than|to|reach\w*|exceed\w*)\s+"
_SSHD = rhel_generic.family_named("sshd")


def _max_startups(text: str) -> tuple[ConfigSetting, ...]:
    """Bounds on MaxStartups' start (refusing begins) and full (all refused) fields: a
    ``start:rate:full`` triple next to the keyword (read by the generic reader's one triple
    reader), else the numbers the text gives each."""
    triple = rhel_generic.colon_fields(_SSHD, "MaxStartups", text)
    if triple:
        return triple
    t = text.lower()
    bound: dict[int, int] = {}
    start = re.search(
        rf"\b(?:start|begin)\w*\s+(?:to\s+)?(?:refus|drop|reject)\w*[^.;]{{0,80}}?{_AT}{_NUM}", t
    )
    full = re.search(rf"\b(?:refus|drop|reject)\w*\s+(?:all|every)\b[^.;]{{0,80}}?{_AT}{_NUM}", t)
    if start:
        bound[0] = _number(start.group(1))
    if full:
        bound[2] = _number(full.group(1))
    unset = dict(_SSHD.fields)["MaxStartups"]
    return tuple(
        ConfigSetting("sshd", "MaxStartups", "le", (most,), unset[part] <= most, part=part)
        for part, most in sorted(bound.items())
    )


def _sshd_effects(text: str) -> tuple[ConfigSetting, ...] | None:
    """sshd settings a text describes by what the daemon does, each only when described: the
    keep-alive probe count (ClientAliveCountMax: at most N unanswered probes, 0 turns the
    disconnection off, default 3), host-based authentication, .rhosts/.shosts, environment
    passed by users (PermitUserEnvironment), the log level (LogLevel: the levels "log at the
    X or Y level" names, default INFO), password login (PasswordAuthentication) and TCP
    tunnels (AllowTcpForwarding, moot under DisableForwarding yes)."""
    t = text.lower()
    settings = []
    probes = re.search(rf"(?:at\s+most|no\s+more\s+than|up\s+to|maximum\s+of)\s+{_PROBES}", t)
    if probes:
        most = _number(probes.group(1))
        settings.append(ConfigSetting("sshd", "ClientAliveCountMax", "between", (1, most),
                                      1 <= 3 <= most))  # fmt: skip
    if re.search(_HOSTBASED, t):
        # sshd's default is no
        settings.append(ConfigSetting("sshd", "HostbasedAuthentication", "eq", ("no",), True))
    if re.search(r"\b[rs]hosts\b", t):
        settings.append(ConfigSetting("sshd", "IgnoreRhosts", "eq", ("yes",), True))
    if re.search(_USER_ENVIRONMENT, t):
        # a pattern list ("LANG,LC_*") lets those variables through: only no refuses them all
        settings.append(ConfigSetting("sshd", "PermitUserEnvironment", "eq", ("no",), True))
    if re.search(_MACS, text, re.I) and (macs := _macs(text)) is not None:
        settings.append(macs)
    if re.search(_STARTUPS, text, re.I):
        settings += _max_startups(text)
    if re.search(_PASSWORD_LOGIN, t):
        # sshd's default is yes; a Match block that sets yes again lets its users in by password
        settings.append(ConfigSetting("sshd", "PasswordAuthentication", "eq", ("no",), False))
    if re.search(_TCP_TUNNEL, text, re.I):
        # default yes; "local" and "remote" still tunnel one way; DisableForwarding yes turns
        # every kind of forwarding off whatever AllowTcpForwarding says
        settings.append(
            ConfigSetting("sshd", "AllowTcpForwarding", "eq", ("no",), False,
                          moot_when=("DisableForwarding", ("yes",)))
        )  # fmt: skip
    log_at = _LOG_AT.search(t)
    if log_at:
        levels = tuple(v for p, v in _LOG_LEVELS.items() if re.search(p, log_at.group(1)))
        if levels:
            settings.append(ConfigSetting("sshd", "LogLevel", "eq", levels, "INFO" in levels))
    return tuple(settings) or None


_LOCKOUT = words(
    r"(\b|pam_)faillock\b",
    r"\block(ed|s|ing)?\b(\s+\w+){0,2}\s+(out\s+)?(after|following|once|when|if)\b.{0,60}"
    r"\b(fail\w*|unsuccessful|wrong|incorrect|invalid|bad)\b",
    r"\b(fail\w*|unsuccessful|wrong|incorrect|invalid|bad)\b.{0,80}\block(ed|s|out)?\b",
    r"\baccount\s+lock\w*\b",
)
_SUDO = words(r"\bsudo(ers)?\b")

CONCEPTS: tuple[Concept, ...] = (
    Concept("sshd-keepalive-and-log-level", (SSH, _SSHD_EFFECTS), _sshd_effects),
    Concept("faillock-lockout", (_LOCKOUT,), _faillock, none_of=words(r"\bssh", r"MaxAuthTries")),
    Concept(
        "modprobe-several-modules",
        (words(r"\bmodules?\b", r"\bload", r"\bkernel\b", r"\bmodprobe\b", r"\bsupport\b"),),
        _modules,
        accepts=_several_modules,
    ),
    Concept(
        "pam-limits",
        (
            # pam_limits named, or one of its own items ("a hard maxlogins limit"), or logins
            # per account counted ("concurrent login sessions"): only pam_limits bounds those
            words(
                r"pam_limits",
                r"\blimits\.(?:conf|d)\b",
                r"\bulimit\b",
                r"\bmaxlogins\b",
                r"\bmaxsyslogins\b",
                r"\b(?:concurrent|simultaneous|parallel)\s+log\s*-?\s*in\s+sessions?\b",
            ),  # fmt: skip
            words(*(p for _, p, _ in _LIMIT_ITEMS)),
        ),
        _limits,
    ),
    Concept(
        "sudo-without-authentication",
        (_SUDO, words(_NOPASSWD, _NO_AUTHENTICATE, _WITHOUT_AUTHENTICATING)),
        _sudo_authentication,
    ),
    Concept(
        "sudo-defaults",
        (
            _SUDO,
            words(
                r"\bpseudo[\s-]*(terminal|tty)|\bpty\b|\buse_pty\b",
                r"\blog\s*file\b",
                r"\b(again|re-?authenticat\w*|re-?enter\w*|timestamp_timeout)\b",
                # the credential cache named by what it keeps: "cached authentication expires"
                r"\bcached?\b.{0,40}\b(authenticat\w*|credentials?|password)",
                r"\b(authenticat\w*|credentials?)\b.{0,40}\b(cached?|expir\w*)\b",
            ),
        ),
        _sudoers,
    ),
    Concept(
        "chrony-time-sources",
        (
            words(
                r"\bchrony",
                r"\bntp\b",
                r"\btime\s+(servers?|sources?)\b",
                r"\bclocks?\b",
                r"timesyncd",
            ),  # fmt: skip
            words(r"\bserver", r"\bsources?\b", r"\bpool\b", r"\bfrom\b"),
        ),
        _time_sources,
    ),
    Concept(
        "journald-storage",
        (
            words(r"\bjournal", r"\bsystem\s+logs?\b"),
            words(
                r"\breboot",
                r"\brestart",
                r"\bpersist",
                r"\bsurviv",
                r"\bcompress",
                r"\bStorage\b",
                r"\br?syslog\b",
            ),  # fmt: skip
        ),
        _journald,
    ),
    Concept(
        "pwquality-composition",
        (
            words(r"\bpasswords?\b"),
            words(
                rf"\b{_KINDS}\b",
                r"\bdiffer\w*\b.{0,60}\bcharacters\b",
                r"\b(same|identical|repeated)\s+characters?\b",
                r"\bdictionary\b",
            ),
        ),
        _pwquality,
    ),
    Concept(
        "login-defs-encrypt-method",
        (
            words(r"\bpasswords?\b"),
            words(r"\bhash\w*", r"\bencrypt\w*", r"\bstored\b"),
            words(*_HASHES),
        ),
        _encrypt_method,
    ),
    Concept(
        "pwhistory-remember",
        (
            words(
                r"\bpwhistory\b",
                r"\bpassword\s+history\b",
                r"\breus\w*\b.{0,40}\bpasswords?\b",
                r"\bpasswords?\b.{0,60}\breus\w*",
            ),  # fmt: skip
        ),
        _pwhistory,
    ),
    Concept(
        "selinux-mode",
        (
            words(r"\bSELinux\b"),
            words(r"\benforc\w*", r"\bpermissive\b", r"\bdisabled?\b", r"\bmode\b"),
        ),
        _selinux_mode,
        # a text that names the file's keys is read by the generic reader
        none_of=(re.compile(r"\bSELINUX(TYPE)?\s*="),),
    ),
    Concept(
        "crypto-policy",
        (words(r"\bcrypto(graphic)?[\s-]+polic", r"\bupdate-crypto-policies\b"),),
        _crypto_policy,
    ),
    Concept(
        "systemd-default-core-limit",
        (_SYSTEMD_UNITS, _CORE_FILES),
        _systemd_core_limit,
        # the crash collector (systemd-coredump) and setuid programs' dumps are other settings;
        # a text that spells a manager key (DumpCore, DefaultLimitCORE) is read by the generic
        # reader
        none_of=(
            *words(
                r"\bsystemd-coredump\b",
                r"\bcoredump\.conf\b",
                r"\bcollector\b",
                r"\bhandler\b",
                r"\b(setuid|suid|set-?user-?id)\b",
            ),
            rhel_generic.family_named("systemd").keys,
        ),
    ),
    Concept(
        "sysctl-effects",
        (
            tuple(p for e in _SYSCTL_EFFECTS for p in e.phrases)
            + tuple(p for x in _PER_INTERFACE for p in x[0]),
        ),
        _sysctl,
    ),  # fmt: skip
)
