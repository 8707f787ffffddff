"""Kubernetes RBAC and service accounts: what rules grant, whom bindings name, and token
mounting.

RBAC facts the renderers rely on: a rule's ``*`` verb grants every verb; a ``*`` resource of the
core ("") or ``*`` API group covers every core resource and subresource; ``*/<sub>`` covers that
subresource of every resource; built-in objects are named ``system:*`` or labelled
``kubernetes.io/bootstrapping=rbac-defaults``.
"""

from __future__ import annotations

import re

from ciso.agents.baseline.intent import (
    BindingCheck,
    PodFieldCheck,
    RbacRuleCheck,
    ServiceAccountNameCheck,
)
from ciso.agents.baseline.knowledge import Concept, words

ROLE_WORDS = words(
    r"\b(cluster\s*)?roles?\b", r"\brbac\b", r"\bpermissions?\b", r"\bgrants?\b", r"\brules?\b"
)
READ_VERBS = ("get", "list", "watch")
#: resources whose create makes pods (CIS 5.1.4)
POD_CREATORS = (
    "pods",
    "deployments",
    "replicasets",
    "statefulsets",
    "daemonsets",
    "jobs",
    "cronjobs",
    "replicationcontrollers",
)
WEBHOOK_RESOURCES = ("validatingwebhookconfigurations", "mutatingwebhookconfigurations")
WRITE_VERBS = ("create", "update", "patch", "delete", "deletecollection")
#: a requirement about particular verbs ("grants update on ...") is not the wildcard control
_NAMES_VERBS = words(
    r"\bgrant\w*\s+(a\s+)?(write\s+verb|get|list|watch|create|update|patch|delete)\b"
)
#: "wildcards for the group, the resource or the verb count": a wildcard is one way to grant the
#: right the text is about, not the subject of the control
_WILDCARD_AS_MEANS = words(r"\bwild\s*-?cards?\b[^.;]{0,80}\bcounts?\b")
IDENTITY_RESOURCES = (
    "roles",
    "clusterroles",
    "users",
    "groups",
    "serviceaccounts",
    "uids",
)


#: "creating Deployments is out of scope", "controllers are fine": only the pods resource itself
_CONTROLLERS_EXCLUDED = re.compile(
    r"\b(deployments?|controllers?|workloads?|replicasets?|jobs?)\b[^.;]*\b(out\s+of\s+(the\s+)?scope|"
    r"not\s+(in\s+scope|covered|judged|a\s+finding|findings)|(is|are)\s+(fine|allowed|permitted))",
    re.I,
)


def _pod_creators(text: str) -> tuple[str, ...]:
    """Creating a controller makes pods too (CIS 5.1.4 counts it), unless the text leaves the
    controllers out ("Creating Deployments is out of scope"): then the pods resource alone."""
    if _CONTROLLERS_EXCLUDED.search(text):
        return ("pods",)
    return POD_CREATORS


#: the text says the ServiceAccount's own setting counts ("unless its ServiceAccount sets it to
#: false", "inherits the account's setting"): Kubernetes mounts the token unless the pod, or when
#: the pod says nothing its ServiceAccount, sets automountServiceAccountToken: false
_ACCOUNT_SETTING = re.compile(
    r"\bservice\s*accounts?('s)?\b.{0,60}\b(sets?|setting|opts?\s+out|false|disables?)\b|"
    r"\b(inherit\w*|falls?\s+back|defers?)\b.{0,60}\bservice\s*accounts?\b",
    re.I,
)


#: "the ServiceAccount's own setting is not considered", "whatever the ServiceAccount says"
_ACCOUNT_IGNORED = re.compile(
    r"\bnot\s+(considered|counted|taken\s+into\s+account|relevant)\b|\b(does|do)\s*(not|n't)\s+"
    r"(count|matter)\b|\bignored\b|\bwhatever\b|\bregardless\b|\birrespective\b",
    re.I,
)


def _account_setting_counts(text: str) -> bool:
    """A sentence says the ServiceAccount's setting decides, and none says it is ignored."""
    sentences = re.split(r"(?<=[.;!?])\s+|\(|\)", text)
    if any(_ACCOUNT_SETTING.search(s) and _ACCOUNT_IGNORED.search(s) for s in sentences):
        return False
    return bool(_ACCOUNT_SETTING.search(text))


def _automount(text: str) -> PodFieldCheck:
    default_only = bool(re.search(r"\bdefault\s+service\s*accounts?\b", text, re.I))
    return PodFieldCheck(
        concept="default-service-account" if default_only else "service-account-token-automount",
        field="automountServiceAccountToken",
        required=False,
        default_service_account_only=default_only,
        service_account_fallback=_account_setting_counts(text) and not default_only,
    )


_SUBJECT_KINDS = {"group": "Group", "user": "User", "service account": "ServiceAccount",
                  "serviceaccount": "ServiceAccount"}  # fmt: skip
