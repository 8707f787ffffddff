"""Kyverno rules for each check of an intent, as data the ClusterPolicy template lays out.

Pod checks are rules on Pod (autogen covers the controllers' templates); RBAC, binding and
namespace checks match their own kinds. Patterns where a pattern can say it; ``foreach`` with
``deny`` conditions where a list must contain (or lack) something.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ciso.agents.baseline.bound_checks import FieldBoundCheck, InheritedBoundCheck
from ciso.agents.baseline.effect_checks import (
    ImagePullPolicyCheck,
    ImageTagCheck,
    IngressNamedHostsCheck,
    LoadBalancerSourcesCheck,
    NodeLabelSelectionCheck,
    RequiredListItemCheck,
    VolumeTypesCheck,
)
from ciso.agents.baseline.family_checks import (
    ContainerNumberBoundCheck,
    ContainerRequiresCheck,
    ListLengthCheck,
    PodLabelsCheck,
    QuantityBoundCheck,
)
from ciso.agents.baseline.intent import (
    BindingCheck,
    CapabilityCheck,
    ContainerFieldCheck,
    DefaultNamespaceCheck,
    FieldValueCheck,
    HostPathVolumeCheck,
    HostPortCheck,
    ImageDigestCheck,
    ImageRegistryCheck,
    IngressTlsCheck,
    InheritedSettingCheck,
    Intent,
    KubernetesCheck,
    NamespaceLabelCheck,
    NamespaceNetworkPolicyCheck,
    PodAnnotationCheck,
    PodFieldCheck,
    RbacRuleCheck,
    RunAsNonRootCheck,
    SecretEnvCheck,
    ServiceAccountNameCheck,
)
from ciso.agents.baseline.knowledge import k8s_namespaces
from ciso.agents.baseline.resource_groups import groups_of

#: every container list of the Pod, for ``foreach`` (autogen rewrites request.object.spec)
ALL_CONTAINERS = "request.object.spec.[ephemeralContainers, initContainers, containers][] || `[]`"


class NotRenderable(Exception):
    """The intent is understood but this dialect has no rule for it."""


def _nest(path: tuple[str, ...], leaf: Any, anchored: bool) -> dict[str, Any]:
    """``a.b.c: leaf`` as nested mappings; ``=(key)`` anchors when the path may be absent."""
    node: Any = leaf
    for key in reversed(path):
        node = {f"=({key})" if anchored else key: node}
    return node


def _per_container(container: dict[str, Any], lists: tuple[str, ...]) -> dict[str, Any]:
    return {(name if name == "containers" else f"=({name})"): [container] for name in lists}


def _pod_rule(name: str, message: str, validate: dict[str, Any], intent: Intent) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "name": name,
        "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
    }
    if intent.scope.exempt_namespaces:
        rule["exclude"] = {
            "any": [{"resources": {"namespaces": list(intent.scope.exempt_namespaces)}}]
        }
    rule["validate"] = {"message": message, **validate}
    return rule


def _kinds_rule(
    name: str, kinds: list[str], message: str, validate: dict[str, Any], intent: Intent
) -> dict[str, Any]:
    rule: dict[str, Any] = {"name": name, "match": {"any": [{"resources": {"kinds": kinds}}]}}
    excluded: list[dict[str, Any]] = []
    if intent.scope.exempt_namespaces:
        excluded.append({"resources": {"namespaces": list(intent.scope.exempt_namespaces)}})
    if intent.scope.exempt_builtin_rbac:
        excluded.append({"resources": {"names": ["system:*"]}})
        excluded.append(
            {
                "resources": {
                    "selector": {"matchLabels": {"kubernetes.io/bootstrapping": "rbac-defaults"}}
                }
            }
        )
    roles = [k for k in kinds if k in ("Role", "ClusterRole")]
    if intent.scope.exempt_role_names and roles:
        # the roles the requirement names as the permitted holders
        excluded.append(
            {"resources": {"kinds": roles, "names": list(intent.scope.exempt_role_names)}}
        )
    if excluded:
        rule["exclude"] = {"any": excluded}
    rule["validate"] = {"message": message, **validate}
    return rule


def _deny_each_container(conditions: dict[str, Any]) -> dict[str, Any]:
    return {"foreach": [{"list": ALL_CONTAINERS, "deny": {"conditions": conditions}}]}


def _pod_field(check: PodFieldCheck, intent: Intent) -> list[dict[str, Any]]:
    validate: dict[str, Any]
    if check.default_service_account_only:
        # a dedicated ServiceAccount is fine; on the default one the token must not be mounted
        validate = {
            "anyPattern": [
                {"spec": {check.field: check.required}},
                {"spec": {"serviceAccountName": "!default & ?*"}},
                # the deprecated alias, when serviceAccountName is not set
                {"spec": {"serviceAccount": "!default & ?*", "X(serviceAccountName)": "null"}},
            ]
        }
    elif check.required is not None and check.service_account_fallback:
        return [_with_account_fallback(check, intent)]
    elif check.required is not None:
        validate = {"pattern": {"spec": {check.field: check.required}}}
    elif isinstance(check.forbidden, bool):
        validate = {"pattern": {"spec": {f"=({check.field})": not check.forbidden}}}
    else:
        raise NotRenderable(f"no pattern for {check.field} != {check.forbidden!r}")
    return [_pod_rule(check.concept, f"{check.field} violates the requirement.", validate, intent)]


def _with_account_fallback(check: PodFieldCheck, intent: Intent) -> dict[str, Any]:
    """The pod's own value, else (unset) its ServiceAccount's, read through an apiCall listing
    the namespace's ServiceAccounts that set the required value."""
    required = json.dumps(check.required)
    account = (
        "request.object.spec.serviceAccountName || request.object.spec.serviceAccount || 'default'"
    )
    own = f"to_string(request.object.spec.{check.field})"
    wrong = (
        f"{own} != '{required}' && ({own} != 'null' || !contains(complying_accounts, {account}))"
    )
    rule = _pod_rule(
        check.concept,
        f"{check.field} violates the requirement (the pod's own, else its ServiceAccount's).",
        {"deny": {"conditions": {"any": [{"key": "{{ " + wrong + " }}", "operator": "Equals",
                                          "value": True}]}}},
        intent,
    )  # fmt: skip
    rule["context"] = [
        {
            "name": "complying_accounts",
            "apiCall": {
                "urlPath": "/api/v1/namespaces/{{ request.namespace }}/serviceaccounts",
                "jmesPath": f"items[?{check.field} == `{required}`].metadata.name",
            },
        }
    ]
    rule["validate"] = rule.pop("validate")
    return rule


