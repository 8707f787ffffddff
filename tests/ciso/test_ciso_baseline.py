"""The CISO ``baseline`` agent: requirement parsing per family, rendering of every dialect
(checked by the real engines), the agent contract, and the paraphrase set through the real
evaluator."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from ciso.agents.baseline.agent import BaselineAgent
from ciso.agents.baseline.intent import (
    SYSTEM_NAMESPACES,
    BindingCheck,
    CapabilityCheck,
    ConfigSetting,
    ContainerFieldCheck,
    FilePermissionCheck,
    Intent,
    ModuleDisabledCheck,
    NotUnderstood,
    PodFieldCheck,
    RbacRuleCheck,
)
from ciso.agents.baseline.parser import extract_requirement, parse, update_request
from ciso.agents.baseline.render import render
from ciso.agents.rewording import build_suite, load_paraphrases
from ciso.engines.ansible import syntax_check
from ciso.engines.kyverno.structure import check_policy
from ciso.scenarios.public import goal_text
from itbench.agents.base import Task
from itbench.models import Scenario
from itbench.models.records import AgentStatus
from itbench.transcript import Transcript, read_transcript
from tests._support.cli import REPO, run_cli

SUITE = REPO / "ciso" / "suite"
PARAPHRASES = Path(__file__).parent / "paraphrases.yaml"
AGENT_SOURCES = REPO / "ciso" / "agents" / "baseline"


def _intent(text: str, platform: str = "kubernetes") -> Intent:
    parsed = parse(text, platform)
    assert isinstance(parsed, Intent), parsed
    return parsed


def _suite_requirements() -> list[tuple[str, str, str]]:
    """(scenario id, platform, requirement) of every scenario.yaml of the built-in suite."""
    rows = []
    for path in sorted(SUITE.glob("*/*/scenario.yaml")):
        spec = yaml.safe_load(path.read_text())
        rows.append((spec["id"], spec.get("platform", "kubernetes"), spec["requirement"]))
    return rows


# ---- parser: Kubernetes pod security -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("No workload may share the node's network namespace (hostNetwork: true).", "hostNetwork"),
        ("Pods must not use the host's networking.", "hostNetwork"),
        ("Containers must never see the host's processes (hostPID).", "hostPID"),
        ("Pods may not join the host IPC namespace.", "hostIPC"),
    ],
)
def test_host_namespace_fields_are_forbidden_true(text: str, field: str) -> None:
    (check,) = _intent(text).checks
    assert isinstance(check, PodFieldCheck)
    assert (check.field, check.forbidden, check.required) == (field, True, None)


def test_privilege_escalation_explicit_means_unset_violates() -> None:
    explicit = _intent(
        "Every container must set allowPrivilegeEscalation: false explicitly; unset counts as "
        "allowed."
    ).checks[0]
    plain = _intent("Containers must not allow privilege escalation.").checks[0]
    assert isinstance(explicit, ContainerFieldCheck) and isinstance(plain, ContainerFieldCheck)
    assert (explicit.required, explicit.forbidden) == (False, None)
    assert (plain.required, plain.forbidden) == (None, True)


def test_host_process_id_namespace_is_not_windows_host_process() -> None:
    (check,) = _intent("A pod must not share the host process ID namespace.").checks
    assert isinstance(check, PodFieldCheck) and check.field == "hostPID"


@pytest.mark.parametrize(
    ("text", "must_drop", "forbid_add"),
    [
        ("Every container must drop ALL capabilities.", ("ALL",), ()),
        ("Containers must not keep NET_RAW (raw sockets).", ("NET_RAW", "ALL"), ("NET_RAW",)),
        ("No container may add extra Linux capabilities.", (), ("*",)),
    ],
)
def test_capabilities(text: str, must_drop: tuple, forbid_add: tuple) -> None:
    (check,) = _intent(text).checks
    assert isinstance(check, CapabilityCheck)
    assert (check.must_drop, check.forbid_add) == (must_drop, forbid_add)


def test_security_context_bundle_lists_each_field() -> None:
    checks = _intent(
        "Each container's securityContext must set readOnlyRootFilesystem: true and "
        "allowPrivilegeEscalation: false."
    ).checks
    fields = {(c.path[-1], c.required) for c in checks if isinstance(c, ContainerFieldCheck)}
    assert fields == {("readOnlyRootFilesystem", True), ("allowPrivilegeEscalation", False)}


# ---- parser: scope --------------------------------------------------------------------------


def test_single_exempt_namespace() -> None:
    intent = _intent("No container may run privileged; kube-system is exempt.")
    assert intent.scope.exempt_namespaces == ("kube-system",)


def test_system_namespaces_phrase_exempts_all_three() -> None:
    intent = _intent("Pods must not use hostPath volumes, except in the system namespaces.")
    assert set(intent.scope.exempt_namespaces) == set(SYSTEM_NAMESPACES)


def test_no_exemption_wording_exempts_nothing() -> None:
    intent = _intent("Pods must not use hostPath volumes in kube-system or anywhere else.")
    assert intent.scope.exempt_namespaces == ()


# ---- parser: RBAC ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "concept", "verbs"),
    [
        (
            "No Role may grant get, list or watch on secrets.",
            "secrets-read",
            ("get", "list", "watch"),
        ),
        ("Roles must not let anyone read Secrets.", "secrets-read", ("get", "list", "watch")),
        ("No ClusterRole may grant create on pods or deployments.", "pod-creation", ("create",)),
        ("Roles must not use wildcards in their rules.", "rbac-wildcards", ()),
        ("No role may allow impersonate or escalate.", "bind-escalate-impersonate", None),
    ],
)
def test_rbac_rules(text: str, concept: str, verbs: tuple | None) -> None:
    (check,) = _intent(text).checks
    assert isinstance(check, RbacRuleCheck) and check.concept == concept
    if verbs is not None:
        assert check.verbs == verbs


def test_builtin_roles_exemption_in_other_words() -> None:
    intent = _intent(
        "No Role may grant read access to secrets. Roles Kubernetes ships are excluded."
    )
    assert intent.scope.exempt_builtin_rbac


@pytest.mark.parametrize(
    ("text", "role_ref", "subject"),
    [
        ("Nobody may be bound to cluster-admin.", "cluster-admin", None),
        (
            "Do not bind anything to the system:masters group (unlike the cluster-admin default).",
            None,
            "system:masters",
        ),
    ],
)
def test_bindings_first_named_subject_wins(
    text: str, role_ref: str | None, subject: str | None
) -> None:
    (check,) = _intent(text).checks
    assert isinstance(check, BindingCheck)
    assert (check.role_ref, check.subject_name) == (role_ref, subject)


# ---- parser: RHEL ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "comparison", "values", "unset_ok"),
    [
        (
            "sshd must allow at most 4 authentication attempts.",
            "MaxAuthTries",
            "between",
            (1, 4),
            False,
        ),
        (
            "Clients must authenticate within no more than 60 seconds over SSH.",
            "LoginGraceTime",
            "between",
            (1, 60),
            False,
        ),
        (
            "The SSH login grace time must be one minute or less.",
            "LoginGraceTime",
            "between",
            (1, 60),
            False,
        ),
        ("Passwords must expire within a year.", "PASS_MAX_DAYS", "between", (1, 365), False),
        (
            "Warn users at least 7 days before their password expires.",
            "PASS_WARN_AGE",
            "ge",
            (7,),
            False,
        ),
        ("X11 forwarding must be disabled for SSH.", "X11Forwarding", "eq", ("no",), True),
        ("Root must not log in over SSH.", "PermitRootLogin", "eq", ("no",), False),
        ("SSH must never accept empty passwords.", "PermitEmptyPasswords", "eq", ("no",), True),
        ("The SSH server must ignore .rhosts files.", "IgnoreRhosts", "eq", ("yes",), True),
        (
            "auditd must keep old logs, never delete them.",
            "max_log_file_action",
            "eq",
            ("keep_logs",),
            False,
        ),
    ],
)
def test_rhel_settings(text: str, key: str, comparison: str, values: tuple, unset_ok: bool) -> None:
    (check,) = _intent(text, "rhel9").checks
    assert isinstance(check, ConfigSetting)
    assert (check.key, check.comparison, check.values, check.unset_complies) == (
        key,
        comparison,
        values,
        unset_ok,
    )


def test_number_after_its_unit_phrase() -> None:
    (check,) = _intent("Passwords should expire after 90 days at most.", "rhel9").checks
    assert isinstance(check, ConfigSetting) and check.values == (1, 90)


def test_ipv4_alone_is_not_widened_to_ipv6() -> None:
    checks = _intent("IPv4 forwarding must be off.", "rhel9").checks
    assert [c.key for c in checks if isinstance(c, ConfigSetting)] == ["net.ipv4.ip_forward"]


def test_ip_forwarding_covers_both_families() -> None:
    checks = _intent(
        "The host must not forward packets between interfaces (forwarding).", "rhel9"
    ).checks
    assert {c.key for c in checks if isinstance(c, ConfigSetting)} == {
        "net.ipv4.ip_forward",
        "net.ipv6.conf.all.forwarding",
    }


def test_file_permissions_take_the_loosest_accepted_mode_and_ignore_dismissed_files() -> None:
    (check,) = _intent(
        "/etc/cron.allow must exist, owned by root, mode 0640 or stricter. /etc/cron.deny alone "
        "does not comply.",
        "rhel9",
    ).checks
    assert isinstance(check, FilePermissionCheck)
    assert (check.paths, check.max_mode, check.must_exist) == (("/etc/cron.allow",), 0o640, True)
    (shadow,) = _intent(
        "/etc/shadow must have mode 0000 (0400 and 0600 are accepted).", "rhel9"
    ).checks
    assert isinstance(shadow, FilePermissionCheck) and shadow.max_mode == 0o600


def test_kernel_module() -> None:
    (check,) = _intent("modprobe must refuse to load udf; blacklist it too.", "rhel9").checks
    assert isinstance(check, ModuleDisabledCheck)
    assert (check.module, check.blacklisted) == ("udf", True)
    (hyphen,) = _intent("Ensure the usb-storage kernel module is not available.", "rhel9").checks
    assert isinstance(hyphen, ModuleDisabledCheck)
    assert (hyphen.module, hyphen.blacklisted) == ("usb-storage", False)


# ---- parser: not understood, goal texts -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "platform"),
    [
        ("Rotate the TLS certificates monthly.", "kubernetes"),
        ("Rotate the TLS certificates monthly.", "rhel9"),
        ("Keep the cluster tidy.", "kubernetes"),
        ("", "kubernetes"),
    ],
)
def test_unrelated_requirements_are_not_understood(text: str, platform: str) -> None:
    result = parse(text, platform)
    assert isinstance(result, NotUnderstood)
    assert result.reason


def test_requirement_is_extracted_from_every_goal_template() -> None:
    from ciso.scenarios.loader import load_ciso_scenarios

    # kyverno-update's goal is the bundle's own text; kyverno-migrate's the baseline never reads
    # (it does not migrate)
    skipped = ("kyverno-update", "kyverno-migrate")
    scenarios = [
        s for s in load_ciso_scenarios(None).scenarios if s.scenario_class.value not in skipped
    ]
    assert scenarios
    for scenario in scenarios:
        extracted = extract_requirement(goal_text(scenario))
        assert extracted == " ".join(scenario.requirement.split()), scenario.id


def test_update_goal_is_split_into_target_and_new_requirement() -> None:
    info = json.loads((SUITE / "kyverno-update" / "update-host-ports" / "info.json").read_text())
    request = update_request(info["goal"])
    assert not isinstance(request, NotUnderstood)
    assert (request.policy, request.keep) == ("host-namespaces", ("team-ownership",))
    assert "hostPort" in request.requirement and "PID" not in request.requirement


@pytest.mark.parametrize(("scenario_id", "platform", "requirement"), _suite_requirements())
def test_every_suite_requirement_is_understood(
    scenario_id: str, platform: str, requirement: str
) -> None:
    assert isinstance(parse(requirement, platform), Intent), scenario_id


# ---- rendering, checked by the engines --------------------------------------------------------


def _rendered(cls: str) -> dict[str, dict[str, str]]:
    out = {}
    for scenario_id, platform, requirement in _suite_requirements():
        if (platform == "rhel9") != (cls == "rhel9-ansible-opa"):
            continue
        out[scenario_id] = render(_intent(requirement, platform), cls).files
    return out


@pytest.mark.slow
@pytest.mark.parametrize("cls", ["kubectl-opa", "rhel9-ansible-opa"])
def test_rendered_rego_compiles(cls: str, tmp_path: Path) -> None:
    for scenario_id, files in _rendered(cls).items():
        folder = tmp_path / scenario_id
        folder.mkdir()
        (folder / "policy.rego").write_text(files["policy.rego"])
        done = run_cli(["rego", "check", str(folder / "policy.rego")])
        assert done.returncode == 0, f"{scenario_id}: {done.stdout}{done.stderr}"


def test_rendered_kyverno_passes_structure_checks() -> None:
    for scenario_id, files in _rendered("kyverno").items():
        (policy,) = list(yaml.safe_load_all(files["kyverno-policy.yaml"]))
        check_policy(policy, policy["metadata"]["name"], scenario_id)
        assert policy["spec"]["validationFailureAction"] == "Audit"
        assert policy["spec"]["background"] is True


def test_fetch_scripts_have_a_shebang_and_no_kubeconfig() -> None:
    for files in _rendered("opa-static").values():
        assert files["fetch.sh"].startswith("#!/usr/bin/env bash\n")
    for files in _rendered("kubectl-opa").values():
        assert "--kubeconfig" not in files["fetcher.sh"]
        assert re.search(r"kubectl get \S+ -A -o json > collected_data.json", files["fetcher.sh"])


@pytest.mark.slow
def test_rendered_playbooks_pass_syntax_check(tmp_path: Path) -> None:
    for scenario_id, files in _rendered("rhel9-ansible-opa").items():
        playbook = tmp_path / scenario_id / "playbook.yml"
        playbook.parent.mkdir()
        playbook.write_text(files["playbook.yml"])
        assert syntax_check(playbook) == [], scenario_id
        play = yaml.safe_load(files["playbook.yml"])[0]
        assert (play["hosts"], play["gather_facts"]) == ("rhel9_servers", False)


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        # first value wins: the drop-in included at the top of sshd_config says no
        ([("x11forwarding", "no", False), ("x11forwarding", "yes", False)], "true"),
        ([("x11forwarding", "yes", False), ("x11forwarding", "no", False)], "false"),
        # a Match block that turns it on violates
        ([("x11forwarding", "no", False), ("x11forwarding", "yes", True)], "false"),
        ([], "true"),  # unset: sshd's default is no
    ],
)
def test_sshd_rego_first_value_wins(entries: list, expected: str, tmp_path: Path) -> None:
    files = render(
        _intent("X11 forwarding must be disabled in sshd.", "rhel9"), "rhel9-ansible-opa"
    ).files
    (tmp_path / "policy.rego").write_text(files["policy.rego"])
    data = {
        "family": "sshd",
        "entries": [{"key": k, "value": v, "file": "f", "match": m} for k, v, m in entries],
    }
    (tmp_path / "input.json").write_text(json.dumps(data))
    done = run_cli(
        [
            "rego",
            "eval",
            "-d",
            str(tmp_path / "policy.rego"),
            "-i",
            str(tmp_path / "input.json"),
            "--format",
            "raw",
            "data.check.result",
        ]
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected


# ---- the agent --------------------------------------------------------------------------------


def _task(tmp_path: Path, description: str, cls: str = "kubectl-opa") -> Task:
    scenario = Scenario(
        id=f"x.{cls}", domain="ciso", **{"class": cls}, title="x", description=description
    )
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    return Task(
        scenario=scenario.public_view(),
        prompt=description,
        workspace=workspace,
        time_limit_s=None,
        transcript=Transcript(tmp_path / "transcript.jsonl"),
    )


def test_agent_writes_nothing_when_not_understood(tmp_path: Path) -> None:
    task = _task(tmp_path, "Rotate the TLS certificates monthly.")
    result = BaselineAgent().solve(task)
    assert result.status is AgentStatus.ERROR
    assert result.reason and result.reason.startswith("not understood:")
    assert list(task.workspace.iterdir()) == []
    events = [e["event"] for e in read_transcript(tmp_path / "transcript.jsonl")]
    assert "baseline_intent" in events


def test_agent_writes_the_class_files_and_records_the_intent(tmp_path: Path) -> None:
    task = _task(tmp_path, "No container may run privileged.", "opa-static")
    result = BaselineAgent().solve(task)
    assert result.status is AgentStatus.OK
    assert sorted(p.name for p in task.workspace.iterdir()) == ["fetch.sh", "policy.rego"]
    assert (task.workspace / "fetch.sh").stat().st_mode & 0o111
    intent = next(
        e for e in read_transcript(tmp_path / "transcript.jsonl") if e["event"] == "baseline_intent"
    )
    assert intent["intent"]["checks"][0]["concept"] == "privileged"


def test_agent_code_never_reads_reference_answers_or_ground_truth() -> None:
    forbidden = re.compile(
        r"policies/|playbooks/|solution/|\bground_truth\b|write_reference|builtin_solution|"
        r"scenarios\.reference|\bnotes\b|violating_resources|files\(\"(policies|playbooks)\"\)"
    )
    sources = [p for p in AGENT_SOURCES.rglob("*") if p.suffix in (".py", ".j2")]
    assert len(sources) > 10
    offending = [
        f"{p.relative_to(REPO)}:{n}: {line.strip()}"
        for p in sources
        for n, line in enumerate(p.read_text().splitlines(), start=1)
        if forbidden.search(line)
    ]
    assert offending == []


# ---- the paraphrase set through the real evaluator --------------------------------------------


def test_paraphrase_set_rewrites_every_control_twice() -> None:
    paraphrases = load_paraphrases(PARAPHRASES)
    controls = {p.parent.name for p in SUITE.glob("*/*/scenario.yaml")}
    controls |= {p.parent.name for p in SUITE.glob("kyverno-update/*/info.json")}
    per_control: dict[str, int] = {}
    for p in paraphrases:
        per_control[p.control] = per_control.get(p.control, 0) + 1
    assert per_control == {c: 2 for c in controls}
    suite_texts = {" ".join(r.split()) for _, _, r in _suite_requirements()}
    assert not any(" ".join(p.text.split()) in suite_texts for p in paraphrases)


@pytest.mark.slow
def test_paraphrases_through_the_real_evaluator(tmp_path: Path) -> None:
    paraphrases = load_paraphrases(PARAPHRASES)
    build_suite(paraphrases, tmp_path / "scenarios")
    done = run_cli(
        [
            "ciso",
            "run",
            "--agent",
            "baseline",
            "-j",
            "2",
            "--no-progress",
            "--format",
            "json",
            "--scenarios",
            str(tmp_path / "scenarios"),
            "--output",
            str(tmp_path / "run"),
        ],
        timeout=900,
    )
    assert done.returncode in (0, 1), done.stderr[-2000:]
    measured: dict[str, dict[str, str]] = {}
    for path in (tmp_path / "run").glob("*/*/evaluation.json"):
        evaluation = json.loads(path.read_text())
        base, cls = evaluation["scenario_id"].rsplit(".", 1)
        measured.setdefault(base, {})[cls] = (
            "pass" if (evaluation.get("scores") or {}).get("strict_pass") == 1 else "fail"
        )
    for p in paraphrases:
        assert p.expect, f"{p.scenario_id}: no measured outcome recorded"
        assert measured.get(p.scenario_id) == p.expect, p.scenario_id
