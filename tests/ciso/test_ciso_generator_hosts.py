"""Generated RHEL 9 instances discriminate: the built-in playbook and policy of each control pass
them strictly, a naive policy (the main file's last line spelled as the manual spells it; unset
complies; the main file's mode read as a number, its owner alone) fails them strictly, per control
and over several seeds, through the real class (ansible-playbook in the sandbox, then Rego)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ciso.evaluation.trial import evaluate_trial
from ciso.generator import generate, not_generated
from ciso.generator.auditd import AuditdControl
from ciso.generator.controls import CONTROLS, HOST_CONTROLS
from ciso.generator.hosts import FileAttributes, HostAttributes
from ciso.generator.login_defs import PATH, LoginDefsControl
from ciso.generator.modprobe import ModuleControl
from ciso.generator.permissions import PermissionsControl
from ciso.generator.pwquality import PwqualityControl
from ciso.generator.sshd import MAIN, SshdControl, read_settings
from ciso.generator.sysctl import SysctlControl
from ciso.scenarios.loader import load_directory
from ciso.scenarios.model import CisoScenario, ScenarioClass
from ciso.scenarios.reference import builtin_solution
from tests._support.ciso import needs_sandbox

SEEDS = (1, 2, 3)
HOSTS = sorted(k for k, c in CONTROLS.items() if isinstance(c, HOST_CONTROLS))
SSHD = [k for k in HOSTS if isinstance(CONTROLS[k], SshdControl)]

#: What a naive policy calls a violating value (the manual's plain wording of the control).
_NAIVE_BAD = {
    "rhel9-5.2.7": 'lower(v) != "no"',
    "rhel9-5.2.9": 'lower(v) == "yes"',
    "rhel9-5.2.11": 'lower(v) == "no"',
    "rhel9-5.2.12": 'lower(v) == "yes"',
    "rhel9-5.2.16": "to_number(v) > 4",
    "rhel9-5.2.19": "to_number(v) > 60",
    "rhel9-5.6.1.1": "to_number(v) > 365",
    "rhel9-5.6.1.3": "to_number(v) < 7",
}


_AUDITD_NAIVE = """package check

import rego.v1

default result := true

# the first "max_log_file_action = value" line, compared as the manual spells the value
values := [m[1] |
\tsome line in split(object.get(input, "auditd_conf", ""), "\\n")
\tm := regex.find_all_string_submatch_n(`^max_log_file_action = (\\S+)`, line, 1)[0]
]

result := false if {
\tcount(values) > 0
\tvalues[0] != "keep_logs"
}
"""

_SYSCTL_NAIVE = """package check

import rego.v1

default result := true

# any collected file with a dotted "key = 1" line
result := false if {
\tsome _, text in object.get(input, "files", {})
\tsome line in split(text, "\\n")
\tregex.match(`^(net\\.ipv4\\.ip_forward|net\\.ipv6\\.conf\\.all\\.forwarding)\\s*=\\s*1`, line)
}
"""


_MODPROBE_NAIVE = """package check

import rego.v1

default result := true

# a plain install line and a plain blacklist line, in any collected file
lines := [line | some _, text in object.get(input, "files", {}); some line in split(text, "\\n")]

install_disabled if {
\tsome line in lines
\tregex.match(`^install\\s+cramfs\\s+/(usr/)?bin/(false|true)`, line)
}

blacklisted if {
\tsome line in lines
\tregex.match(`^blacklist\\s+cramfs`, line)
}

result := false if not install_disabled

result := false if not blacklisted
"""

_PWQUALITY_NAIVE = """package check

import rego.v1

default result := true

# any "minlen = N" line (as the manual spells it) under 14; the PAM stacks are not read
result := false if {
\tsome _, text in object.get(input, "files", {})
\tsome line in split(text, "\\n")
\tm := regex.find_all_string_submatch_n(`^minlen = ([0-9]+)`, line, 1)[0]
\tto_number(m[1]) < 14
}
"""


def _permissions_naive(control: PermissionsControl) -> str:
    """The main file only (absent complies), its owner alone, its mode's last three digits
    compared with the limit as a number."""
    return f"""package check