def _container_field(check: ContainerFieldCheck, intent: Intent) -> list[dict[str, Any]]:
    lists = intent.scope.container_lists
    if check.must_be_set:
        container = _nest(check.path, "?*", anchored=False)
    elif check.required is not None:
        container = _nest(check.path, check.required, anchored=False)
    elif isinstance(check.forbidden, bool):
        container = _nest(check.path, not check.forbidden, anchored=True)
    elif isinstance(check.forbidden, str):
        # a forbidden keyword (procMount: Unmasked): absent or any other value passes
        container = _nest(check.path, f"!{check.forbidden}", anchored=True)
    else:
        raise NotRenderable(f"no pattern for {'.'.join(check.path)} != {check.forbidden!r}")
    spec = _per_container(container, lists)
    if check.pod_level_too:
        pod_leaf = (
            f"!{check.forbidden}" if isinstance(check.forbidden, str) else not check.forbidden
        )
        spec.update(_nest(check.path, pod_leaf, anchored=True))
    message = f"{'.'.join(check.path)} violates the requirement in a container."
    return [_pod_rule(check.concept, message, {"pattern": {"spec": spec}}, intent)]


def _inherited_setting(check: InheritedSettingCheck, intent: Intent) -> list[dict[str, Any]]:
    # strings are truthy when set, so `own || pod` is the effective value
    own = "element." + ".".join(check.path)
    pod = "request.object.spec." + ".".join(check.path)
    # '' is "set on neither": allowed when the runtime's choice complies
    allowed = [*check.allowed, ""] if check.unset_allowed else list(check.allowed)
    conditions = {
        "any": [
            {
                "key": "{{ " + own + " || " + pod + " || '' }}",
                "operator": "AnyNotIn",
                "value": allowed,
            }
        ]
    }
    message = (
        f"Each container's effective {'.'.join(check.path)} must be one of {list(check.allowed)}."
    )
    return [_pod_rule(check.concept, message, _deny_each_container(conditions), intent)]


def _image_registry(check: ImageRegistryCheck, intent: Intent) -> list[dict[str, Any]]:
    image = " | ".join(f"{p}*" for p in check.prefixes)
    pattern = {"spec": _per_container({"image": image}, intent.scope.container_lists)}
    message = f"Images must come from {', '.join(check.prefixes)}."
    return [_pod_rule(check.concept, message, {"pattern": pattern}, intent)]


def _service_account_name(check: ServiceAccountNameCheck, intent: Intent) -> list[dict[str, Any]]:
    # unset means "default"; the deprecated alias counts when serviceAccountName is not set
    other = f"!{check.forbidden} & ?*"
    validate = {
        "anyPattern": [
            {"spec": {"serviceAccountName": other}},
            {"spec": {"serviceAccount": other, "X(serviceAccountName)": "null"}},
        ]
    }
    message = f"Pods must not run as the {check.forbidden} ServiceAccount."
    return [_pod_rule(check.concept, message, validate, intent)]


def _image_digest(check: ImageDigestCheck, intent: Intent) -> list[dict[str, Any]]:
    pattern = {"spec": _per_container({"image": "*@sha256:*"}, intent.scope.container_lists)}
    message = "Images must be referenced by their sha256 digest."
    return [_pod_rule(check.concept, message, {"pattern": pattern}, intent)]


def _pod_annotation(check: PodAnnotationCheck, intent: Intent) -> list[dict[str, Any]]:
    # annotation keys hold dots and slashes: read them through keys()/values() of the map
    query = "request.object.metadata.annotations || `{}`"
    conditions = {
        "any": [
            {
                "key": "{{ length(items("
                + query
                + ", 'k', 'v')[?starts_with(k, '"
                + check.key_prefix
                + "') && to_lower(v) == '"
                + check.forbidden.lower()
                + "']) }}",
                "operator": "GreaterThan",
                "value": 0,
            }
        ]
    }
    message = f"No {check.key_prefix}* annotation may be {check.forbidden}."
    return [_pod_rule(check.concept, message, {"deny": {"conditions": conditions}}, intent)]


def _ingress_tls(check: IngressTlsCheck, intent: Intent) -> list[dict[str, Any]]:
    tls = "request.object.spec.tls[].hosts[] || `[]`"
    # the wildcard entry that would cover the host: "*." + the host without its first label
    wildcard = "regex_replace_all('^[^.]*', element.host, '*')"
    conditions = {
        "all": [
            {"key": "{{ element.host || '' }}", "operator": "NotEquals", "value": ""},
            # contains() compares exactly: Kyverno's In operators would read the "*" of a TLS
            # entry as a glob that also covers names two labels deep
            {
                "key": "{{ contains(" + tls + ", element.host) }}",
                "operator": "Equals",
                "value": False,
            },
            {
                "key": "{{ contains(" + tls + ", " + wildcard + ") }}",
                "operator": "Equals",
                "value": False,
            },
        ]
    }
    validate = {
        "foreach": [
            {"list": "request.object.spec.rules || `[]`", "deny": {"conditions": conditions}}
        ]
    }
    message = "Every host an Ingress routes must be listed in its TLS section."
    return [_kinds_rule(check.concept, ["Ingress"], message, validate, intent)]


def _namespace_label(check: NamespaceLabelCheck, intent: Intent) -> list[dict[str, Any]]:
    rule: dict[str, Any] = {
        "name": check.concept,
        "match": {"any": [{"resources": {"kinds": ["Namespace"]}}]},
    }
    if intent.scope.exempt_namespaces:
        rule["exclude"] = {"any": [{"resources": {"names": list(intent.scope.exempt_namespaces)}}]}
    label = 'request.object.metadata.labels."' + check.label + "\" || ''"
    # no values listed: any value will do, but not none
    condition: dict[str, Any] = (
        {
            "key": "{{ to_lower(" + label + ") }}",
            "operator": "AnyNotIn",
            "value": list(check.allowed),
        }
        if check.allowed
        else {"key": "{{ " + label + " }}", "operator": "Equals", "value": ""}
    )
    rule["validate"] = {
        "message": f"{check.label} must be one of {list(check.allowed)}.",
        "deny": {"conditions": {"any": [condition]}},
    }
    return [rule]


