"""Scoring a policy author would defend (issue 34): Kyverno verdicts independent of rule order,
citations that name the right CIS control, compliant near-misses the platform's standard tool
(Pod Security Standards, the CIS audit) agrees with."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from ciso.audit import (
    PSS_FOR_CIS,
    RHEL_AUDITS,
    audit_suite,
    markdown_table,
    pss_policy,
    rhel_audit,
)
from ciso.evaluation.kyverno_update import check_violation
from ciso.evaluation.plan import COMPLIANT
from ciso.evaluation.report_reading import ResourceResult
from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.loader import load_builtin
from ciso.scenarios.model import CisoScenario, ResourceRef, ScenarioClass
from tests._support.cli import REPO

SUITE = REPO / "ciso" / "suite"
CONTROLS = yaml.safe_load((SUITE / "controls.yaml").read_text())
BUILTIN = {s.id: s for s in load_builtin().scenarios}


@pytest.fixture(autouse=True)
def _our_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ITBENCH_KYVERNO_ENGINE", "itbench")


def _reference_policy(scenario: CisoScenario) -> dict[str, Any]:
    return yaml.safe_load(Path(scenario.solution["kyverno-policy.yaml"]).read_text())


def _trial_with(tmp_path: Path, policy: dict[str, Any], case: str) -> Path:
    trial = tmp_path / case
    trial.mkdir()
    (trial / "kyverno-policy.yaml").write_text(yaml.safe_dump(policy, sort_keys=False))
    return trial


# --- 1. one verdict whatever the order of the rules -------------------------------------------

UPDATES_WITH_A_NEW_RULE = [
    "update-drop-capabilities",
    "update-host-ports",
    "update-trusted-registry",
]


@pytest.mark.parametrize("base_id", UPDATES_WITH_A_NEW_RULE)
def test_update_appended_and_prepended_rule_score_the_same(base_id: str, tmp_path: Path) -> None:
    scenario = BUILTIN[f"{base_id}.kyverno-update"]
    policy = _reference_policy(scenario)
    rules = policy["spec"]["rules"]
    assert len(rules) == 2, "the reference answer adds one rule to the deployed one"
    swapped = {**policy, "spec": {**policy["spec"], "rules": list(reversed(rules))}}
    verdicts = {}
    for case, answer in (("as-given", policy), ("swapped", swapped)):
        result = evaluate_trial(scenario, _trial_with(tmp_path, answer, case))
        verdicts[case] = result.scores
    assert verdicts["as-given"] == {"itbench_pass": 1, "strict_pass": 1}
    assert verdicts["swapped"] == verdicts["as-given"]


def _result(rule: str, outcome: str) -> ResourceResult:
    return ResourceResult(ResourceRef("Pod", "ns", "p"), "v1", "pol", rule, outcome, "")


CHECK_FAIL = {
    "policy_name": "pol",
    "resource": {"kind": "Pod", "name": "p", "namespace": "ns"},
    "expected_result": "fail",
}
CHECK_PASS = {**CHECK_FAIL, "expected_result": "pass"}


@pytest.mark.parametrize(
    ("check", "outcomes", "ok"),
    [
        (CHECK_FAIL, [("a", "pass"), ("b", "fail")], True),
        (CHECK_FAIL, [("b", "fail"), ("a", "pass")], True),
        (CHECK_FAIL, [("a", "pass"), ("b", "pass")], False),
        (CHECK_FAIL, [("a", "skip"), ("b", "fail")], True),
        (CHECK_PASS, [("a", "pass"), ("b", "fail")], False),
        (CHECK_PASS, [("b", "fail"), ("a", "pass")], False),
        (CHECK_PASS, [("a", "pass"), ("b", "pass")], True),
        (CHECK_PASS, [("a", "pass"), ("b", "skip")], True),
        (CHECK_PASS, [("a", "pass"), ("b", "error")], False),
        (CHECK_PASS, [], True),
        (CHECK_FAIL, [], False),
    ],
)
def test_check_violations_reads_the_policys_results_as_a_set(
    check: dict[str, Any], outcomes: list[tuple[str, str]], ok: bool
) -> None:
    results = [_result(rule, outcome) for rule, outcome in outcomes]
    assert check_violation(check, results)[0] is ok
    assert check_violation(check, list(reversed(results)))[0] is ok


def _multi_rule_kyverno_scenarios() -> list[str]:
    found = []
    for scenario in BUILTIN.values():
        if scenario.scenario_class is ScenarioClass.KYVERNO and scenario.solution:
            rules = (_reference_policy(scenario).get("spec") or {}).get("rules") or []
            if len(rules) > 1:
                found.append(scenario.id)
    return sorted(found)


@pytest.mark.parametrize("scenario_id", _multi_rule_kyverno_scenarios())
def test_kyverno_verdict_does_not_depend_on_rule_order(scenario_id: str, tmp_path: Path) -> None:
    scenario = BUILTIN[scenario_id]
    policy = _reference_policy(scenario)
    swapped = {
        **policy,
        "spec": {**policy["spec"], "rules": list(reversed(policy["spec"]["rules"]))},
    }
    given = evaluate_trial(scenario, _trial_with(tmp_path, policy, "as-given")).scores
    other = evaluate_trial(scenario, _trial_with(tmp_path, swapped, "swapped")).scores
    assert given["strict_pass"] == 1
    assert other == given


def test_no_reference_answer_depends_on_rule_order_in_its_comments() -> None:
    for path in sorted((REPO / "policies" / "kyverno").glob("*/policy.yaml")):
        text = path.read_text()
        assert "first result" not in text and "comes first" not in text, path


# --- citations against the control list --------------------------------------------------------

#: "CIS 5.2.10", not a section such as "CIS 1.1.1.x"
CITATION = re.compile(r"CIS (\d+(?:\.\d+)+)(?!\.?\w)")


def _scenario_meta(platform: str) -> list[dict[str, Any]]:
    return [
        yaml.safe_load(p.read_text()) for p in sorted((SUITE / platform).glob("*/scenario.yaml"))
    ]


@pytest.mark.parametrize("platform", ["kubernetes", "rhel9"])
def test_every_scenario_names_its_control_with_the_benchmarks_title(platform: str) -> None:
    controls = CONTROLS[platform]
    for meta in _scenario_meta(platform):
        assert meta["cis_id"] in controls, meta["id"]
        assert meta["title"] == controls[meta["cis_id"]]["title"], meta["id"]
        assert meta["id"].startswith(
            f"cis-{'k8s' if platform == 'kubernetes' else 'rhel9'}-{meta['cis_id']}-"
        ), meta["id"]


def test_kyverno_update_goals_cite_the_control_of_what_they_ask() -> None:
    import json

    controls = CONTROLS["kubernetes"]
    for info in sorted((SUITE / "kyverno-update").glob("*/info.json")):
        goal = json.loads(info.read_text())["goal"]
        for sentence in re.split(r"(?<=\.)\s+(?=[A-Z])", goal):
            for cited in CITATION.findall(sentence):
                assert cited in controls, f"{info}: CIS {cited} is no control of the list"
                subjects = controls[cited].get("subjects") or []
                assert any(s in sentence for s in subjects), (
                    f"{info}: the sentence citing CIS {cited} ({controls[cited]['title']}) "
                    f"names none of its subjects {subjects}: {sentence!r}"
                )


def test_reference_answers_and_host_files_cite_their_own_control() -> None:
    """A reference answer's or a host file's ``CIS x.y.z`` is the control of its scenario."""
    folders = [
        *((p, "kubernetes") for p in (REPO / "policies" / "kyverno").glob("cis-k8s-*")),
        *((p, "kubernetes") for p in (REPO / "policies" / "rego").glob("cis-k8s-*")),
        *((p, "rhel9") for p in (REPO / "playbooks").glob("cis-rhel9-*")),
        *((p, "kubernetes") for p in (SUITE / "kubernetes").glob("cis-k8s-*")),
        *((p, "rhel9") for p in (SUITE / "rhel9").glob("cis-rhel9-*")),
    ]
    assert len(folders) > 60
    for folder, platform in folders:
        own = folder.name.split("-")[2]
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            for cited in CITATION.findall(path.read_text(errors="replace")):
                assert cited in CONTROLS[platform], f"{path}: CIS {cited} is no control"
                assert cited == own, f"{path}: cites CIS {cited} in the scenario of {own}"


# --- 3. compliant near-misses checked against the platform's standard tool --------------------

POD_SECURITY_CIS = sorted(PSS_FOR_CIS)


def _builtin_by_cis(platform: str, cis_id: str, cls: ScenarioClass) -> CisoScenario:
    prefix = "cis-k8s-" if platform == "kubernetes" else "cis-rhel9-"
    return next(
        s
        for s in BUILTIN.values()
        if s.cis_id == cis_id and s.scenario_class is cls and s.base_id.startswith(prefix)
    )


@pytest.mark.parametrize("cis_id", POD_SECURITY_CIS)
def test_pod_security_standards_agree_with_every_pod_security_scenario(
    cis_id: str, tmp_path: Path
) -> None:
    """The textbook answer (PSS through our Kyverno podSecurity, the corresponding control only)
    catches every violating resource and calls nothing of the compliant environment violating."""
    scenario = _builtin_by_cis("kubernetes", cis_id, ScenarioClass.KYVERNO)
    policy = pss_policy(cis_id)
    assert policy is not None
    result = evaluate_trial(scenario, _trial_with(tmp_path, policy, "pss"))
    assert result.details["environments"][COMPLIANT]["failed"] == [], scenario.id
    assert result.scores["strict_pass"] == 1, (scenario.id, result.details.get("failure"))


def test_every_pod_security_scenario_has_a_textbook_answer_or_a_reason() -> None:
    """5.2.x and 5.7.2 scenarios map to a PSS control, except those PSS has none for."""
    without = {"5.2.8", "5.2.9"}  # NET_RAW and added capabilities: no PSS control of their own
    for scenario in BUILTIN.values():
        if scenario.scenario_class is not ScenarioClass.KYVERNO:
            continue
        if scenario.cis_id.startswith("5.2.") or scenario.cis_id == "5.7.2":
            assert (scenario.cis_id in PSS_FOR_CIS) != (scenario.cis_id in without), scenario.id


@pytest.mark.parametrize("cis_id", sorted(RHEL_AUDITS))
def test_cis_style_audit_agrees_or_the_requirement_states_the_reading(cis_id: str) -> None:
    """Where the CIS audit (every line of the keyword within bounds) disagrees with the compliant
    host's label, the requirement says which line counts."""
    scenario = _builtin_by_cis("rhel9", cis_id, ScenarioClass.RHEL9_ANSIBLE_OPA)
    assert rhel_audit(cis_id, scenario.violating / "host") is False, scenario.id
    assert scenario.compliant is not None
    audit = RHEL_AUDITS[cis_id]
    if not rhel_audit(cis_id, scenario.compliant / "host"):
        assert (
            f"when {audit.keyword} is set on more than one line, the last one counts"
            in scenario.requirement
        ), scenario.id