import rego.v1

default result := true

result := false if {{
\tsome file in object.get(input, "files", [])
\tfile.path == "/{control.main}"
\tnot naive_ok(file)
}}

naive_ok(file) if {{
\tfile.pw_name == "root"
\tto_number(substring(file.mode, count(file.mode) - 3, 3)) <= {control.limit:o}
}}
"""


def naive_rego(name: str) -> str:
    control = CONTROLS[name]
    if isinstance(control, ModuleControl):
        return _MODPROBE_NAIVE
    if isinstance(control, PwqualityControl):
        return _PWQUALITY_NAIVE
    if isinstance(control, PermissionsControl):
        return _permissions_naive(control)
    if isinstance(control, AuditdControl):
        return _AUDITD_NAIVE
    if isinstance(control, SysctlControl):
        return _SYSCTL_NAIVE
    if isinstance(control, LoginDefsControl):
        # the first line naming the setting, in any case; unset complies
        return f"""package check

import rego.v1

default result := true

values := [m[1] |
\tsome line in split(object.get(input, "login_defs", ""), "\\n")
\tm := regex.find_all_string_submatch_n(`(?i)^{control.name}\\s+(\\S+)`, line, 1)[0]
]

bad(v) if {_NAIVE_BAD[name]}

result := false if {{
\tcount(values) > 0
\tbad(values[0])
}}
"""
    keyword = control.keyword
    return f"""package check

import rego.v1

default result := true

lines := split(object.get(input, "sshd_config", ""), "\\n")

values := [m[1] |
\tsome line in lines
\tm := regex.find_all_string_submatch_n(`^{keyword}\\s+(\\S+)`, line, 1)[0]
]

bad(v) if {_NAIVE_BAD[name]}

