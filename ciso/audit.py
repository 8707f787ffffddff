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
    if wanted is None:
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
