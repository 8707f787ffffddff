"""Intent -> the files of one scenario class, through the Jinja2 templates in ``templates/``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

import jinja2
import yaml

from ciso.agents.baseline.bound_checks import FieldBoundCheck
from ciso.agents.baseline.effect_checks import EFFECT_CHECKS
from ciso.agents.baseline.family_checks import ListLengthCheck, QuantityBoundCheck
from ciso.agents.baseline.intent import (
    AuditWatchCheck,
    BindingCheck,
    ConfigSetting,
    DefaultNamespaceCheck,
    FieldValueCheck,
    FilePermissionCheck,
    IngressTlsCheck,
    Intent,
    KubernetesCheck,
    ModuleDisabledCheck,
    NamespaceLabelCheck,
    NamespaceNetworkPolicyCheck,
    PodFieldCheck,
    RbacRuleCheck,
    TableRowCheck,
)
from ciso.agents.baseline.knowledge import k8s_namespaces
from ciso.agents.baseline.kyverno_rules import NotRenderable, rules_for
from ciso.agents.baseline.resource_groups import groups_of
from itbench.cluster.resources import default_registry, plural_of

_ENV = jinja2.Environment(
    loader=jinja2.FunctionLoader(
        lambda name: files("ciso.agents.baseline.templates").joinpath(name).read_text()
    ),
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    autoescape=False,
)

WORKLOAD_KINDS = (
    "pods",
    "deployments",
    "statefulsets",
    "daemonsets",
    "replicasets",
    "replicationcontrollers",
    "jobs",
    "cronjobs",
)
#: sshd keywords whose value is an sshd time (1m30s), not a plain number
SSHD_TIME_KEYS = ("LoginGraceTime", "ClientAliveInterval")
#: the one file of each key=value family (sshd, sysctl, modprobe and pwquality read several)
CONFIG_FILES = {
    "login.defs": "/etc/login.defs",
    "auditd": "/etc/audit/auditd.conf",
    "faillock": "/etc/security/faillock.conf",
    "pwhistory": "/etc/security/pwhistory.conf",
    "journald": "/etc/systemd/journald.conf",
    "selinux": "/etc/selinux/config",
    "dnf": "/etc/dnf/dnf.conf",
    "useradd": "/etc/default/useradd",
    "postfix": "/etc/postfix/main.cf",
}


@dataclass(frozen=True)
class Rendered:
    files: dict[str, str]
    templates: tuple[str, ...]


def rego_set(values: Any) -> str:
    """A Rego set literal (``set()`` when empty)."""
    items = sorted(str(v) for v in values)
    return "{" + ", ".join(json.dumps(v) for v in items) + "}" if items else "set()"


_ENV.filters["rego_set"] = rego_set


def usr_merged(commands: Any) -> list[str]:
    """Each command and its other spelling on a merged-/usr system (RHEL 9: /bin is /usr/bin,
    /sbin is /usr/sbin)."""
    spelled: list[str] = []
    for command in commands:
        spelled.append(command)
        if re.match(r"/s?bin/", command):
            spelled.append("/usr" + command)
        elif re.match(r"/usr/s?bin/", command):
            spelled.append(command.removeprefix("/usr"))
    return list(dict.fromkeys(spelled))


_ENV.filters["usr_merged"] = usr_merged


class _PlainDumper(yaml.SafeDumper):
    """No anchors or aliases: the same container pattern is written out for every list."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def to_yaml(value: Any) -> str:
    return yaml.dump(
        value, Dumper=_PlainDumper, sort_keys=False, default_flow_style=False, width=100
    ).rstrip("\n")


_ENV.filters["to_yaml"] = to_yaml

__all__ = ["NotRenderable", "Rendered", "render", "to_yaml"]


def _render(template: str, **context: Any) -> str:
    return _ENV.get_template(template).render(**context)


def collected_kinds(intent: Intent) -> tuple[str, ...]:
    """The kubectl resource names the checks read."""
    kinds: list[str] = []
    for check in intent.checks:
        if isinstance(check, RbacRuleCheck):
            kinds += ["roles", "clusterroles"]
        elif isinstance(check, BindingCheck):
            kinds += ["rolebindings", "clusterrolebindings"]
        elif isinstance(check, NamespaceNetworkPolicyCheck):
            kinds += ["namespaces", check.plural]
        elif isinstance(check, NamespaceLabelCheck):
            kinds += ["namespaces"]
        elif isinstance(check, IngressTlsCheck):
            kinds += ["ingresses"]
        elif isinstance(check, ListLengthCheck) and check.level == "object":
            kinds += [plural_of(kind) for kind in check.kinds]
        elif isinstance(check, QuantityBoundCheck):
            kinds += [plural_of(kind) for kind, _ in check.fields]
        elif isinstance(check, (*EFFECT_CHECKS, FieldBoundCheck)) and check.collects:
            kinds += list(check.collects)
        elif isinstance(check, PodFieldCheck) and check.service_account_fallback:
            kinds += [*WORKLOAD_KINDS, "serviceaccounts"]
        elif (
            isinstance(check, FieldValueCheck)
            and check.level == "object"
            or isinstance(check, DefaultNamespaceCheck)
        ):
            kinds += [plural_of(k) for k in check.kinds]
            if isinstance(check, FieldValueCheck) and check.namespace_labels:
                kinds += ["namespaces"]
        else:
            kinds += list(WORKLOAD_KINDS)
            if isinstance(check, FieldValueCheck) and check.namespace_labels:
                kinds += ["namespaces"]
    if intent.scope.namespace_labels or intent.scope.permitting_namespace_labels:
        kinds.append("namespaces")  # the labels that put an object in scope, or out of it
    return tuple(dict.fromkeys(kinds))