result := false if {{
\tcount(values) > 0
\tbad(values[count(values) - 1])
}}
"""


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, str], CisoScenario]:
    found = {}
    for seed in SEEDS:
        out = tmp_path_factory.mktemp(f"seed{seed}")
        written = generate(seed, out, HOSTS)
        result = load_directory(out)
        assert result.problems == ()
        by_dir = {s.source: s for s in result.scenarios}
        for item in written:
            (scenario,) = [s for d, s in by_dir.items() if d == item.directory]
            assert scenario.scenario_class is ScenarioClass.RHEL9_ANSIBLE_OPA
            found[(seed, item.control)] = scenario
    return found


def _score(scenario: CisoScenario, policy: str | None, tmp_path: Path) -> dict:
    trial = tmp_path / "trial"
    trial.mkdir()
    for name, source in scenario.solution.items():
        shutil.copyfile(source, trial / name)
    if policy is not None:
        (trial / "policy.rego").write_text(policy)
    return dict(evaluate_trial(scenario, trial).scores)


@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", HOSTS)
def test_the_reference_answer_passes_strictly(generated, seed, name, tmp_path) -> None:
    scenario = generated[(seed, name)]
    assert len(scenario.violating_resources) == 1
    assert _score(scenario, None, tmp_path) == {"itbench_pass": 1, "strict_pass": 1}


@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize(
    # one seed per control, the seeds taken in turn: each trial starts Ansible in the sandbox
    # (seconds apiece), and the hiding places a naive policy misses are in every seed's instance
    ("name", "seed"),
    [(name, SEEDS[i % len(SEEDS)]) for i, name in enumerate(HOSTS)],
)
def test_a_naive_policy_fails_strictly(generated, seed, name, tmp_path) -> None:
    scores = _score(generated[(seed, name)], naive_rego(name), tmp_path)
    assert scores["strict_pass"] == 0, scores


@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize("name", HOSTS)
def test_the_naive_policy_does_catch_a_plain_violation(name, tmp_path) -> None:
    """The naive policies are real checks: a main file saying the plain bad value is caught and
    one saying a good value passes, so their strict 0 comes from where the violations hide."""
    control = CONTROLS[name]
    folder = tmp_path / "plain"
    for side, bad in (("violating", True), ("compliant", False)):
        for relative, text in plain_host(control, bad).items():
            path = folder / side / "host" / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        attributes = plain_attributes(control, bad)
        if attributes:
            (folder / side / "host-attributes.yaml").write_text(
                "".join(
                    f"/{p}: {{mode: '{a.octal()}', owner: {a.owner}, group: {a.group}}}\n"
                    for p, a in attributes.items()
                )
            )
    (folder / "scenario.yaml").write_text(
        "id: plain\n"
        f'cis_id: "{control.cis_id}"\n'
        "platform: rhel9\n"
        "requirement: r\n"
        "classes: [rhel9-ansible-opa]\n"
        "violating_resources: []\n"
    )
    (scenario,) = load_directory(folder).scenarios
    trial = tmp_path / "trial"
    trial.mkdir()
    shutil.copyfile(reference_playbook(control.builtin_id), trial / "playbook.yml")
    (trial / "policy.rego").write_text(naive_rego(name))
    assert evaluate_trial(scenario, trial).scores == {"itbench_pass": 1, "strict_pass": 1}


def plain_attributes(control: object, bad: bool) -> HostAttributes:
    """The main file of a permissions control at 0644 (plainly too open) or at its limit."""
    if not isinstance(control, PermissionsControl):
        return {}
    return {control.main: FileAttributes(0o644 if bad else control.limit)}


def plain_host(control: object, bad: bool) -> dict[str, str]:
    """A host stating the control's setting once, plainly, in its main file."""
    if isinstance(control, PermissionsControl):
        return {control.main: "root\n"}
    if isinstance(control, ModuleControl):
        install = "/sbin/modprobe --ignore-install cramfs" if bad else "/bin/false"
        return {"etc/modprobe.d/cramfs.conf": f"install cramfs {install}\nblacklist cramfs\n"}
    if isinstance(control, PwqualityControl):
        module = "password requisite pam_pwquality.so local_users_only\n"
        return {
            "etc/security/pwquality.conf": f"minlen = {8 if bad else 14}\n",
            "etc/pam.d/system-auth": module,
            "etc/pam.d/password-auth": module,
        }
    if isinstance(control, SysctlControl):
        return {
            "etc/sysctl.conf": f"net.ipv4.ip_forward = {int(bad)}\nnet.ipv6.conf.all.forwarding = 0\n"
        }
    value = control.bad_values[0] if bad else control.good_values[0]
    if isinstance(control, LoginDefsControl):
        return {PATH: f"{control.name} {value}\n"}
    if isinstance(control, AuditdControl):
        return {"etc/audit/auditd.conf": f"max_log_file_action = {value.lower()}\n"}
    return {MAIN: f"Include /etc/ssh/sshd_config.d/*.conf\n{control.keyword} {value}\n"}


def reference_playbook(builtin_id: str) -> Path:
    return builtin_solution(builtin_id, ScenarioClass.RHEL9_ANSIBLE_OPA)["playbook.yml"]


def test_every_control_of_the_builtin_suite_is_generated() -> None:
    assert not_generated() == []
    assert len(HOSTS) == 15
    # the RHEL 9 ids are prefixed: the Kubernetes 5.2.11 and the RHEL 9 5.2.11 are both there
    assert CONTROLS["5.2.11"].builtin_id != CONTROLS["rhel9-5.2.11"].builtin_id


@pytest.mark.parametrize("name", SSHD)
def test_generated_hosts_hide_the_violation_from_the_main_file(name, tmp_path) -> None:
    """Over many seeds, the violating host's main file alone (Include and drop-ins dropped)
    never shows the violation: a check that reads it misses every one."""
    control = CONTROLS[name]
    for seed in range(20):
        (item,) = generate(seed, tmp_path / str(seed), [name])
        main = (item.directory / "violating" / "host" / MAIN).read_text()
        spelled = [x for x in main.split("\n") if x.startswith(control.keyword + " ")]
        last = spelled[-1].split()[1] if spelled else None
        assert last is None or control.complies(last), (seed, main)