def _run_as_non_root(check: RunAsNonRootCheck, intent: Intent) -> list[dict[str, Any]]:
    # the container's own runAsNonRoot overrides the pod's; unset on both is a violation
    flag_not_set = (
        "to_string(element.securityContext.runAsNonRoot) == 'false' || "
        "(to_string(element.securityContext.runAsNonRoot) == 'null' && "
        "to_string(request.object.spec.securityContext.runAsNonRoot) != 'true')"
    )
    conditions: list[dict[str, Any]] = [
        {"key": "{{ " + flag_not_set + " }}", "operator": "Equals", "value": True}
    ]
    if check.nonzero_uid_counts:
        # unless the effective user id (the container's own, else the pod's) is not 0; in
        # JMESPath 0 is truthy, so `||` keeps a container's own 0
        conditions.append(
            {
                "key": "{{ to_string(element.securityContext.runAsUser || "
                "request.object.spec.securityContext.runAsUser || 'unset') }}",
                "operator": "AnyIn",
                "value": ["0", "unset"],
            }
        )
    effective = _deny_each_container({"all": conditions})
    no_uid_zero = {
        "pattern": {
            "spec": {
                "=(securityContext)": {"=(runAsUser)": "!0"},
                **_per_container(
                    {"=(securityContext)": {"=(runAsUser)": "!0"}}, intent.scope.container_lists
                ),
            }
        }
    }
    return [
        _pod_rule(
            "run-as-non-root",
            "Every container must run with runAsNonRoot: true.",
            effective,
            intent,
        ),
        _pod_rule("no-uid-zero", "No securityContext may set runAsUser: 0.", no_uid_zero, intent),
    ]


def _capabilities(check: CapabilityCheck, intent: Intent) -> list[dict[str, Any]]:
    rules = []
    if check.must_drop:
        conditions = {
            "any": [
                {
                    "key": list(check.must_drop),
                    "operator": "AllNotIn",
                    # the runtime reads capability names in any letter case
                    "value": "{{ (element.securityContext.capabilities.drop || `[]`)[].to_upper(@) }}",
                }
            ]
        }
        message = f"Each container must drop {' or '.join(check.must_drop)}."
        rules.append(
            _pod_rule(f"{check.concept}-drop", message, _deny_each_container(conditions), intent)
        )
    if check.forbid_add:
        if "*" in check.forbid_add:
            condition = {
                "key": "{{ length(element.securityContext.capabilities.add || `[]`) }}",
                "operator": "GreaterThan",
                "value": 0,
            }
        else:
            condition = {
                "key": "{{ (element.securityContext.capabilities.add || `[]`)[].to_upper(@) }}",
                "operator": "AnyIn",
                "value": [*check.forbid_add, "ALL"],
            }
        message = "Containers must not add these capabilities."
        validate = _deny_each_container({"any": [condition]})
        rules.append(_pod_rule(f"{check.concept}-add", message, validate, intent))
    return rules


def _count_in(field: str, values: list[str], default: str = "`[]`") -> dict[str, Any]:
    """``element.<field>`` holds one of ``values`` literally. Kyverno's In operators treat ``*``
    in the value list as a wildcard matching anything, so the test is a JMESPath filter."""
    test = " || ".join(f"@ == '{v}'" for v in values)
    return {
        "key": "{{ length((element." + field + " || " + default + ")[?" + test + "]) }}",
        "operator": "GreaterThan",
        "value": 0,
    }


def _rbac_rule(check: RbacRuleCheck, intent: Intent) -> list[dict[str, Any]]:
    if check.any_wildcard:
        conditions: dict[str, Any] = {
            "any": [
                _count_in("apiGroups", ["*"]),
                _count_in("resources", ["*"]),
                _count_in("verbs", ["*"]),
                {
                    "key": "{{ length((element.resources || `[]`)[?starts_with(@, '*/')]) }}",
                    "operator": "GreaterThan",
                    "value": 0,
                },
            ]
        }
    else:
        resources = set(check.resources) | {"*"}
        resources |= {"*/" + r.split("/", 1)[1] for r in check.resources if "/" in r}
        # "pods/*" grants every subresource of pods, pods/portforward among them
        resources |= {r.split("/", 1)[0] + "/*" for r in check.resources if "/" in r}
        groups = {g for r in check.resources for g in groups_of(r)} | {"*"}
        conditions = {
            "all": [
                _count_in("apiGroups", sorted(groups), default='`[""]`'),
                _count_in("resources", sorted(resources)),
            ]
        }
        if "*" not in check.verbs:
            conditions["all"].append(_count_in("verbs", sorted({*check.verbs, "*"})))
    validate = {
        "foreach": [{"list": "request.object.rules || `[]`", "deny": {"conditions": conditions}}]
    }
    message = f"A rule of this role violates the requirement ({check.concept})."
    return [_kinds_rule(check.concept, ["Role", "ClusterRole"], message, validate, intent)]


def _foreign_accounts(check: BindingCheck, intent: Intent) -> list[dict[str, Any]]:
    # each ServiceAccount subject: a namespace other than the binding's (unset: the same)
    own = "{{ request.object.metadata.namespace }}"
    conditions = {
        "any": [
            {"key": "{{ element.namespace || request.object.metadata.namespace }}",
             "operator": "NotEquals", "value": own}
        ]
    }  # fmt: skip
    each = "request.object.subjects[?kind=='ServiceAccount'] || `[]`"
    validate = {"foreach": [{"list": each, "deny": {"conditions": conditions}}]}
    message = "A RoleBinding may name only ServiceAccounts of its own namespace."
    return [_kinds_rule(check.concept, ["RoleBinding"], message, validate, intent)]


def _binding(check: BindingCheck, intent: Intent) -> list[dict[str, Any]]:
    if check.foreign_service_accounts:
        return _foreign_accounts(check, intent)
    conditions: dict[str, Any]
    if check.role_ref:
        conditions = {
            "all": [
                {
                    "key": "{{ request.object.roleRef.kind }}",
                    "operator": "Equals",
                    "value": "ClusterRole",
                },
                {
                    "key": "{{ request.object.roleRef.name }}",
                    "operator": "Equals",
                    "value": check.role_ref,
                },
            ]
        }
        if check.allowed_subjects:
            # a subject the requirement does not allow
            allowed = " || ".join(
                f"(kind=='{k}' && name=='{n}')" for k, n in check.allowed_subjects
            )
            query = f"request.object.subjects[?!({allowed})] || `[]`"
            conditions["all"].append(
                {"key": "{{ length(" + query + ") }}", "operator": "GreaterThan", "value": 0}
            )
    else:
        query = (
            f"request.object.subjects[?kind=='{check.subject_kind}' && "
            f"name=='{check.subject_name}'] || `[]`"
        )
        conditions = {
            "any": [{"key": "{{ length(" + query + ") }}", "operator": "GreaterThan", "value": 0}]
        }
    validate = {"deny": {"conditions": conditions}}
    message = f"This binding violates the requirement ({check.concept})."
    rule = _kinds_rule(
        check.concept, ["RoleBinding", "ClusterRoleBinding"], message, validate, intent
    )
    if check.exempt_names:
        excluded = rule.setdefault("exclude", {"any": []})["any"]
        excluded.append({"resources": {"names": list(check.exempt_names)}})
    return [rule]