def _singular(kind: str) -> str:
    """The manifest kind (lower-cased) of a kubectl resource name: networkpolicies ->
    networkpolicy, pods -> pod."""
    if kind.endswith("ies"):
        return kind[:-3] + "y"
    if kind.endswith("sses"):
        return kind[:-2]  # ingresses -> ingress
    return kind[:-1] if kind.endswith("s") else kind


def kubernetes_rego(intent: Intent) -> str:
    resources = {r for c in intent.checks if isinstance(c, RbacRuleCheck) for r in c.resources}
    return _render(
        "k8s.rego.j2",
        requirement=intent.requirement,
        checks=intent.checks,
        exempt_namespaces_json=rego_set(intent.scope.exempt_namespaces),
        builtin_rbac=intent.scope.exempt_builtin_rbac,
        exempt_roles_json=rego_set(intent.scope.exempt_role_names),
        container_lists_json=json.dumps(list(intent.scope.container_lists)),
        resource_groups_json=json.dumps({r: list(groups_of(r)) for r in sorted(resources)}),
        builtin_in_default_json=json.dumps([list(p) for p in k8s_namespaces.BUILTIN_IN_DEFAULT]),
        namespace_labels_json=json.dumps([list(p) for p in intent.scope.namespace_labels]),
        pod_labels_json=json.dumps([list(p) for p in intent.scope.pod_labels]),
        exempt_pod_labels_json=json.dumps([list(p) for p in intent.scope.exempt_pod_labels]),
        object_labels_json=json.dumps([list(p) for p in intent.scope.object_labels]),
        only_namespaces_json=rego_set(intent.scope.only_namespaces),
        permitting_labels_json=json.dumps(
            [list(p) for p in intent.scope.permitting_namespace_labels]
        ),
        permitting_object_labels_json=json.dumps(
            [list(p) for p in intent.scope.permitting_object_labels]
        ),
    )


def fetcher(intent: Intent) -> str:
    return _render("fetcher.sh.j2", kinds=collected_kinds(intent))


def fetch_static(intent: Intent) -> str:
    kinds = collected_kinds(intent)
    # kind names as they appear in manifests, lower-cased
    manifest_kinds = sorted({_singular(k) for k in kinds})
    namespaced = sorted(
        {t.kind.lower() for t in default_registry().types if t.plural in kinds and t.namespaced}
    )
    return _render(
        "fetch.sh.j2",
        kinds=kinds,
        kinds_json=json.dumps(manifest_kinds),
        namespaced_json=json.dumps(namespaced),
    )


# ---- Kyverno --------------------------------------------------------------------------------


def kyverno_policy(intent: Intent) -> str:
    first = intent.checks[0]
    concept = first.concept if isinstance(first, KubernetesCheck) else first.kind
    name = "baseline-" + re.sub(r"[^a-z0-9-]+", "-", concept.lower())
    return _render(
        "kyverno-policy.yaml.j2",
        requirement=intent.requirement,
        name=name[:63].strip("-"),
        title=intent.requirement[:120],
        rules=rules_for(intent),
    )


# ---- RHEL ------------------------------------------------------------------------------------


def _collector_playbook(what: str, collector: str) -> str:
    return _render("playbook.yml.j2", what=what, collector=collector)


def _table_rows(intent: Intent, check: TableRowCheck) -> dict[str, str]:
    """A system table read row by row (account tables, lists of one entry per line)."""
    collector = _render(
        "collect_table.py.j2", path=check.path, separator=check.separator,
        name_field=check.name_field,
    )  # fmt: skip
    policy = _render(
        "rhel.rego.j2",
        kind="table",
        requirement=intent.requirement,
        check=check,
        forbidden_json=rego_set(check.forbidden),
        allowed_json=rego_set(check.allowed),
        exempt_json=rego_set(check.exempt),
        required_json=rego_set(check.required),
        rows_json=rego_set(check.rows),
        must_carry_json=rego_set(check.must_carry),
    )
    return {
        "playbook.yml": _collector_playbook(f"the rows of {check.path}", collector),
        "policy.rego": policy,
    }