_SUBJECT = re.compile(
    r"\b(group|user|service\s*account)\s+(?:named\s+|called\s+)?[`'\"]?([a-z0-9][a-z0-9:._@-]*[a-z0-9])",
    re.I,
)
#: the name before the kind ("the system:masters group", "the `ops-oncall` group"): a name with a
#: colon, dash, dot or @, or quoted, so that "no other user" names nobody
_SUBJECT_BEFORE_KIND = re.compile(
    r"(?:[`'\"]([a-z0-9][a-z0-9:._@-]*[a-z0-9])[`'\"]|\b([a-z0-9]+(?:[:._@-][a-z0-9]+)+))"
    r"\s+(group|user|service\s*account)\b",
    re.I,
)
#: "only X may be bound", "except the group Y": the sentence names who may hold the role
_ALLOWS = re.compile(r"\bonly\b|\bexcept\b|\bother\s+than\b|\bapart\s+from\b|\bbesides\b", re.I)


def allowed_subjects(text: str) -> tuple[tuple[str, str], ...]:
    """The subjects a sentence with exemption wording names as allowed holders ("only the group
    `platform-admins` may be bound to cluster-admin")."""
    found: list[tuple[str, str]] = []
    for sentence in re.split(r"(?<=[.;!?])\s+", text):
        if _ALLOWS.search(sentence):
            named = [(m.start(), m.group(1), m.group(2)) for m in _SUBJECT.finditer(sentence)]
            named += [
                (m.start(), m.group(3), m.group(1) or m.group(2))
                for m in _SUBJECT_BEFORE_KIND.finditer(sentence)
            ]
            for _, kind_words, name in sorted(named):
                kind = _SUBJECT_KINDS[re.sub(r"\s+", " ", kind_words.lower())]
                found.append((kind, name))
    return tuple(dict.fromkeys(found))


def _binding(text: str) -> BindingCheck:
    """Requirements about cluster-admin mention system:masters in passing and vice versa (its
    default binding): the one named first is the subject, unless the text names system:masters
    as an allowed holder of cluster-admin."""
    allowed = allowed_subjects(text)
    masters = text.find("system:masters")
    admin = text.find("cluster-admin")
    if ("Group", "system:masters") in allowed and admin >= 0:
        return BindingCheck(
            concept="cluster-admin-binding", role_ref="cluster-admin", allowed_subjects=allowed
        )
    if masters >= 0 and (admin < 0 or masters < admin):
        return BindingCheck(
            concept="system-masters-binding", subject_kind="Group", subject_name="system:masters"
        )
    return BindingCheck(
        concept="cluster-admin-binding", role_ref="cluster-admin", allowed_subjects=allowed
    )