def test_requirement_texts_vary_over_seeds(tmp_path) -> None:
    import yaml

    texts = {
        yaml.safe_load(
            (
                generate(s, tmp_path / str(s), ["rhel9-5.2.16"])[0].directory / "scenario.yaml"
            ).read_text()
        )["requirement"]
        for s in range(12)
    }
    assert len(texts) == 3


def test_the_sshd_reading_follows_include_order_and_match_scope() -> None:
    files = {
        MAIN: "Include sshd_config.d/*.conf\nMaxAuthTries 10\nMatch User a\n  MaxAuthTries 2\n",
        "etc/ssh/sshd_config.d/10-a.conf": "maxauthtries=3\nMatch Group g\nMaxAuthTries 9\n",
        "etc/ssh/sshd_config.d/20-b.conf": "MaxAuthTries 7\n",
        "etc/ssh/sshd_config.d/05-c.conf.disabled": "MaxAuthTries 1\n",
    }
    got = [(s.value, s.in_match) for s in read_settings(files)]
    # 10-a's Match ends with its file: 20-b's line is global again
    assert got == [("3", False), ("9", True), ("7", False), ("10", False), ("2", True)]
    assert CONTROLS["rhel9-5.2.16"].violates(files)  # 9 and 10 are read, 3 is the global value
    del files["etc/ssh/sshd_config.d/10-a.conf"]
    files[MAIN] = "Include sshd_config.d/*.conf\nMatch User a\n  MaxAuthTries 2\n"
    files["etc/ssh/sshd_config.d/20-b.conf"] = "MAXAUTHTRIES 4\n"
    assert not CONTROLS["rhel9-5.2.16"].violates(files)


def test_the_permissions_reading_judges_every_bit_and_both_owners() -> None:
    sshd = CONTROLS["rhel9-5.2.1"]
    cron = CONTROLS["rhel9-5.1.8"]
    assert isinstance(sshd, PermissionsControl) and isinstance(cron, PermissionsControl)
    main = {"etc/ssh/sshd_config": ""}
    for mode, ok in ((0o600, True), (0o400, True), (0o000, True), (0o440, False), (0o404, False),
                     (0o700, False), (0o4600, False), (0o1600, False), (0o2400, False)):  # fmt: skip
        assert sshd.violates(main, {"etc/ssh/sshd_config": FileAttributes(mode)}) is not ok, mode
    assert sshd.violates(main, {"etc/ssh/sshd_config": FileAttributes(0o600, "root", "adm")})
    # a drop-in counts, a .conf.disabled file and the client's ssh_config do not
    files = {**main, "etc/ssh/sshd_config.d/50-redhat.conf": "", "etc/ssh/ssh_config": ""}
    loose = {p: FileAttributes(0o644) for p in files} | {
        "etc/ssh/sshd_config": FileAttributes(0o600)
    }
    assert sshd.violates(files, loose)
    files["etc/ssh/sshd_config.d/50-redhat.conf.disabled"] = files.pop(
        "etc/ssh/sshd_config.d/50-redhat.conf"
    )
    loose["etc/ssh/sshd_config.d/50-redhat.conf.disabled"] = FileAttributes(0o644)
    assert not sshd.violates(files, loose)
    # cron: group read allowed, an absent cron.allow violates whatever cron.deny says
    allow = {"etc/cron.allow": ""}
    assert not cron.violates(allow, {"etc/cron.allow": FileAttributes(0o640)})
    assert cron.violates(allow, {"etc/cron.allow": FileAttributes(0o604)})
    assert cron.violates({"etc/cron.deny": ""}, {"etc/cron.deny": FileAttributes(0o600)})