def rhel(intent: Intent) -> dict[str, str]:
    checks = intent.checks
    if all(isinstance(c, FilePermissionCheck) for c in checks):
        check = checks[0]
        assert isinstance(check, FilePermissionCheck)
        collector = _render(
            "collect_files.py.j2", paths=[*check.paths, *check.absent], globs=list(check.globs),
            home_names=list(check.absent_in_homes),
        )  # fmt: skip
        policy = _render(
            "rhel.rego.j2",
            kind="files",
            requirement=intent.requirement,
            must_exist_json=rego_set(check.paths if check.must_exist else ()),
            absent_json=rego_set(check.absent),
            max_mode=check.max_mode,
            owner=check.owner,
            groups_json=rego_set(g for g in (check.group, *check.also_groups) if g),
        )
        return {
            "playbook.yml": _collector_playbook("file permissions", collector),
            "policy.rego": policy,
        }
    if len(checks) == 1 and isinstance(checks[0], TableRowCheck):
        return _table_rows(intent, checks[0])
    if checks and all(isinstance(c, AuditWatchCheck) for c in checks):
        collector = _render(
            "collect_config.py.j2", families=["audit-rules"], paths={"audit-rules": ""},
            pam_files=[],
        )  # fmt: skip
        watched = [
            [path.rstrip("/"), c.permissions]
            for c in checks
            if isinstance(c, AuditWatchCheck)
            for path in c.paths
        ]
        policy = _render(
            "rhel.rego.j2", kind="audit", requirement=intent.requirement,
            watched_json=json.dumps(watched),
        )  # fmt: skip
        return {
            "playbook.yml": _collector_playbook("the audit rules loaded at boot", collector),
            "policy.rego": policy,
        }
    if checks and all(isinstance(c, ModuleDisabledCheck) for c in checks):
        module = checks[0]
        assert isinstance(module, ModuleDisabledCheck)
        collector = _render(
            "collect_config.py.j2", families=["modprobe"], paths={"modprobe": ""}, pam_files=[]
        )
        policy = _render(
            "rhel.rego.j2",
            kind="module",
            requirement=intent.requirement,
            modules=[c.module for c in checks if isinstance(c, ModuleDisabledCheck)],
            install_commands=module.install_commands,
            blacklisted=module.blacklisted,
        )
        return {
            "playbook.yml": _collector_playbook("the modprobe configuration", collector),
            "policy.rego": policy,
        }
    settings = [c for c in checks if isinstance(c, ConfigSetting)]
    families = sorted({s.family for s in settings})
    keys = [(s.family, s.key.lower()) for s in settings]
    # several families share one list of entries: only when no key is spelled in two of them
    shared = len({k for _, k in keys}) != len(set(keys))
    if not families or shared or len(settings) != len(checks):
        raise NotRenderable("settings of several configuration families in one requirement")
    family = " and ".join(families)
    pam_files = sorted({p for s in settings for p in s.pam_files})
    collector = _render(
        "collect_config.py.j2",
        families=families,
        paths={f: CONFIG_FILES.get(f, "") for f in families},
        pam_files=pam_files,
        kernel_arguments=[s.key for s in settings if s.family == "kernel-cmdline"],
    )
    policy = _render(
        "rhel.rego.j2",
        kind="settings",
        requirement=intent.requirement,
        settings=settings,
        time_keys=SSHD_TIME_KEYS,
    )
    return {
        "playbook.yml": _collector_playbook(f"the {family} configuration", collector),
        "policy.rego": policy,
    }


def render(intent: Intent, scenario_class: str) -> Rendered:
    """The files ``scenario_class`` asks for, rendered from ``intent``."""
    if scenario_class == "rhel9-ansible-opa":
        if intent.platform != "rhel9":
            raise NotRenderable("a Kubernetes requirement in a RHEL scenario")
        return Rendered(rhel(intent), ("playbook.yml.j2", "rhel.rego.j2"))
    if intent.platform != "kubernetes":
        raise NotRenderable("a RHEL requirement in a Kubernetes scenario")
    if scenario_class == "kyverno":
        return Rendered(
            {"kyverno-policy.yaml": kyverno_policy(intent)}, ("kyverno-policy.yaml.j2",)
        )
    if scenario_class == "kubectl-opa":
        return Rendered(
            {"fetcher.sh": fetcher(intent), "policy.rego": kubernetes_rego(intent)},
            ("fetcher.sh.j2", "k8s.rego.j2"),
        )
    if scenario_class == "opa-static":
        return Rendered(
            {"fetch.sh": fetch_static(intent), "policy.rego": kubernetes_rego(intent)},
            ("fetch.sh.j2", "k8s.rego.j2"),
        )
    raise NotRenderable(f"no templates for the {scenario_class} class")
