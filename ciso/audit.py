"""Textbook answers for the built-in suite: what a policy author who reaches for the platform's
standard tool would write, so the suite's labels can be checked against it (issue 34).

- Kubernetes pod-security controls: a Kyverno ``podSecurity`` rule (the Pod Security Standards,
  through our implementation) at the level holding the PSS control(s) that correspond to the CIS
  control, every other PSS control excluded, the system namespaces exempt as every requirement
  of the suite states.
- RHEL: the CIS benchmark's audit for a ``keyword value`` setting: every uncommented occurrence of
  the keyword must satisfy the bound (the audit greps every line, it does not know which one the
  daemon or tool reads).

A CIS control without a corresponding standard check has no textbook answer (None).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ciso.engines.kyverno.podsecurity import CONTROLS

SYSTEM_NAMESPACES = ("kube-system", "kube-public", "kube-node-lease")


@dataclass(frozen=True)
class PssControl:
    """The PSS level and Kyverno control names that correspond to one CIS control."""

    level: str
    controls: tuple[str, ...]


#: CIS Kubernetes 5.2.x / 5.7.2 -> the Pod Security Standards control that checks the same thing.
#: 5.2.7 (root containers) is PSS "Running as Non-root" and "... user"; 5.2.8 (NET_RAW) and 5.2.9
#: (added capabilities) have no PSS control of their own (restricted's capabilities check asks
#: for drop ALL, which is 5.2.10); 5.7.3 (a security context at all) has none either.
PSS_FOR_CIS: dict[str, PssControl] = {
    "5.2.2": PssControl("baseline", ("Privileged Containers",)),
    "5.2.3": PssControl("baseline", ("Host Namespaces",)),
    "5.2.4": PssControl("baseline", ("Host Namespaces",)),
    "5.2.5": PssControl("baseline", ("Host Namespaces",)),
    "5.2.6": PssControl("restricted", ("Privilege Escalation",)),
    "5.2.7": PssControl("restricted", ("Running as Non-root", "Running as Non-root user")),
    "5.2.10": PssControl("restricted", ("Capabilities",)),
    "5.2.11": PssControl("baseline", ("HostProcess",)),
    "5.2.12": PssControl("baseline", ("HostPath Volumes",)),
    "5.2.13": PssControl("baseline", ("Host Ports",)),
    "5.7.2": PssControl("restricted", ("Seccomp",)),
}


def pss_policy(cis_id: str | None) -> dict[str, Any] | None:
    """The textbook Kyverno policy for a Kubernetes CIS control, or None when PSS has no
    corresponding control."""
    wanted = PSS_FOR_CIS.get(cis_id or "")
    if cis_id is None or wanted is None:
        return None
    exclude = []
    for name in sorted(set(CONTROLS) - set(wanted.controls)):
        # pod-level fields, then every container's
        exclude += [{"controlName": name}, {"controlName": name, "images": ["*"]}]
    return {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": f"pss-cis-{cis_id.replace('.', '-')}"},
        "spec": {
            "validationFailureAction": "Audit",
            "background": True,
            "rules": [
                {
                    "name": "pod-security-standards",
                    "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                    "exclude": {"any": [{"resources": {"namespaces": list(SYSTEM_NAMESPACES)}}]},
                    "validate": {
                        "podSecurity": {
                            "level": wanted.level,
                            "version": "latest",
                            "exclude": exclude,
                        }
                    },
                }
            ],
        },
    }


# --- RHEL: the CIS audit of a keyword setting --------------------------------------------------


@dataclass(frozen=True)
class KeywordAudit:
    """``path`` (in the host tree) must set ``keyword`` on every uncommented line to a value
    ``accepts`` allows; no such line at all fails."""

    path: str
    keyword: str
    accepts: Callable[[str], bool]
    separator: str = r"\s+"


def _int_between(low: int, high: int) -> Callable[[str], bool]:
    def accepts(value: str) -> bool:
        return value.lstrip("-").isdigit() and low <= int(value) <= high

    return accepts


def _at_least(low: int) -> Callable[[str], bool]:
    return _int_between(low, 10**9)


#: CIS RHEL 9 controls whose audit greps one keyword of one file.
RHEL_AUDITS: dict[str, KeywordAudit] = {
    "5.6.1.1": KeywordAudit("etc/login.defs", "PASS_MAX_DAYS", _int_between(1, 365)),
    "5.6.1.3": KeywordAudit("etc/login.defs", "PASS_WARN_AGE", _at_least(7)),
}


def keyword_values(text: str, keyword: str, separator: str = r"\s+") -> list[str]:
    """Every value the keyword is set to on an uncommented line, in file order."""
    pattern = re.compile(rf"^\s*{re.escape(keyword)}{separator}(\S+)")
    return [m.group(1) for line in text.splitlines() if (m := pattern.match(line))]


def rhel_audit(cis_id: str | None, host: Path) -> bool | None:
    """True when the host passes the CIS-style audit of the control, None without one."""
    audit = RHEL_AUDITS.get(cis_id or "")
    if audit is None:
        return None
    path = host / audit.path
    values = (
        keyword_values(path.read_text(errors="replace"), audit.keyword, audit.separator)
        if path.is_file()
        else []
    )
    return bool(values) and all(audit.accepts(v) for v in values)


# --- the audit: reference, textbook and order-swapped answers per built-in scenario ------------


@dataclass(frozen=True)
class AuditRow:
    """One built-in scenario's three answer styles, each ``itbench_pass/strict_pass`` ("1/1"),
    or None where the style does not exist for it (``why`` says so)."""

    scenario: str
    scenario_class: str
    cis_id: str
    reference: str
    textbook: str | None
    textbook_answer: str
    swapped: str | None
    why: str
    agree: bool


def _scored(scores: Any) -> str:
    return f"{scores.get('itbench_pass', 0)}/{scores.get('strict_pass', 0)}"


def _swapped_rules(policy: dict[str, Any]) -> dict[str, Any] | None:
    rules = (policy.get("spec") or {}).get("rules") or []
    if len(rules) < 2:
        return None
    return {**policy, "spec": {**policy["spec"], "rules": list(reversed(rules))}}


def _kyverno_score(scenario: Any, policy: dict[str, Any], trial: Path) -> str:
    import yaml

    from ciso.evaluation.trial import evaluate_trial

    trial.mkdir(parents=True)
    (trial / "kyverno-policy.yaml").write_text(yaml.safe_dump(policy, sort_keys=False))
    return _scored(evaluate_trial(scenario, trial).scores)


def _reference_score(scenario: Any, trial: Path) -> str:
    import shutil

    from ciso.evaluation.trial import evaluate_trial

    trial.mkdir(parents=True)
    for name, source in scenario.solution.items():
        shutil.copy2(source, trial / name)
    return _scored(evaluate_trial(scenario, trial).scores)


def audit_scenario(scenario: Any, scratch: Path, run_playbooks: bool = True) -> AuditRow:
    """The three answer styles of one built-in scenario (a CisoScenario of the class the audit
    scores it in: kyverno, kyverno-update or rhel9-ansible-opa)."""
    import yaml

    from ciso.scenarios.model import ScenarioClass

    cls = scenario.scenario_class
    cis_id = scenario.cis_id or ""
    root = scratch / scenario.id
    if cls in (ScenarioClass.KYVERNO, ScenarioClass.KYVERNO_UPDATE):
        policy = yaml.safe_load(Path(scenario.solution["kyverno-policy.yaml"]).read_text())
        reference = _kyverno_score(scenario, policy, root / "reference")
        swapped_policy = _swapped_rules(policy)
        swapped = (
            _kyverno_score(scenario, swapped_policy, root / "swapped")
            if swapped_policy is not None
            else None
        )
        why = "" if swapped_policy is not None else "one rule: no order to swap"
        textbook_policy = pss_policy(cis_id) if cls is ScenarioClass.KYVERNO else None
        if textbook_policy is not None:
            wanted = PSS_FOR_CIS[cis_id]
            textbook = _kyverno_score(scenario, textbook_policy, root / "textbook")
            answer = f"PSS {wanted.level}: {', '.join(wanted.controls)}"
        else:
            textbook, answer = None, ""
            if cls is ScenarioClass.KYVERNO_UPDATE:
                why += ("; " if why else "") + "no standard check edits a deployed policy"
            else:
                why += ("; " if why else "") + "no Pod Security Standards control for it"
        agree = reference == "1/1" and swapped in (None, reference) and textbook in (None, "1/1")
        return AuditRow(
            scenario.base_id, cls.value, cis_id, reference, textbook, answer, swapped, why, agree
        )
    # RHEL: the CIS audit on both host trees; the reference through Ansible when asked
    reference = _reference_score(scenario, root / "reference") if run_playbooks else "not run"
    audit = RHEL_AUDITS.get(cis_id)
    textbook, answer, why = None, "", "rules have no order in Rego: nothing to swap"
    agree = reference in ("1/1", "not run")
    if audit is not None:
        violating = rhel_audit(cis_id, scenario.violating / "host")
        compliant = rhel_audit(cis_id, scenario.compliant / "host")
        stated = f"when {audit.keyword} is set on more than one line, the last one counts"
        textbook = f"violating {'pass' if violating else 'fail'}, compliant {'pass' if compliant else 'fail'}"
        answer = f"CIS audit: every {audit.keyword} line of /{audit.path}"
        if not compliant and stated in scenario.requirement:
            why += "; the requirement states that the last line counts"
        agree = agree and violating is False and (compliant or stated in scenario.requirement)
    else:
        why += "; no single-keyword CIS audit for it"
    return AuditRow(
        scenario.base_id, cls.value, cis_id, reference, textbook, answer, None, why, agree
    )


def audit_suite(scratch: Path, run_playbooks: bool = True) -> list[AuditRow]:
    """Every built-in scenario once: Kubernetes controls in the kyverno class, the update
    scenarios in kyverno-update, RHEL controls in rhel9-ansible-opa."""
    from ciso.scenarios.loader import load_builtin
    from ciso.scenarios.model import ScenarioClass

    audited = (
        ScenarioClass.KYVERNO,
        ScenarioClass.KYVERNO_UPDATE,
        ScenarioClass.RHEL9_ANSIBLE_OPA,
    )
    scenarios = sorted(
        (s for s in load_builtin().scenarios if s.scenario_class in audited),
        key=lambda s: s.base_id,
    )
    return [audit_scenario(s, scratch, run_playbooks) for s in scenarios]


def markdown_table(rows: list[AuditRow]) -> str:
    """The audit as the docs page's table."""
    lines = [
        "| scenario | class | CIS | reference | textbook | textbook answer | order-swapped | agree | notes |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| `{r.scenario}` | {r.scenario_class} | {r.cis_id or '—'} | {r.reference} | "
            f"{r.textbook or '—'} | {r.textbook_answer or '—'} | {r.swapped or '—'} | "
            f"{'yes' if r.agree else '**no**'} | {r.why} |"
        )
    return "\n".join(lines) + "\n"
