"""The generic RHEL 9 reading: a key of a known configuration family the text names as the file
spells it (a sysctl key, a login.defs item, a pwquality option), with the value or the bound the
text gives it. The parser falls back on it when no concept fits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ciso.agents.baseline.intent import ConfigSetting
from ciso.agents.baseline.knowledge.rhel_config import bounds


@dataclass(frozen=True)
class ConfigFamily:
    """A configuration family the collector reads, and how a text spells its keys."""

    name: str
    keys: re.Pattern[str]
    #: PAM files whose module line may override the files (pwquality)
    pam_files: tuple[str, ...] = ()
    #: words the text must also use, where a key is an ordinary word ("deny", "remember")
    context: re.Pattern[str] | None = None
    #: the words a ``<key>_action`` setting takes, and its value when unset, per action key
    #: (auditd: what the daemon does at a threshold)
    actions: tuple[str, ...] = ()
    action_defaults: tuple[tuple[str, str], ...] = ()
    #: numeric keys whose negative values mean "never" (sudo's timeouts): an upper bound N reads
    #: as 0..N, and the value each takes when unset
    never_below_zero: tuple[tuple[str, int], ...] = ()
    #: keys that are flags, present or absent (faillock's even_deny_root): read as the value ""
    flags: tuple[str, ...] = ()
    #: keys whose value is a comma-separated list (sshd's MACs): "must not contain X or Y"
    lists: tuple[str, ...] = ()
    #: keys whose value is colon-separated numeric fields, and each field's value when unset
    #: (sshd's MaxStartups start:rate:full)
    fields: tuple[tuple[str, tuple[int, ...]], ...] = ()
    #: the keys are set per line, each line judged (chrony's source options): a line that sets
    #: none reads as the value "", and complies with no value or bound
    every_line: bool = False
    #: keys whose value is an octal file mode: "0640 or stricter" allows no bit outside 0640
    modes: tuple[str, ...] = ()
    #: each key's value when the files leave it unset, as the daemon documents it: a bound or
    #: value the default meets complies unset (systemd's CtrlAltDelBurstAction is reboot-force)
    defaults: tuple[tuple[str, str], ...] = ()


FAMILIES: tuple[ConfigFamily, ...] = (
    ConfigFamily(
        "sysctl",
        re.compile(r"\b(?:net|kernel|fs|vm|user|dev|abi)\.[a-z0-9_]+(?:\.[a-z0-9_*-]+)*[a-z0-9_]"),
    ),
    ConfigFamily(
        "login.defs",
        re.compile(
            r"\b(?:PASS_(?:MAX|MIN|WARN)_(?:DAYS|AGE|LEN)|UMASK|ENCRYPT_METHOD|"
            r"SHA_CRYPT_(?:MIN|MAX)_ROUNDS|YESCRYPT_COST_FACTOR|LOGIN_(?:RETRIES|TIMEOUT)|"
            r"FAIL_DELAY|UID_MIN|GID_MIN|HOME_MODE)\b"
        ),
    ),
    ConfigFamily(
        "pwquality",
        re.compile(
            r"\b(?:minlen|minclass|dcredit|ucredit|lcredit|ocredit|maxrepeat|maxsequence|"
            r"maxclassrepeat|difok|dictcheck|usercheck|enforce_for_root|enforcing|retry)\b"
        ),
        ("/etc/pam.d/system-auth", "/etc/pam.d/password-auth"),
    ),
    ConfigFamily(
        "sshd",
        re.compile(
            r"\b(?:PermitRootLogin|PermitEmptyPasswords|PermitUserEnvironment|PasswordAuthentication|"
            r"PubkeyAuthentication|HostbasedAuthentication|KbdInteractiveAuthentication|"
            r"ChallengeResponseAuthentication|GSSAPIAuthentication|KerberosAuthentication|UsePAM|"
            r"IgnoreRhosts|X11Forwarding|AllowTcpForwarding|AllowAgentForwarding|"
            r"AllowStreamLocalForwarding|GatewayPorts|PermitTunnel|PermitTTY|MaxAuthTries|"
            r"MaxSessions|MaxStartups|LoginGraceTime|ClientAliveInterval|ClientAliveCountMax|"
            r"LogLevel|SyslogFacility|StrictModes|Compression|UseDNS|PrintLastLog|TCPKeepAlive|"
            r"Banner|DisableForwarding|AuthenticationMethods|MACs|Ciphers|KexAlgorithms|"
            r"HostKeyAlgorithms|PubkeyAcceptedAlgorithms)\b"
        ),
        context=re.compile(r"\bssh", re.I),
        lists=("MACs", "Ciphers", "KexAlgorithms", "HostKeyAlgorithms", "PubkeyAcceptedAlgorithms"),
        # sshd_config(5): refuse 30 % of new connections from 10 pending, all of them at 100
        fields=(("MaxStartups", (10, 30, 100)),),
    ),
    ConfigFamily(
        "auditd",
        re.compile(
            r"\b(?:max_log_file_action|max_log_file|num_logs|space_left_action|space_left|"
            r"admin_space_left_action|admin_space_left|disk_full_action|disk_error_action|"
            r"log_format|flush|freq|log_group)\b"
        ),
        context=re.compile(r"\baudit", re.I),
        actions=(
            "ignore",
            "syslog",
            "rotate",
            "email",
            "exec",
            "suspend",
            "single",
            "halt",
            "keep_logs",
        ),  # fmt: skip
        # auditd.conf(5)'s defaults
        action_defaults=(
            ("space_left_action", "syslog"),
            ("admin_space_left_action", "suspend"),
            ("disk_full_action", "suspend"),
            ("disk_error_action", "syslog"),
            ("max_log_file_action", "rotate"),
        ),
    ),
    ConfigFamily(
        "faillock",
        re.compile(
            r"\b(?:deny|unlock_time|fail_interval|root_unlock_time|even_deny_root|no_log_info|"
            r"local_users_only|nodelay)\b"
        ),
        context=re.compile(r"faillock\b|\block(?:ed|s)?\s+out\b|\blockout\b", re.I),
        flags=("even_deny_root", "no_log_info", "local_users_only", "nodelay"),
    ),
    ConfigFamily(
        "sudoers",
        re.compile(r"\b(?:timestamp_timeout|passwd_timeout|passwd_tries)\b"),
        context=re.compile(r"\bsudo", re.I),
        # sudoers(5): 5 minutes, 5 minutes, 3 tries
        never_below_zero=(("timestamp_timeout", 5), ("passwd_timeout", 5)),
    ),
    ConfigFamily(
        "pwhistory",
        re.compile(r"\bremember\b"),
        context=re.compile(r"\bpwhistory\b|\bpassword\s+history\b|\breus", re.I),
    ),
    # systemd-coredump's [Coredump] keys; before journald, whose Storage= it shares
    ConfigFamily(
        "coredump",
        re.compile(
            r"\b(?:Storage|Compress|ProcessSizeMax|ExternalSizeMax|JournalSizeMax|MaxUse|"
            r"KeepFree)\b"
        ),
        context=re.compile(r"\bcore\s*dump|\bcoredump", re.I),
    ),
    ConfigFamily(
        "journald",
        re.compile(r"\b(?:Storage|Compress|ForwardToSyslog|SystemMaxUse|MaxRetentionSec)\b"),
        context=re.compile(r"\bjournal", re.I),
    ),
    ConfigFamily(
        "chrony",
        re.compile(
            r"\b(?:minpoll|maxpoll|polltarget|maxdelay|maxdelayratio|maxdelaydevratio|mindelay|"
            r"minsamples|maxsamples|minstratum|maxsources|presend)\b"
        ),
        context=re.compile(r"\bchrony|\bntp\b|\btime\s+(?:servers?|sources?)\b", re.I),
        every_line=True,
    ),
    # kernel arguments on the boot command line (every boot entry judged; an entry that leaves
    # one out reads as "")
    ConfigFamily(
        "kernel-cmdline",
        re.compile(
            r"\b(?:audit_backlog_limit|page_poison|slub_debug|init_on_free|init_on_alloc|"
            r"vsyscall|pti|mitigations|lockdown|ipv6\.disable|module\.sig_enforce|"
            r"randomize_kstack_offset)\b|\b(?:audit|selinux|enforcing|fips)(?==)"
        ),
        context=re.compile(
            r"\bkernel\s+(?:command[\s-]+line|boot\s+(?:parameters?|arguments?|options?)|"
            r"(?:parameters?|arguments?)\s+(?:at|on)\s+boot)|\bboot\s*loader\b|\bgrub|\bcmdline\b|"
            r"\bboot\s+entr",
            re.I,
        ),
        every_line=True,
    ),
    # systemd's manager settings (system.conf(5), [Manager]; /etc/systemd/system.conf.d drop-ins
    # override the main file)
    ConfigFamily(
        "systemd",
        re.compile(
            r"\b(?:CtrlAltDelBurstAction|DumpCore|CrashShell|CrashReboot|CrashAction|ShowStatus|"
            r"DefaultLimit[A-Z]+|DefaultTimeout(?:Start|Stop|Abort)Sec|DefaultRestartSec|"
            r"RuntimeWatchdogSec|RebootWatchdogSec|KExecWatchdogSec|DefaultDeviceTimeoutSec)\b"
        ),
        defaults=(
            ("CtrlAltDelBurstAction", "reboot-force"),
            ("DumpCore", "yes"),
            ("CrashShell", "no"),
            ("CrashReboot", "no"),
            ("ShowStatus", "yes"),
        ),
    ),
    # systemd-logind's [Login] keys (logind.conf(5); logind.conf.d drop-ins override)
    ConfigFamily(
        "logind",
        re.compile(
            r"\b(?:KillUserProcesses|KillOnlyUsers|KillExcludeUsers|IdleAction|IdleActionSec|"
            r"StopIdleSessionSec|RemoveIPC|NAutoVTs|ReserveVT|InhibitDelayMaxSec|"
            r"Handle(?:PowerKey|SuspendKey|HibernateKey|LidSwitch|LidSwitchExternalPower|"
            r"LidSwitchDocked|RebootKey))\b"
        ),
        defaults=(
            ("KillUserProcesses", "no"),
            ("RemoveIPC", "yes"),
            ("IdleAction", "ignore"),
            ("StopIdleSessionSec", "infinity"),
        ),
    ),
    # the defaults useradd gives new accounts (/etc/default/useradd, KEY=VALUE; names upper case)
    ConfigFamily(
        "useradd",
        re.compile(r"\b(?:INACTIVE|EXPIRE|SHELL|SKEL|CREATE_MAIL_SPOOL|USRSKEL)\b"),
        context=re.compile(r"\buseradd\b|\bnew\s+(?:user\s+)?accounts?\b", re.I),
        # useradd(8): a negative INACTIVE never locks an account, and unset is -1
        never_below_zero=(("INACTIVE", -1),),
    ),
    # rsyslog's file-creation directives (legacy "$FileCreateMode 0640" lines, or the builtin
    # omfile module's parameters); each applies to the actions after it, so every one counts
    ConfigFamily(
        "rsyslog",
        re.compile(r"\b(?:FileCreateMode|DirCreateMode|FileOwner|FileGroup|DirOwner|DirGroup)\b"),
        context=re.compile(r"\brsyslog", re.I),
        every_line=True,
        modes=("FileCreateMode", "DirCreateMode"),
        # rsyslog's documented defaults
        defaults=(("FileCreateMode", "0644"), ("DirCreateMode", "0700")),
    ),
    # Postfix's main.cf parameters (postconf(5); the last assignment wins)
    ConfigFamily(
        "postfix",
        re.compile(
            r"\b(?:inet_interfaces|inet_protocols|mynetworks|mydestination|relayhost|"
            r"smtpd_banner|disable_vrfy_command|smtpd_helo_required|smtpd_tls_security_level|"
            r"smtp_tls_security_level|smtpd_client_restrictions|smtpd_relay_restrictions|"
            r"message_size_limit|default_process_limit)\b"
        ),
        context=re.compile(r"\bpostfix\b|\bmail\b|\bMTA\b|\bsmtp", re.I),
        defaults=(
            ("inet_interfaces", "all"),
            ("disable_vrfy_command", "no"),
            ("smtpd_helo_required", "no"),
        ),
    ),
    ConfigFamily(
        "selinux",
        re.compile(r"\bSELINUX(?:TYPE)?\b"),
    ),
    ConfigFamily(
        "dnf",
        re.compile(
            r"\b(?:gpgcheck|localpkg_gpgcheck|repo_gpgcheck|clean_requirements_on_remove)\b"
        ),
    ),
)

_NEGATED_VALUE = r"(?:must|may|should|shall|can)\s*(?:not|never|n't)\s+(?:be|equal)\s+"
_VALUE = r"['\"`]?(-?[\w-]+(?:\.[\w-]+)*)"


#: "must not contain", "may never offer", "without": what a list must not hold follows
_EXCLUDES = re.compile(
    r"[^.;]{0,40}?(?:\b(?:must|may|should|shall|can)\s*(?:not|never|n't)\s+(?:contain|include|"
    r"offer|list|use|allow|enable)\w*|\bwithout)\s+((?:[`'\"]?[\w@.+-]+[`'\"]?(?:\s*,\s*|\s+or\s+|"
    r"\s+and\s+|\s+nor\s+)?)+)",
    re.I,
)


def family_named(name: str) -> ConfigFamily:
    """The configuration family called ``name``."""
    (found,) = (f for f in FAMILIES if f.name == name)
    return found


def colon_fields(family: ConfigFamily, key: str, text: str) -> tuple[ConfigSetting, ...] | None:
    """Bounds on the first and the last field of a "start:rate:full" value the text gives
    ``key`` (sshd's MaxStartups), each complying when unset if the field's default is within;
    None when no such value follows the key. The one reader of such triples, whether the text
    names the key or describes it."""
    triple = re.search(rf"\b{re.escape(key)}\b[^.;]{{0,40}}?\b(\d+):(\d+):(\d+)\b", text, re.I)
    if triple is None:
        return None
    unset = dict(family.fields).get(key)
    return tuple(
        ConfigSetting(
            family.name, key, "le", (most,), unset is not None and unset[part] <= most, part=part
        )  # fmt: skip
        for part, most in ((0, int(triple.group(1))), (2, int(triple.group(3))))
    )


def setting(family: ConfigFamily, key: str, text: str) -> tuple[ConfigSetting, ...] | None:
    """The settings the text gives ``key``: a flag it names; items a list must not contain; the
    fields of a colon triple; a value stated next to it ("net.ipv4.ip_forward = 0", "PASS_MAX_DAYS
    must be 60", "must be halt or single", "must not be 1" of a 0/1 switch), else the text's
    bound."""
    # where the family's pattern names the key ("audit=1", not the "audit" of "audited")
    named = next((m for m in family.keys.finditer(text) if m.group(0) == key), None)
    after = text[named.end() :] if named else text[text.find(key) + len(key) :]
    if key in family.flags:
        return (ConfigSetting(family.name, key, "eq", ("",), False, family.pam_files),)
    excluded = _EXCLUDES.match(after) if key in family.lists else None
    if excluded:
        items = re.findall(r"[\w@.+-]+", excluded.group(1))
        banned = tuple(i.lower() for i in items if i.lower() not in ("or", "and", "nor"))
        return (ConfigSetting(family.name, key, "excludes", banned, False),)
    if key in family.modes:
        return _mode(family, key, after, text)
    triple = colon_fields(family, key, text[text.find(key) :])
    if triple:
        return triple
    found = _value_or_bound(family, key, after, text)
    if found is None:
        return None
    if family.every_line:
        found = replace(found, every_value=True)
    never = dict(family.never_below_zero)
    if key in never and found.comparison == "le":
        # a negative value never expires: "at most N" is 0..N
        most = found.values[0]
        return (ConfigSetting(family.name, key, "between", (0, most), 0 <= never[key] <= most),)
    default = dict(family.defaults).get(key)
    if default is not None:
        found = replace(found, unset_complies=default_complies(found, default))
    return (found,)


def _mode(
    family: ConfigFamily, key: str, after: str, text: str
) -> tuple[ConfigSetting, ...] | None:
    """An octal mode key: the mode the text gives it ("0640 or more restrictive") is the most
    permissive accepted; unset judged by the family's default mode."""
    mode = re.search(r"\b(0[0-7]{3})\b", after) or re.search(r"\b(0[0-7]{3})\b", text)
    if mode is None:
        return None
    found = ConfigSetting(family.name, key, "mode", (int(mode.group(1), 8),), False,
                          every_value=family.every_line)  # fmt: skip
    default = dict(family.defaults).get(key)
    unset = default is not None and default_complies(found, default)
    return (replace(found, unset_complies=unset),)


def default_complies(found: ConfigSetting, default: str) -> bool:
    """Whether the value a key takes when unset meets the setting (a word in any case, or a
    number within the bound)."""
    if found.comparison == "eq":
        return default.lower() in (str(v).lower() for v in found.values)
    if found.comparison == "mode":
        return int(default, 8) & ~int(found.values[0]) == 0
    if not default.lstrip("-").isdigit() or found.comparison not in ("le", "ge", "between"):
        return False
    n, bound = int(default), found.values
    if found.comparison == "le":
        return bool(n <= bound[0])
    if found.comparison == "ge":
        return bool(n >= bound[0])
    return bool(bound[0] <= n <= bound[1])


#: a switch stated by its state rather than a value: "gpgcheck is globally activated"
_SWITCHED = re.compile(
    r"[^.;:]{0,30}?\b(?:is|be|are|stays?|remains?|been)\s+(?:\w+ly\s+)?(?:(activated|enabled|"
    r"switched\s+on|turned\s+on)|(deactivated|disabled|switched\s+off|turned\s+off))\b",
    re.I,
)
#: the spellings of on and off the families' boolean options accept (compared in lower case)
_ON = ("1", "yes", "true", "on")
_OFF = ("0", "no", "false", "off")


def _value_or_bound(family: ConfigFamily, key: str, after: str, text: str) -> ConfigSetting | None:
    switched = _SWITCHED.match(after)
    if switched:
        state = _ON if switched.group(1) else _OFF
        return ConfigSetting(family.name, key, "eq", state, False, family.pam_files)
    negated = re.match(rf"[^.;]{{0,30}}?\b{_NEGATED_VALUE}{_VALUE}", after, re.I)
    if negated and negated.group(1) in ("0", "1"):
        return ConfigSetting(family.name, key, "eq", (str(1 - int(negated.group(1))),), False,
                             family.pam_files)  # fmt: skip
    stated = re.match(
        rf"\s*(?:=|:|\bto\b|\bof\b|\bat\b(?!\s+(?:least|most))|"
        # "ends up with kernel.dmesg_restrict set to 1", "with X configured as 2"
        r"\s*(?:(?:is|are|be|being)\s+)?(?:set|configured|fixed|pinned)\s+(?:to|at|as)\b|"
        rf"(?:[^.;]{{0,20}}?\b(?:must|shall|should|has\s+to|needs?\s+to)\s+"
        rf"(?:be|equal|read|(?:resolve|evaluate|end\s+up|come\s+out)\s+(?:to|as|at))\b(?:\s+set\s+to)?))\s*{_VALUE}",
        after,
        re.I,
    )
    # "3 or more", "60 at the most": a bound, not a value
    open_ended = stated and re.match(
        r"\s*(?:or\s+(?:more|greater|higher|above|less|fewer|lower|below)|at\s+(?:the\s+)?(?:least|most))",
        after[stated.end() :],
        re.I,
    )
    words = r"(at|not|a|an|the|least|most|set)$"
    # "no more than 4" is a bound; "must be no" is the value no
    comparative = stated and re.match(
        r"no\s+(more|less|fewer|longer|shorter|greater|higher|lower)\b",
        after[stated.start(1) :],
        re.I,
    )
    if stated and not open_ended and not comparative and not re.match(words, stated.group(1), re.I):
        values = [stated.group(1)]
        if not values[0].lstrip("-").isdigit():
            # "must be halt or single": one of several words
            more = re.match(r"(?:\s*(?:,|/|\bor\b)\s*(?:or\s+)?['\"`]?[A-Za-z_][\w-]*['\"`]?)+",
                            after[stated.end() :])  # fmt: skip
            if more:
                values += re.findall(r"[A-Za-z_][\w-]*", more.group(0).replace(" or ", " "))
        values = [v for v in values if v.lower() != "or"]
        return ConfigSetting(family.name, key, "eq", tuple(values), False, family.pam_files)
    found = bounds(text)
    if found is None:
        return None
    return ConfigSetting(family.name, key, found[0], found[1], False, family.pam_files)


#: "syslog alone is not enough", "suspend does not suffice": an action the text rules out
_NOT_ENOUGH = r"\s+(?:alone\s+)?(?:is\s+not\s+(?:enough|sufficient)|does\s+not\s+suffice|fails)\b"


def _actions(family: ConfigFamily, keys: dict[str, int], text: str) -> list[ConfigSetting] | None:
    """The ``<key>_action`` settings of thresholds the text names ("when free space falls to the
    space_left threshold, notify by email or halt"): the family's action words said in the
    sentence from that key to the next, less those it rules out. None when a named threshold
    gets no action (the text says them elsewhere, e.g. in an aside). ``keys``: where each key
    named first ends in the text."""
    action_keys = {k for k, _ in family.action_defaults}
    named = [k for k in keys if f"{k}_action" in action_keys and f"{k}_action" not in keys]
    if not named or not family.actions:
        return []
    defaults = dict(family.action_defaults)
    found = []
    for key in named:
        rest = text[keys[key] :]
        ends = [m.start() for k in keys if k != key for m in [re.search(rf"\b{k}\b", rest)] if m]
        ends.append(m.start() if (m := re.search(r"\.(?:\s|$)", rest)) else len(rest))
        clause = rest[: min(ends)]
        words_ = r"|".join(family.actions)
        ruled_out = {
            m.group(1).lower() for m in re.finditer(rf"\b({words_})\b{_NOT_ENOUGH}", clause, re.I)
        }
        said = [
            w for m in re.finditer(rf"\b({words_})\b(?!-)", clause, re.I)
            for w in [m.group(1).lower()] if w not in ruled_out
        ]  # fmt: skip
        if not said:
            return None
        values = tuple(dict.fromkeys(said))
        action = f"{key}_action"
        found.append(ConfigSetting(family.name, action, "eq", values, defaults[action] in values))
    return found


def read(text: str) -> tuple[ConfigSetting, ...] | None:
    """Settings of the first family whose keys the text names, one per key."""
    for family in FAMILIES:
        if family.context is not None and not family.context.search(text):
            continue
        # where each key is named first
        keys: dict[str, int] = {}
        for m in family.keys.finditer(text):
            keys.setdefault(m.group(0), m.end())
        actions = _actions(family, keys, text)
        if actions is None:
            continue
        if actions:
            return tuple(actions)
        settings = [
            s for key in keys for found in [setting(family, key, text)] if found for s in found
        ]
        if settings:
            return tuple(settings)
    return None