def test_the_modprobe_reading_takes_the_first_install_rule_of_the_files_read() -> None:
    cramfs = CONTROLS["rhel9-1.1.1.1"]
    assert isinstance(cramfs, ModuleControl)
    rules = "install cramfs /bin/false\nblacklist cramfs\n"
    load = "install cramfs /sbin/modprobe --ignore-install cramfs\n"
    assert not cramfs.violates({"etc/modprobe.d/50-cis.conf": rules})
    assert cramfs.violates({"etc/modprobe.d/10-a.conf": load, "etc/modprobe.d/50-cis.conf": rules})
    assert not cramfs.violates(
        {"etc/modprobe.d/10-a.conf": rules, "etc/modprobe.d/90-z.conf": load}
    )
    # a same-named /etc file hides the vendor file; dot files and other suffixes are not read
    assert cramfs.violates(
        {
            "usr/lib/modprobe.d/50-cis.conf": rules,
            "etc/modprobe.d/50-cis.conf": "blacklist cramfs\n",
        }
    )
    assert not cramfs.violates(
        {"usr/lib/modprobe.d/10-a.conf": load, "etc/modprobe.d/10-a.conf": rules}
    )
    split = {"etc/modprobe.d/50-cis.conf": "install cramfs /bin/false\n"}
    for name in (".bl.conf", "bl.conf.disabled"):
        assert cramfs.violates({**split, f"etc/modprobe.d/{name}": "blacklist cramfs\n"}), name
    assert not cramfs.violates({**split, "run/modprobe.d/bl.conf": "blacklist\tcramfs\n"})
    assert cramfs.violates(
        {
            "etc/modprobe.d/c.conf": "install cramfs /bin/true; /sbin/modprobe cramfs\nblacklist cramfs\n"
        }
    )
    assert not cramfs.violates(
        {"etc/modprobe.d/c.conf": "install cramfs \\\n  /usr/bin/false\nblacklist cramfs\n"}
    )


def test_the_pwquality_reading_lets_the_main_file_and_the_module_line_win() -> None:
    minlen = CONTROLS["rhel9-5.4.1"]
    assert isinstance(minlen, PwqualityControl)
    module = "password requisite pam_pwquality.so local_users_only{}\n"
    stacks = {s: module.format("") for s in ("etc/pam.d/system-auth", "etc/pam.d/password-auth")}
    drop_in = "etc/security/pwquality.conf.d/50-cis.conf"
    assert not minlen.violates({**stacks, drop_in: "minlen = 14\n"})
    assert minlen.violates(stacks)  # unset
    # the main file is read after the drop-ins; names in any case
    assert minlen.violates(
        {**stacks, drop_in: "minlen = 14\n", "etc/security/pwquality.conf": "MinLen=10\n"}
    )
    assert not minlen.violates(
        {**stacks, drop_in: "minlen 8\n", "etc/security/pwquality.conf": "minlen=15 # CIS\n"}
    )
    # a module argument wins over the files; a commented-out module line checks nothing
    files = {**stacks, drop_in: "minlen = 14\n"}
    assert minlen.violates({**files, "etc/pam.d/password-auth": module.format(" minlen=8")})
    assert minlen.violates({**files, "etc/pam.d/system-auth": "#" + module.format("")})
    assert not minlen.violates({**stacks, "etc/pam.d/system-auth": module.format(" minlen=14"),
                                "etc/pam.d/password-auth": module.format(" minlen=20")})  # fmt: skip


def test_generated_permission_hosts_carry_modes_for_every_file(tmp_path) -> None:
    """Every file of a generated permissions instance has its mode and owners written (git
    keeps neither), and the violating host hides its violation in more than one way."""
    import yaml

    hidden = set()
    for seed in range(12):
        for name in ("rhel9-5.2.1", "rhel9-6.1.5", "rhel9-5.1.8"):
            (item,) = generate(seed, tmp_path / f"{seed}-{name}", [name])
            for side in ("violating", "compliant"):
                listed = yaml.safe_load(
                    (item.directory / side / "host-attributes.yaml").read_text()
                )
                files = {
                    "/" + p.relative_to(item.directory / side / "host").as_posix()
                    for p in (item.directory / side / "host").rglob("*")
                    if p.is_file()
                }
                assert set(listed) == files, (seed, name, side)
            notes = yaml.safe_load((item.directory / "scenario.yaml").read_text())["notes"]
            hidden.add(notes.split(". Compliant host")[0].split(" has ")[-1].split(" (")[0][:9])
    assert len(hidden) >= 4, hidden