# --- 5. the published audit ---------------------------------------------------------------------


def test_the_three_answer_styles_agree_on_every_builtin_scenario(tmp_path: Path) -> None:
    """Reference strict everywhere; the order-swapped answer scores what the reference does; the
    textbook answer passes strictly where it exists (RHEL: fails the violating host, and passes
    the compliant one unless the requirement states the reading). The RHEL reference runs are
    the oracle test's (``test_ciso_builtin_suite``); here only the textbook side runs."""
    rows = audit_suite(tmp_path, run_playbooks=False)
    assert len(rows) == len({s.base_id for s in BUILTIN.values()})
    for row in rows:
        assert row.agree, row
        if row.scenario_class in ("kyverno", "kyverno-update"):
            assert row.reference == "1/1", row
            assert row.swapped in (None, "1/1"), row
    by_id = {r.scenario: r for r in rows}
    assert by_id["update-drop-capabilities"].swapped == "1/1"
    assert by_id["cis-k8s-5.7.2-seccomp-profile"].textbook == "1/1"
    assert by_id["cis-rhel9-5.6.1.1-pass-max-days"].textbook == "violating fail, compliant fail"
    assert sum(r.textbook is not None for r in rows) >= 13


def test_the_docs_page_holds_the_audit_table(tmp_path: Path) -> None:
    """docs/ciso-audit.md is the script's table (regenerate it when a scenario changes)."""
    page = (REPO / "docs" / "ciso-audit.md").read_text()
    rows = audit_suite(tmp_path, run_playbooks=False)
    table = markdown_table(rows)
    # the RHEL reference column comes from the Ansible runs the page was generated with
    for generated, published in zip(
        table.splitlines(), page[page.index("| scenario |") :].splitlines(), strict=True
    ):
        if "| rhel9-ansible-opa |" in generated:
            generated = generated.replace("| not run |", "| 1/1 |")
        assert generated == published
