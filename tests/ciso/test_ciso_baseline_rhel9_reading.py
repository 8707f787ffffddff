"""The baseline reads RHEL 9 requirement texts it has not seen, and judges hosts laid out as RHEL 9
lays them out.

Reading: a control's values in any phrasing (numbers in words, ranges, strict bounds read by the
sentence's polarity, "at most"/"no more than"), the control a text names over one it mentions in
an aside, a file that must exist, owners written as ``root:root``, "every line" settings. Hosts:
continued modprobe lines, login.defs names in their exact case, a Match block of a drop-in that
ends with the drop-in, every auditd line, an absent file, through the real class (ansible-playbook
in the sandbox, then Rego). Each sentence and host here is written for this test (none is a
generator's or the suite's phrasing).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ciso.agents.baseline.intent import (
    AuditWatchCheck,
    ConfigSetting,
    FilePermissionCheck,
    Intent,
    ModuleDisabledCheck,
)
from ciso.agents.baseline.knowledge.rhel_config import bounds
from ciso.agents.baseline.parser import parse
from ciso.agents.baseline.render import render
from tests._support.ciso import needs_sandbox
from tests._support.ciso_baseline import JUDGED, intent_of, judged_hosts


def _setting(text: str) -> ConfigSetting:
    (check,) = intent_of(text, "rhel9").checks
    assert isinstance(check, ConfigSetting), check
    return check


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # strict bounds: what violates ("fails when below 14") or what complies
        ("The check fails when the minimum length is unset or below 14.", ("ge", (14,))),
        ("Passwords shorter than 12 characters must be rejected.", ("ge", (12,))),
        ("A value greater than 5 is a finding.", ("le", (5,))),
        ("It fails unless the value is above 0.", ("ge", (1,))),
        ("The value must stay below 10.", ("le", (9,))),
        # ranges
        ("Any number from 0 to 3 is acceptable.", ("between", (0, 3))),
        ("Accepted: between 2 and 6 attempts.", ("between", (2, 6))),
        # numbers in words, units converted
        ("Ages of no more than ninety days are fine.", ("le", (90,))),
        ("at least fourteen characters", ("ge", (14,))),
        ("three hundred and sixty-five days or fewer", ("le", (365,))),
        ("Expire within a year.", ("le", (365,))),
        ("Half-open logins are cut after two minutes at most.", ("le", (120,))),
        ("a maximum password age of 180 days", ("le", (180,))),
        ("a minimum length of 15", ("ge", (15,))),
        # no number at all, or an article that is no number
        ("Keep a log of it.", None),
    ],
)
def test_bounds_in_many_phrasings(text: str, expected: tuple | None) -> None:
    assert bounds(text) == expected


def test_pwquality_minimum_stated_by_what_fails() -> None:
    check = _setting(
        "Result: non-compliant if either PAM stack lacks pam_pwquality.so, or if the minlen in "
        "force is missing or under 16."
    )
    assert (check.key, check.comparison, check.values, check.unset_complies) == (
        "minlen",
        "ge",
        (16,),
        False,
    )


def test_a_range_from_zero_keeps_zero() -> None:
    check = _setting("sshd's MaxAuthTries passes when it is a number from 0 to 3; unset fails.")
    assert (check.key, check.comparison, check.values) == ("MaxAuthTries", "between", (0, 3))


def test_a_quoted_keyword_names_the_setting() -> None:
    check = _setting("'PASS_MAX_DAYS' in /etc/login.defs: no more than sixty days.")
    assert (check.key, check.comparison, check.values) == ("PASS_MAX_DAYS", "between", (1, 60))


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # the aside's keyword comes first in the knowledge's order; the subject must win
        (
            "Nobody logs in as root over SSH: PermitRootLogin no (MaxAuthTries is a separate "
            "matter).",
            "PermitRootLogin",
        ),
        (
            "PermitRootLogin must be no in the effective sshd configuration. LoginGraceTime 120 "
            "on the host violates another control and is not judged here.",
            "PermitRootLogin",
        ),
        # a file named only as where the setting lives is no file-permission requirement
        (
            "PermitRootLogin in /etc/ssh/sshd_config (readable by root only) must be no.",
            "PermitRootLogin",
        ),
    ],
)
def test_the_control_a_text_names_over_one_in_an_aside(text: str, key: str) -> None:
    assert _setting(text).key == key


def test_a_kubernetes_field_declared_out_of_scope_is_no_subject() -> None:
    parsed = parse(
        "A pod fails when some container does not drop ALL under "
        "securityContext.capabilities.drop. capabilities.add is out of scope.",
        "kubernetes",
    )
    assert isinstance(parsed, Intent), parsed
    (check,) = parsed.checks
    assert check.concept == "drop-all-capabilities"


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        # the parenthesis spells out the field the requirement is about: no aside
        (
            "No workload may ask for more kernel powers than the runtime grants "
            "(securityContext.capabilities.add stays empty). Dropping capabilities is welcome.",
            "added-capabilities",
        ),
        # a parenthesis that points at another control stays an aside
        (
            "Every container drops ALL capabilities under securityContext.capabilities.drop "
            "(capabilities.add is judged by CIS 5.2.9).",
            "drop-all-capabilities",
        ),
    ],
)
def test_a_parenthesis_that_spells_the_field_is_no_aside(text: str, concept: str) -> None:
    parsed = parse(text, "kubernetes")
    assert isinstance(parsed, Intent), parsed
    assert parsed.checks[0].concept == concept


def test_every_line_setting_the_key_must_comply() -> None:
    check = _setting(
        "auditd must keep its logs: every occurrence of max_log_file_action must be keep_logs."
    )
    assert (check.key, check.values, check.every_value) == (
        "max_log_file_action",
        ("keep_logs",),
        True,
    )
    assert not _setting("max_log_file_action must be keep_logs in auditd.conf.").every_value


@pytest.mark.parametrize(
    ("text", "must_exist"),
    [
        ("A host fails when /etc/at.allow is missing or has any bit beyond 0600.", True),
        ("Ensure /etc/at.allow exists, owned by root, with mode 0600 or tighter.", True),
        ("/etc/at.allow, when present, must have mode 0600 or tighter.", False),
        ("/etc/at.allow must have mode 0600 or tighter; an absent file passes.", False),
        # what goes wrong without the file says it must be there
        (
            "Who may queue jobs with at is decided by /etc/at.allow (without one, at admits "
            "every user not denied): owned by root, mode 0600 or tighter.",
            True,
        ),
    ],
)
def test_a_file_that_must_exist(text: str, must_exist: bool) -> None:
    (check,) = intent_of(text, "rhel9").checks
    assert isinstance(check, FilePermissionCheck)
    assert (check.paths, check.must_exist) == (("/etc/at.allow",), must_exist)


@pytest.mark.parametrize(
    ("text", "owner", "group"),
    [
        (
            "Only root may read the hashes: /etc/shadow belongs to root:shadow, mode 0600.",
            "root",
            "shadow",
        ),
        # "stay ... alone" is no dismissal, and "group or other" names no group
        (
            "The backups stay root's alone: /etc/gshadow- must have mode 0600, with no group or "
            "other bit.",
            "root",
            "root",
        ),
        (
            "/etc/gshadow must be owned by user root and group wheel with mode 0640.",
            "root",
            "wheel",
        ),
    ],
)
def test_owner_and_group_in_their_spellings(text: str, owner: str, group: str) -> None:
    (check,) = intent_of(text, "rhel9").checks
    assert isinstance(check, FilePermissionCheck)
    assert (check.owner, check.group) == (owner, group)
    assert check.paths


@pytest.mark.parametrize(
    ("text", "module"),
    [
        (
            "The host fails unless the first 'install udf' rule modprobe reads runs /bin/false, "
            "and a 'blacklist udf' rule is read.",
            "udf",
        ),
        (
            "udf must not load: the first install rule modprobe reads for it runs /bin/false, and "
            "udf is blacklisted.",
            "udf",
        ),
        (
            "modprobe: hfsplus must be blacklisted and its install rule must run /bin/true.",
            "hfsplus",
        ),
        (
            "The kernel must never load jffs2; blacklist it and make its install rule /bin/false.",
            "jffs2",
        ),
        (
            "Loading of the squashfs kernel module is disabled, and squashfs is blacklisted.",
            "squashfs",
        ),
    ],
)
def test_module_named_by_its_directives_or_as_the_subject(text: str, module: str) -> None:
    (check,) = intent_of(text, "rhel9").checks
    assert check == ModuleDisabledCheck(module=module, blacklisted=True)


# ---- hosts: the rendered playbook and policy through the real class ----------------------


@needs_sandbox
@pytest.mark.slow
def test_modprobe_continued_lines_and_hidden_vendor_files(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        "The udf kernel module must stay unloaded: the first install rule modprobe reads for "
        "it runs /bin/false, and udf is blacklisted.",
        violating={
            "etc/modprobe.d/20-fs.conf": "install udf /bin/false\n",
            # a dot file: modprobe never reads it
            "etc/modprobe.d/.udf.conf": "blacklist udf\n",
        },
        compliant={
            # a continued line, hiding the vendor file of the same name
            "etc/modprobe.d/30-media.conf": "install \tudf \\\n    /usr/bin/false\n",
            "usr/lib/modprobe.d/30-media.conf": "install udf /sbin/modprobe --ignore-install udf\n",
            "run/modprobe.d/udf.conf": "blacklist udf\n",
        },
    )
    assert verdicts == JUDGED


@needs_sandbox
@pytest.mark.slow
def test_login_defs_names_keep_their_case_and_values_their_quotes(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        "Password aging: PASS_MAX_DAYS in /etc/login.defs at most 180 days; the last line "
        "setting it counts.",
        violating={"etc/login.defs": 'PASS_MAX_DAYS 90\nPASS_MAX_DAYS "0"\n'},
        compliant={"etc/login.defs": "PASS_MAX_DAYS 0\nPASS_MAX_DAYS 180\npass_max_days 99999\n"},
    )
    assert verdicts == JUDGED


@needs_sandbox
@pytest.mark.slow
def test_a_match_block_ends_with_its_drop_in(tmp_path: Path) -> None:
    main = "Include /etc/ssh/sshd_config.d/*.conf\nPermitRootLogin {}\n"
    drop_in = "Match Address 10.1.0.0/16\n    PermitRootLogin no\n"
    verdicts = judged_hosts(
        tmp_path,
        "Root must not log in over SSH: PermitRootLogin no; unset is a finding, and Match "
        "blocks count.",
        violating={
            "etc/ssh/sshd_config": main.format("yes"),
            "etc/ssh/sshd_config.d/40-lan.conf": drop_in,
        },
        compliant={
            "etc/ssh/sshd_config": main.format("no"),
            "etc/ssh/sshd_config.d/40-lan.conf": drop_in,
        },
    )
    assert verdicts == JUDGED


@needs_sandbox
@pytest.mark.slow
def test_every_auditd_line_must_comply_when_the_text_says_so(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        "Old audit logs stay: max_log_file_action must be keep_logs on each line that sets it.",
        violating={
            "etc/audit/auditd.conf": "max_log_file_action = ROTATE\nmax_log_file_action = keep_logs\n"
        },
        compliant={"etc/audit/auditd.conf": "MAX_LOG_FILE_ACTION=Keep_Logs\n"},
    )
    assert verdicts == JUDGED


@needs_sandbox
@pytest.mark.slow
def test_an_absent_file_fails_when_the_text_requires_it(tmp_path: Path) -> None:
    verdicts = judged_hosts(
        tmp_path,
        "A host fails when /etc/at.allow is absent, not owned by root:root, or has any bit beyond "
        "0640.",
        violating={"etc/at.deny": "\n"},
        compliant={"etc/at.allow": "root\n"},
        attributes={"compliant": "/etc/at.allow: {mode: '0640', owner: root, group: root}\n"},
    )
    assert verdicts == JUDGED


@pytest.mark.parametrize(
    ("text", "max_mode", "also_groups"),
    [
        (
            "Only root may read the private host keys sshd serves, besides the ssh_keys group; "
            "no one other than root may modify them. Public host keys may remain readable.",
            0o640,
            ("ssh_keys",),
        ),
        ("Nobody but root may read or change the private SSH host keys.", 0o600, ()),
    ],
)
def test_file_modes_stated_by_who_may_read_and_change(
    text: str, max_mode: int, also_groups: tuple[str, ...]
) -> None:
    (check,) = intent_of(text, "rhel9").checks
    assert isinstance(check, FilePermissionCheck)
    assert (check.globs, check.max_mode, check.owner, check.group, check.also_groups) == (
        ("/etc/ssh/ssh_host_*_key",),
        max_mode,
        "root",
        "root",
        also_groups,
    )


SSHD_AUDIT = (
    "Writes to /etc/ssh/sshd_config and changes to its ownership or mode must be recorded in "
    "the audit trail by rules loaded at boot."
)


def test_audit_watches_read_from_what_must_be_recorded() -> None:
    (check,) = intent_of(SSHD_AUDIT, "rhel9").checks
    assert isinstance(check, AuditWatchCheck)
    assert (check.paths, check.permissions) == (("/etc/ssh/sshd_config",), "wa")


def _audit_verdict(entries: list[dict[str, str]]) -> bool:
    from ciso.evaluation.rego import evaluate_source

    policy = render(intent_of(SSHD_AUDIT, "rhel9"), "rhel9-ansible-opa").files["policy.rego"]
    return evaluate_source({"policy.rego": policy}, "data.check.result", {"entries": entries}).value


@pytest.mark.parametrize(
    ("entries", "complies"),
    [
        # a write watch and an attribute watch from two rules together record both
        ([{"key": "/etc/ssh/sshd_config", "value": "w"},
          {"key": "/etc/ssh/sshd_config", "value": "a"}], True),
        ([{"key": "/etc/ssh/sshd_config", "value": "aw"}], True),
        ([{"key": "/etc/ssh/sshd_config", "value": "r"}], False),
        ([{"key": "/etc/ssh/ssh_config", "value": "wa"}], False),
        ([], False),
    ],
)  # fmt: skip
def test_audit_watches_judged_on_every_access_letter(
    entries: list[dict[str, str]], complies: bool
) -> None:
    assert _audit_verdict(entries) is complies