def _network_policy(check: NamespaceNetworkPolicyCheck, intent: Intent) -> list[dict[str, Any]]:
    rule = _kinds_rule(
        check.concept,
        ["Namespace"],
        f"Every namespace needs a {check.object_kind} of its own.",
        {
            "deny": {
                "conditions": {"any": [{"key": "{{ policies }}", "operator": "Equals", "value": 0}]}
            }
        },
        Intent(platform="kubernetes", checks=intent.checks, requirement=intent.requirement),
    )
    if intent.scope.exempt_namespaces:
        rule["exclude"] = {"any": [{"resources": {"names": list(intent.scope.exempt_namespaces)}}]}
    # a rule on Namespaces: their own labels select them
    _in_labelled_namespaces(rule, check.namespace_labels)
    rule["context"] = [
        {
            "name": "policies",
            "apiCall": {
                "urlPath": f"{check.api_prefix}/namespaces/"
                "{{ request.object.metadata.name }}/" + check.plural,
                "jmesPath": "items | length(@)",
            },
        }
    ]
    # context must come before validate for readers; dicts keep insertion order
    rule["validate"] = rule.pop("validate")
    return [rule]


def _default_namespace(check: DefaultNamespaceCheck, intent: Intent) -> list[dict[str, Any]]:
    return [
        {
            "name": check.concept,
            "match": {
                "any": [{"resources": {"kinds": list(check.kinds), "namespaces": ["default"]}}]
            },
            "exclude": {
                "any": [
                    {"resources": {"kinds": [kind], "names": [name]}}
                    for kind, name in k8s_namespaces.BUILTIN_IN_DEFAULT
                ]
            },
            "validate": {
                "message": "Nothing of ours may live in the default namespace.",
                "deny": {},
            },
        }
    ]


#: where each level of a field check starts (autogen rewrites request.object.spec for controllers)
_FIELD_BASES = {
    "object": "request.object",
    "pod": "request.object.spec",
    "container": "request.object.spec.[ephemeralContainers, initContainers, containers][]",
}


def _field_query(level: str, path: tuple[str, ...]) -> str:
    """The JMESPath of a field path: ``*`` steps into (and flattens) every item of a list."""
    query = _FIELD_BASES[level]
    for step in path:
        # a key that is not a JMESPath identifier (an annotation) is quoted
        spelled = step if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", step) else json.dumps(step)
        if step == "*":
            query += "[]"
        elif step == "{}":
            query += ".*"  # every value of a map (an object's annotations)
        elif step.isdigit():
            query += f"[{step}]"  # one item of a list (a command's program)
        else:
            query += f".{spelled}"
    return query


def _in_labelled_namespaces(rule: dict[str, Any], labels: tuple[tuple[str, str], ...]) -> None:
    """Limit ``rule`` to objects in namespaces carrying every (key, value) of ``labels``; a rule
    on Namespaces themselves is limited by their own labels (a Namespace is in no namespace)."""
    if labels:
        for entry in rule["match"]["any"]:
            own = entry["resources"].get("kinds") == ["Namespace"]
            selector = "selector" if own else "namespaceSelector"
            entry["resources"][selector] = {"matchLabels": dict(labels)}


def _on_labelled_objects(rule: dict[str, Any], labels: tuple[tuple[str, str], ...]) -> None:
    """Limit ``rule`` to objects carrying every (key, value) of ``labels`` on themselves (the
    parser reads such labels only when every check judges objects, not pods)."""
    if labels:
        for entry in rule["match"]["any"]:
            selector = entry["resources"].setdefault("selector", {"matchLabels": {}})
            selector.setdefault("matchLabels", {}).update(dict(labels))


def _out_of_permitting_namespaces(
    rule: dict[str, Any], labels: tuple[tuple[str, str], ...]
) -> None:
    """Leave out of ``rule`` the objects in namespaces carrying every (key, value) of
    ``labels``: there the requirement permits what the rule denies."""
    if labels:
        excluded = rule.setdefault("exclude", {}).setdefault("any", [])
        excluded.append({"resources": {"namespaceSelector": {"matchLabels": dict(labels)}}})


def _on_labelled_pods(rule: dict[str, Any], labels: tuple[tuple[str, str], ...]) -> None:
    """Limit a rule on Pods to those carrying every (key, value) of ``labels``: a precondition
    on the Pod's own labels, which autogen reads from a workload's pod template."""
    kinds = {k for entry in rule["match"]["any"] for k in entry["resources"].get("kinds", [])}
    if not labels or kinds != {"Pod"}:
        return
    preconditions = rule.setdefault("preconditions", {"all": []}).setdefault("all", [])
    for key, value in labels:
        spelled = "request.object.metadata.labels." + json.dumps(key)
        preconditions.append(
            {"key": "{{ " + spelled + " || '' }}", "operator": "Equals", "value": value}
        )


def _off_exempt_pods(rule: dict[str, Any], labels: tuple[tuple[str, str], ...]) -> None:
    """Leave out of a rule on Pods those carrying every (key, value) of ``labels``: it applies
    when any of them is missing (autogen reads a workload's pod template)."""
    kinds = {k for entry in rule["match"]["any"] for k in entry["resources"].get("kinds", [])}
    if not labels or kinds != {"Pod"}:
        return
    preconditions = rule.setdefault("preconditions", {"all": []}).setdefault("any", [])
    for key, value in labels:
        spelled = "request.object.metadata.labels." + json.dumps(key)
        preconditions.append(
            {"key": "{{ " + spelled + " || '' }}", "operator": "NotEquals", "value": value}
        )


def _narrowed(rule: dict[str, Any], check: FieldValueCheck) -> None:
    """The objects an object-level field check leaves out: namespaces without its labels, the
    names it exempts, objects whose deciding field has another value."""
    _in_labelled_namespaces(rule, check.namespace_labels)
    if check.exempt_names:
        excluded = rule.setdefault("exclude", {"any": []})["any"]
        excluded.append({"resources": {"names": list(check.exempt_names)}})
    if check.only_when is not None:
        path, default, values = check.only_when
        key = "{{ " + _field_query("object", path) + " || '" + default + "' }}"
        rule["preconditions"] = {"all": [{"key": key, "operator": "AnyIn", "value": list(values)}]}