def _default_account_unused(text: str) -> tuple[object, ...]:
    """CIS 5.1.5 read as "not actively used": no pod runs as ``default`` (named or implied) and
    no binding grants it anything; its token setting is another reading (automount)."""
    return (
        ServiceAccountNameCheck(concept="default-service-account-unused"),
        BindingCheck(
            concept="default-service-account-bound", subject_kind="ServiceAccount",
            subject_name="default",
        ),
    )  # fmt: skip


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "default-service-account-unused",
        (
            words(r"\bdefault['\"`]?\s+service\s*accounts?\b"),
            words(r"\b(actively\s+)?used\b", r"\brun\s+as\s+(it|the)\b", r"\bgrant\w*\s+it\b"),
        ),
        _default_account_unused,
        none_of=words(r"automount", r"\btokens?\b", r"\bcredentials?\b"),
    ),
    Concept(
        "binding",
        (
            words(r"system:masters", r"cluster-admin"),
            words(r"\bbind", r"\bbound\b", r"\bhold", r"\bgrant", r"\broleRef\b"),
        ),
        _binding,
    ),
    Concept(
        "default-service-account",
        (
            words(r"\bdefault\s+service\s*accounts?\b"),
            words(r"automount", r"\bmount", r"\btoken", r"\bpods?\b", r"\bworkloads?\b"),
        ),
        _automount,
        none_of=words(r"\bserviceaccounts/token\b", r"\bmint"),
    ),
    Concept(
        "service-account-token-automount",
        (
            words(
                r"automountServiceAccountToken",
                r"\bauto-?mount\w*\b.{0,40}\btokens?\b",
                r"\bautomatic(ally)?\s+mount\w*\b.{0,40}\btokens?\b",
                r"\bmount\w*\b.{0,30}\bservice\s*account\s+tokens?\b",
                r"\b(get|receive|mount|carry|have)s?\s+(a\s+|the\s+|any\s+)?"
                r"(service\s*account\s+|API\s+)?(credentials?|tokens?)\b",
            ),
        ),
        _automount,
        none_of=words(r"\bserviceaccounts/token\b", r"\bmint", r"\bcreat\w+\s+.{0,30}tokens?"),
    ),
    Concept(
        "node-proxy",
        (words(r"nodes/proxy", r"\bnode\s+proxy\b", r"\bkubelet('s)?\s+API\b"),),
        lambda text: RbacRuleCheck(concept="node-proxy", verbs=("*",), resources=("nodes/proxy",)),
    ),
    Concept(
        "service-account-token-creation",
        (
            words(r"serviceaccounts/token", r"\b(service\s*account\s+)?tokens?\b"),
            words(r"\bcreat", r"\bmint", r"\bissu", r"\brequest"),
            ROLE_WORDS,
        ),
        lambda text: RbacRuleCheck(
            concept="service-account-token-creation",
            verbs=("create",),
            resources=("serviceaccounts/token",),
        ),
    ),
    Concept(
        "csr-approval",
        (
            words(
                r"certificatesigningrequests/approval",
                r"\bapprov\w*\b.{0,40}\b(certificate\s+signing\s+requests?|CSRs?)\b",
                r"\b(certificate\s+signing\s+requests?|CSRs?)\b.{0,40}\bapprov",
            ),
            ROLE_WORDS,
        ),
        lambda text: RbacRuleCheck(
            concept="csr-approval",
            verbs=("update", "patch"),
            resources=("certificatesigningrequests/approval",),
        ),
    ),
    Concept(
        "webhook-configurations",
        (
            words(
                r"webhookconfigurations",
                r"\b(admission\s+)?webhooks?\b",
            ),
            ROLE_WORDS,
        ),
        lambda text: RbacRuleCheck(
            concept="webhook-configurations", verbs=WRITE_VERBS, resources=WEBHOOK_RESOURCES
        ),
    ),
    Concept(
        "bind-escalate-impersonate",
        (words(r"\bimpersonat", r"\bescalate\b", r"\bbind\b.{0,40}\bverbs?\b"), ROLE_WORDS),
        lambda text: RbacRuleCheck(
            concept="bind-escalate-impersonate",
            verbs=("bind", "escalate", "impersonate"),
            resources=IDENTITY_RESOURCES,
        ),
    ),
    Concept(
        "persistent-volume-creation",
        (words(r"\bpersistent\s*volumes?\b", r"persistentvolumes"), words(r"\bcreat", r"\bmake")),
        lambda text: RbacRuleCheck(
            concept="persistent-volume-creation",
            verbs=("create",),
            resources=("persistentvolumes",),
        ),
    ),
    Concept(
        # `kubectl exec` is a create (get for old clients' upgrade requests) on the pods/exec
        # subresource: the API's name for starting a new process in a running container.
        # attach only joins the container's main process, so it is not this control.
        "pod-exec",
        (
            words(
                r"pods/exec",
                r"\bexec\b",
                r"\b(open\w*|start\w*|get\w*)\s+(a\s+|an\s+)?(interactive\s+)?shells?\b",
                r"\b(run|running|execut\w+)\s+(a\s+|arbitrary\s+|any\s+)?commands?\b.{0,40}"
                r"\b(inside|in|into|within)\b.{0,30}\b(containers?|pods?)\b",
            ),
            ROLE_WORDS,
        ),
        lambda text: RbacRuleCheck(
            concept="pod-exec", verbs=("create", "get"), resources=("pods/exec",)
        ),
        # a text that sets pods/exec apart from pod creation ("subresources such as pods/exec
        # are not pod creation") is about creating pods, not about exec
        none_of=words(
            r"\bnodes/proxy\b", r"\bkubelet\b", r"\bnot\s+(count\s+as\s+)?pod\s+creation\b"
        ),
    ),
    Concept(
        "pod-creation",
        (
            words(r"\bcreat\w*\b.{0,30}\b(pods?|workloads?)\b", r"\bpod\s+creation\b", r"\blaunch"),
            ROLE_WORDS,
        ),
        lambda text: RbacRuleCheck(
            concept="pod-creation", verbs=("create",), resources=_pod_creators(text)
        ),
    ),
    Concept(
        "secrets-read",
        (
            words(r"\bsecrets?\b"),
            words(r"\bread", r"\bget\b", r"\blist\b", r"\bwatch\b", r"\bview", r"\baccess"),
            ROLE_WORDS,
        ),
        lambda text: RbacRuleCheck(
            concept="secrets-read", verbs=READ_VERBS, resources=("secrets",)
        ),
    ),
    Concept(
        "rbac-wildcards",
        (words(r"\bwild\s*-?cards?\b", r'"\*"', r"\bexplicit"), ROLE_WORDS),
        lambda text: RbacRuleCheck(concept="rbac-wildcards", any_wildcard=True),
        none_of=(*_NAMES_VERBS, *_WILDCARD_AS_MEANS),
    ),
)