def _literal(value: str) -> str:
    """A JMESPath raw string literal of ``value``."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _field_value(check: FieldValueCheck, intent: Intent) -> list[dict[str, Any]]:
    conditions: list[dict[str, Any]] = []
    for path in check.paths:
        query = _field_query(check.level, path)
        # a projection is a list already; a single field becomes a list of one (null: absent)
        projected = "[]" in query or ".*" in query
        values = query + " || `[]`" if projected else f"to_array({query}) | [?@ != `null`]"
        if check.any_value:
            # as in the Rego: an empty string, list or map is no value (``user: ""`` is unset)
            present = values + " | [?@ != '' && @ != `[]` && @ != `{}`]"
            conditions.append(
                {"key": "{{ length(" + present + ") }}", "operator": "GreaterThan", "value": 0}
            )
        if check.forbidden:
            conditions.append(
                {"key": "{{ " + values + " }}", "operator": "AnyIn", "value": list(check.forbidden)}
            )
        if check.forbidden_prefixes:
            starts = " || ".join(f"starts_with(@, {_literal(p)})" for p in check.forbidden_prefixes)
            conditions.append(
                {"key": "{{ length(" + values + " | [?" + starts + "]) }}",
                 "operator": "GreaterThan", "value": 0}
            )  # fmt: skip
        if check.allowed_prefixes:
            # a value outside the allowed ones that starts with none of the prefixes
            inside = [f"contains(`{json.dumps(list(check.allowed))}`, @)"]
            inside += [f"starts_with(@, {_literal(p)})" for p in check.allowed_prefixes]
            outside = values + " | [?!(" + " || ".join(inside) + ")]"
            conditions.append(
                {"key": "{{ length(" + outside + ") }}", "operator": "GreaterThan", "value": 0}
            )
        elif check.allowed:
            conditions.append(
                {"key": "{{ " + values + " }}", "operator": "AnyNotIn",
                 "value": list(check.allowed)}
            )  # fmt: skip
        for item in check.required_items:
            # the list lacks a required item (an absent list holds the API's default)
            held = query + " || `" + json.dumps(list(check.default_items)) + "`"
            conditions.append(
                {"key": "{{ contains(" + held + ", " + _literal(str(item)) + ") }}",
                 "operator": "Equals", "value": False}
            )  # fmt: skip
        for pattern, wanted in ((check.allowed_pattern, "!"), (check.forbidden_pattern, "")):
            if pattern:
                # a string of another shape than the one stated, or of the forbidden shape
                # a raw string literal keeps its backslashes (only \' is an escape there)
                spelled = "'" + pattern.replace("'", "\\'") + "'"
                shaped = f"[?type(@) == 'string' && {wanted}regex_match({spelled}, @)]"
                conditions.append(
                    {"key": "{{ length(" + values + " | " + shaped + ") }}",
                     "operator": "GreaterThan", "value": 0}
                )  # fmt: skip
    if check.must_be_set and check.items is not None:
        # every item of the list must set it: one that does not (null or empty) violates
        items, leaf = check.items
        found = _field_query(check.level, items) + " || `[]`"
        if check.item_when is not None:
            # only the items the requirement judges
            sibling = _field_query("object", check.item_when[0]).removeprefix("request.object.")
            found += (
                " | [?"
                + " || ".join(f"{sibling} == {_literal(v)}" for v in check.item_when[1])
                + "]"
            )
        unset = _field_query("object", leaf).removeprefix("request.object.")
        conditions.append(
            # "!" binds tighter than ".": a field below the item ("emptyDir.sizeLimit") needs
            # its parentheses, or the filter negates the first name only
            {"key": "{{ length(" + found + " | [?!(" + unset + ")]) }}",
             "operator": "GreaterThan", "value": 0}
        )  # fmt: skip
    elif check.must_be_set and check.level == "container":
        # a container that sets the field under none of its spellings
        unset = " && ".join(_field_query("object", p).removeprefix("request.object.") + " == `null`"
                            for p in check.paths)  # fmt: skip
        conditions.append(
            {"key": "{{ length(" + _FIELD_BASES["container"] + " | [?" + unset + "]) }}",
             "operator": "GreaterThan", "value": 0}
        )  # fmt: skip
    elif check.must_be_set:
        spelled = ", ".join(_field_query(check.level, p) for p in check.paths)
        conditions.append(
            # flattened: a path through a list ("*") gives a list, and an empty one names nothing
            {"key": "{{ length([" + spelled + "][] | [?@ != `null` && @ != '']) }}",
             "operator": "Equals",
             "value": 0}
        )  # fmt: skip
    validate = {"deny": {"conditions": {"any": conditions}}}
    message = f"The field {check.concept} holds a value the requirement does not allow."
    if check.level == "object":
        rule = _kinds_rule(check.concept, list(check.kinds), message, validate, intent)
        _narrowed(rule, check)
        return [rule]
    rule = _pod_rule(f"{check.concept}-{check.level}", message, validate, intent)
    _in_labelled_namespaces(rule, check.namespace_labels)
    if check.owned_pods_by_owner:
        rule["preconditions"] = {
            "all": [
                {"key": "{{ length(request.object.metadata.ownerReferences || `[]`) }}",
                 "operator": "Equals", "value": 0}
            ]
        }  # fmt: skip
    return [rule]


def _relative(path: tuple[str, ...]) -> str:
    """A path below an item as a JMESPath field expression (a name that is no identifier
    quoted)."""
    return ".".join(
        part if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part) else json.dumps(part) for part in path
    )


def _field_bound_per_item(
    check: FieldBoundCheck, items: tuple[str, ...], leaf: tuple[str, ...]
) -> str:
    """How many items under ``items`` hold the field at ``leaf`` (else the default) outside
    the bounds: a JMESPath filter over the flattened items."""
    field = _relative(leaf)
    value = field if check.default is None else f"({field} || `{check.default}`)"
    outside = [f"!{field}"] if check.default is None else []
    if check.maximum is not None:
        outside.append(f"{value} > `{check.maximum}`")
    if check.minimum is not None:
        outside.append(f"{value} < `{check.minimum}`")
    found = _field_query(check.level, items) + " || `[]`"
    if check.item_when is not None:
        # only the items the requirement judges
        sibling, values = check.item_when
        found += " | [?" + " || ".join(f"{_relative(sibling)} == '{v}'" for v in values) + "]"
    return "{{ length(" + found + " | [?" + " || ".join(outside) + "]) }}"


def _outside(key: str, minimum: Any, maximum: Any) -> list[dict[str, Any]]:
    """Deny conditions for a value below ``minimum`` or above ``maximum`` (None: no such bound)."""
    conditions: list[dict[str, Any]] = []
    if maximum is not None:
        conditions.append({"key": key, "operator": "GreaterThan", "value": maximum})
    if minimum is not None:
        conditions.append({"key": key, "operator": "LessThan", "value": minimum})
    return conditions


def _field_bound(check: FieldBoundCheck, intent: Intent) -> list[dict[str, Any]]:
    # the first spelling set, else the API's default (JMESPath's || keeps a 0: numbers are true)
    spelled = " || ".join(_field_query(check.level, p) for p in check.paths)
    fallback = "''" if check.default is None else f"`{check.default}`"
    value = "{{ " + spelled + " || " + fallback + " }}"
    conditions: list[dict[str, Any]] = []
    if check.per_item is not None:
        offending = _field_bound_per_item(check, *check.per_item)
        conditions.append({"key": offending, "operator": "GreaterThan", "value": 0})
    else:
        if check.default is None:
            conditions.append({"key": value, "operator": "Equals", "value": ""})
        conditions += _outside(value, check.minimum, check.maximum)
    validate = {"deny": {"conditions": {"any": conditions}}}
    message = f"The field {check.concept} is unset or outside the bounds the requirement sets."
    if check.level == "object":
        rule = _kinds_rule(check.concept, list(check.kinds), message, validate, intent)
    else:
        rule = _pod_rule(check.concept, message, validate, intent)
    _in_labelled_namespaces(rule, check.namespace_labels)
    return [rule]


def _container_number_bound(
    check: ContainerNumberBoundCheck, intent: Intent
) -> list[dict[str, Any]]:
    # every number under the path, flattened over containers and list items; a comparison with
    # a string gives null, which the filter drops
    numbers = _field_query("container", check.path) + " || `[]`"
    conditions: list[dict[str, Any]] = []
    if check.minimum is not None:
        conditions.append(
            {"key": "{{ length(" + numbers + f" | [?@ < `{check.minimum}`]) }}}}",
             "operator": "GreaterThan", "value": 0}
        )  # fmt: skip
    if check.maximum is not None:
        conditions.append(
            {"key": "{{ length(" + numbers + f" | [?@ > `{check.maximum}`]) }}}}",
             "operator": "GreaterThan", "value": 0}
        )  # fmt: skip
    validate = {"deny": {"conditions": {"any": conditions}}}
    message = f"Every container's {'.'.join(check.path)} must lie within the required bounds."
    return [_pod_rule(check.concept, message, validate, intent)]


def _inherited_bound(check: InheritedBoundCheck, intent: Intent) -> list[dict[str, Any]]:
    # the container's own value, else the pod's (JMESPath's || keeps a 0: numbers are true)
    field = _field_query("object", check.path).removeprefix("request.object.")
    value = "{{ element." + field + " || request.object.spec." + field + " || '' }}"
    conditions: list[dict[str, Any]] = []
    if check.unset_violates:
        conditions.append({"key": value, "operator": "Equals", "value": ""})
    conditions += _outside(value, check.minimum, check.maximum)
    validate = {"foreach": [{"list": ALL_CONTAINERS, "deny": {"conditions": {"any": conditions}}}]}
    message = f"Every container's effective {'.'.join(check.path)} must lie within the bounds."
    return [_pod_rule(check.concept, message, validate, intent)]


def _node_label_selection(check: NodeLabelSelectionCheck, intent: Intent) -> list[dict[str, Any]]:
    affinity = "request.object.spec.affinity.nodeAffinity"
    conditions: list[dict[str, Any]] = []
    for key in check.keys:
        selects = f"[?key == '{key}' && (operator == 'In' || operator == 'Exists')]"
        required = (f"{affinity}.requiredDuringSchedulingIgnoredDuringExecution"
                    ".nodeSelectorTerms[].matchExpressions[]")  # fmt: skip
        preferred = (f"{affinity}.preferredDuringSchedulingIgnoredDuringExecution[]"
                     ".preference.matchExpressions[]")  # fmt: skip
        conditions += [
            {"key": "{{ contains(keys(request.object.spec.nodeSelector || `{}`), '" + key + "') }}",
             "operator": "Equals", "value": True},
            {"key": "{{ length(" + required + " || `[]` | " + selects + ") }}",
             "operator": "GreaterThan", "value": 0},
            {"key": "{{ length(" + preferred + " || `[]` | " + selects + ") }}",
             "operator": "GreaterThan", "value": 0},
        ]  # fmt: skip
    message = "Pods must not be steered onto the nodes the requirement names."
    return [
        _pod_rule(check.concept, message, {"deny": {"conditions": {"any": conditions}}}, intent)
    ]


def _list_length(check: ListLengthCheck, intent: Intent) -> list[dict[str, Any]]:
    base = {"container": "element", "pod": "request.object.spec", "object": "request.object"}
    # the lists (or maps) counted together: the sum of their lengths (an absent one has none)
    counted = [
        "length(" + base[check.level] + "."
        + _field_query("object", path).removeprefix("request.object.") + " || `[]`)"
        for path in (check.path, *check.also)
    ]  # fmt: skip
    length = "{{ " + (counted[0] if len(counted) == 1 else f"sum([{', '.join(counted)}])") + " }}"
    deny = {"conditions": {"any": _outside(length, check.minimum, check.maximum)}}
    message = f"The number of items of {'.'.join(check.path)} is outside the required bounds."
    if check.level == "container":
        validate = {"foreach": [{"list": ALL_CONTAINERS, "deny": deny}]}
        return [_pod_rule(check.concept, message, validate, intent)]
    if check.level == "pod":
        return [_pod_rule(check.concept, message, {"deny": deny}, intent)]
    return [_kinds_rule(check.concept, list(check.kinds), message, {"deny": deny}, intent)]


#: where each kind keeps its pod spec, for rules that match the kinds themselves
_POD_SPEC_OF = {"Pod": "request.object.spec",
                "CronJob": "request.object.spec.jobTemplate.spec.template.spec"}  # fmt: skip


def _container_requires(check: ContainerRequiresCheck, intent: Intent) -> list[dict[str, Any]]:
    def field(path: tuple[str, ...]) -> str:
        return _field_query("object", path).removeprefix("request.object.")

    # JMESPath: null, '', [] and {} are false, so ! reads "no value"
    # parenthesised: JMESPath's ! binds tighter than the dot ("!a.b" is "(!a).b")
    lacking = "!(" + field(check.required) + ")"
    if check.when:
        lacking = field(check.when) + " && " + lacking
    lists = ", ".join(check.lists)
    message = f"A container must set {'.'.join(check.required)}."

    def rule(name: str, spec: str, kinds: list[str] | None) -> dict[str, Any]:
        offending = "{{ length(" + spec + f".[{lists}][] | [?{lacking}]) }}}}"
        validate = {"deny": {"conditions": {"any": [
            {"key": offending, "operator": "GreaterThan", "value": 0}]}}}  # fmt: skip
        if kinds is None:
            return _pod_rule(name, message, validate, intent)
        return _kinds_rule(name, kinds, message, validate, intent)

    if not check.kinds:
        return [rule(check.concept, "request.object.spec", None)]
    templated = [k for k in check.kinds if k not in _POD_SPEC_OF]
    rules = (
        [rule(check.concept, "request.object.spec.template.spec", templated)] if templated else []
    )
    rules += [rule(f"{check.concept}-{k.lower()}", _POD_SPEC_OF[k], [k])
              for k in check.kinds if k in _POD_SPEC_OF]  # fmt: skip
    return rules


def _pod_labels(check: PodLabelsCheck, intent: Intent) -> list[dict[str, Any]]:
    # Kyverno's autogen reads the pod template's metadata for the controllers
    conditions = [
        {"key": "{{ request.object.metadata.labels." + json.dumps(key) + " || '' }}",
         "operator": "Equals", "value": ""}
        for key in check.keys
    ]  # fmt: skip
    message = f"Every pod must carry the labels {', '.join(check.keys)}."
    return [
        _pod_rule(check.concept, message, {"deny": {"conditions": {"any": conditions}}}, intent)
    ]


def _quantity_bound(check: QuantityBoundCheck, intent: Intent) -> list[dict[str, Any]]:
    # Kyverno compares two quantities by value ("600G" > "536870912000"); to_string makes a
    # bare byte count written as a number a quantity too
    def conditions(query: str) -> dict[str, Any]:
        key = "{{ to_string(" + query + " || '0') }}"
        found: list[dict[str, Any]] = []
        if check.maximum is not None:
            found.append({"key": key, "operator": "GreaterThan", "value": str(check.maximum)})
        if check.minimum is not None:
            found.append({"key": key, "operator": "LessThan", "value": str(check.minimum)})
        return {"any": found}

    message = "A requested size lies outside the bounds the requirement sets."
    rules = []
    for kind, path in check.fields:
        name = f"{check.concept}-{kind.lower()}"
        if "*" in path:
            at = path.index("*")
            items = _field_query("object", path[:at]) + " || `[]`"
            element = _field_query("object", path[at + 1 :]).replace("request.object", "element", 1)
            validate: dict[str, Any] = {
                "foreach": [{"list": items, "deny": {"conditions": conditions(element)}}]
            }
        else:
            validate = {"deny": {"conditions": conditions(_field_query("object", path))}}
        rules.append(_kinds_rule(name, [kind], message, validate, intent))
    return rules


def _required_list_item(check: RequiredListItemCheck, intent: Intent) -> list[dict[str, Any]]:
    # one item holds every value: a filter over the list, not one condition per field
    match = " && ".join(f"{key}=='{value}'" for key, value in check.item)
    items = f"request.object.spec.template.spec.{check.list_field}[?{match}] || `[]`"
    validate = {
        "deny": {
            "conditions": {"any": [{"key": "{{ length(" + items + ") }}", "operator": "Equals",
                                    "value": 0}]}
        }
    }  # fmt: skip
    message = f"The pod template needs an item of {check.list_field} the requirement names."
    rule = _kinds_rule(check.concept, list(check.kinds), message, validate, intent)
    _in_labelled_namespaces(rule, check.namespace_labels)
    return [rule]


def _image_pull_policy(check: ImagePullPolicyCheck, intent: Intent) -> list[dict[str, Any]]:
    # the API's default when the policy is left out: Always for ":latest" or an image with
    # neither tag nor digest, IfNotPresent otherwise
    defaults_always = (
        "regex_match('^(?:[^/@]*/)*[^/:@]+(?::latest)?$', element.image) || "
        "regex_match('^(?:[^/@]*/)*[^/:@]+:latest@', element.image)"
    )
    policy = "element.imagePullPolicy || ''"
    conditions = {
        "any": [
            {"key": "{{ " + policy + " }}", "operator": "AnyNotIn", "value": [check.required, ""]},
            {"key": "{{ " + policy + " == '' && !(" + defaults_always + ") }}",
             "operator": "Equals", "value": True},
        ]
    }  # fmt: skip
    lists = ", ".join(intent.scope.container_lists)
    validate = {
        "foreach": [
            {"list": f"request.object.spec.[{lists}][] || `[]`", "deny": {"conditions": conditions}}
        ]
    }
    message = f"Every container must pull its image with policy {check.required}."
    return [_pod_rule(check.concept, message, validate, intent)]


def _ingress_named_hosts(check: IngressNamedHostsCheck, intent: Intent) -> list[dict[str, Any]]:
    validate = {
        "deny": {
            "conditions": {
                "any": [
                    {"key": "{{ request.object.spec.defaultBackend || '' }}",
                     "operator": "NotEquals", "value": ""},
                    {"key": "{{ length(request.object.spec.rules[?(host || '') == ''] || `[]`) }}",
                     "operator": "GreaterThan", "value": 0},
                    {"key": "{{ length(request.object.spec.rules[?contains(host || '', '*')] || `[]`) }}",
                     "operator": "GreaterThan", "value": 0},
                ]
            }
        }
    }  # fmt: skip
    message = "Every Ingress rule must name a host in full, with no catch-all backend."
    return [_kinds_rule(check.concept, ["Ingress"], message, validate, intent)]


def _image_tag(check: ImageTagCheck, intent: Intent) -> list[dict[str, Any]]:
    floating = "regex_match('^(?:[^/@]*/)*[^/:@]+(?::latest)?$', element.image)"
    conditions = {"any": [{"key": "{{ " + floating + " }}", "operator": "Equals", "value": True}]}
    lists = ", ".join(intent.scope.container_lists)
    validate = {
        "foreach": [
            {"list": f"request.object.spec.[{lists}][] || `[]`", "deny": {"conditions": conditions}}
        ]
    }
    message = "Every image must name a fixed tag (not latest) or a digest."
    return [_pod_rule(check.concept, message, validate, intent)]


def _volume_types(check: VolumeTypesCheck, intent: Intent) -> list[dict[str, Any]]:
    conditions = {
        "any": [
            {"key": "{{ keys(element) }}", "operator": "AnyNotIn",
             "value": ["name", *check.allowed]}
        ]
    }  # fmt: skip
    validate = {
        "foreach": [
            {"list": "request.object.spec.volumes || `[]`", "deny": {"conditions": conditions}}
        ]
    }
    message = f"Volumes may only be of the types {list(check.allowed)}."
    return [_pod_rule(check.concept, message, validate, intent)]


def _lb_source_ranges(check: LoadBalancerSourcesCheck, intent: Intent) -> list[dict[str, Any]]:
    # CEL, for Kubernetes' cidr library: the field wins, the annotation counts only when it is
    # empty, and no range at all admits everyone
    annotation = json.dumps(check.annotation).replace('"', "'")
    ranges = (
        "(has(object.spec.loadBalancerSourceRanges) && "
        "size(object.spec.loadBalancerSourceRanges) > 0 ? object.spec.loadBalancerSourceRanges : "
        f"has(object.metadata.annotations) && {annotation} in object.metadata.annotations ? "
        f"object.metadata.annotations[{annotation}].split(',').map(r, r.trim())"
        ".filter(r, r != '') : [])"
    )
    allowed = "[" + ", ".join(f"'{c}'" for c in check.allowed) + "]"
    # no range named as allowed: any range but one that admits everyone
    inside = (
        f"{allowed}.exists(a, cidr(a).containsCIDR(r))" if check.allowed else "!r.endsWith('/0')"
    )
    expression = (
        "!has(object.spec.type) || object.spec.type != 'LoadBalancer' || "
        f"(size({ranges}) > 0 && {ranges}.all(r, {inside}))"
    )
    message = f"A LoadBalancer Service may admit clients only from {list(check.allowed)}."
    validate = {"cel": {"expressions": [{"expression": expression, "message": message}]}}
    return [_kinds_rule(check.concept, ["Service"], message, validate, intent)]


_SIMPLE_PATTERNS = {
    HostPathVolumeCheck: (
        "hostPath volumes are not allowed.",
        lambda lists: {"spec": {"=(volumes)": [{"X(hostPath)": "null"}]}},
    ),
    HostPortCheck: (
        "Containers must not use host ports.",
        lambda lists: {"spec": _per_container({"=(ports)": [{"=(hostPort)": 0}]}, lists)},
    ),
    SecretEnvCheck: (
        "Secrets must not be passed as environment variables.",
        lambda lists: {
            "spec": _per_container(
                {
                    "=(env)": [{"=(valueFrom)": {"X(secretKeyRef)": "null"}}],
                    "=(envFrom)": [{"X(secretRef)": "null"}],
                },
                lists,
            )
        },
    ),
}

_BUILDERS = {
    PodFieldCheck: _pod_field,
    InheritedSettingCheck: _inherited_setting,
    ImageRegistryCheck: _image_registry,
    ImageDigestCheck: _image_digest,
    ServiceAccountNameCheck: _service_account_name,
    PodAnnotationCheck: _pod_annotation,
    NamespaceLabelCheck: _namespace_label,
    IngressTlsCheck: _ingress_tls,
    ContainerFieldCheck: _container_field,
    RunAsNonRootCheck: _run_as_non_root,
    CapabilityCheck: _capabilities,
    RbacRuleCheck: _rbac_rule,
    BindingCheck: _binding,
    NamespaceNetworkPolicyCheck: _network_policy,
    DefaultNamespaceCheck: _default_namespace,
    FieldValueCheck: _field_value,
    FieldBoundCheck: _field_bound,
    ContainerNumberBoundCheck: _container_number_bound,
    ContainerRequiresCheck: _container_requires,
    PodLabelsCheck: _pod_labels,
    QuantityBoundCheck: _quantity_bound,
    ListLengthCheck: _list_length,
    NodeLabelSelectionCheck: _node_label_selection,
    InheritedBoundCheck: _inherited_bound,
    ImagePullPolicyCheck: _image_pull_policy,
    IngressNamedHostsCheck: _ingress_named_hosts,
    LoadBalancerSourcesCheck: _lb_source_ranges,
    ImageTagCheck: _image_tag,
    VolumeTypesCheck: _volume_types,
    RequiredListItemCheck: _required_list_item,
}


def rules_for(intent: Intent) -> list[dict[str, Any]]:
    rules: list[dict[str, Any]] = []
    for check in intent.checks:
        if not isinstance(check, KubernetesCheck):
            raise NotRenderable(f"a {check.kind} check is not a Kubernetes one")
        simple = _SIMPLE_PATTERNS.get(type(check))
        if simple is not None:
            message, pattern = simple
            validate = {"pattern": pattern(intent.scope.container_lists)}
            rules.append(_pod_rule(check.concept, message, validate, intent))
            continue
        builder = _BUILDERS.get(type(check))
        if builder is None:
            raise NotRenderable(f"no Kyverno rule for the {check.concept} check")
        rules.extend(builder(check, intent))  # type: ignore[operator]  # _BUILDERS maps each check type to its own builder; mypy sees one value type for all of them
    for rule in rules:
        # "in namespaces labelled tier=prod": every rule, whatever the check
        _in_labelled_namespaces(rule, intent.scope.namespace_labels)
        _on_labelled_pods(rule, intent.scope.pod_labels)
        _on_labelled_objects(rule, intent.scope.object_labels)
        _off_exempt_pods(rule, intent.scope.exempt_pod_labels)
        _out_of_permitting_namespaces(rule, intent.scope.permitting_namespace_labels)
        if intent.scope.permitting_object_labels:
            # the objects the requirement permits it on, by their own labels
            excluded = rule.setdefault("exclude", {}).setdefault("any", [])
            labels = dict(intent.scope.permitting_object_labels)
            excluded.append({"resources": {"selector": {"matchLabels": labels}}})
        if intent.scope.only_namespaces:
            # "workloads in namespace `sandbox`": the rule matches there only
            for entry in rule["match"]["any"]:
                entry["resources"]["namespaces"] = list(intent.scope.only_namespaces)
        # Kyverno rule names: lower-case words and dashes, at most 63 characters
        rule["name"] = re.sub(r"[^a-z0-9]+", "-", rule["name"].lower()).strip("-")[:63]
    return rules
