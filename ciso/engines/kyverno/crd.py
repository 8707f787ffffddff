"""Kyverno's published CRD OpenAPI schema for ClusterPolicy and Policy, cut down to the parts a
policy author writes: types, enums, required fields and limits.

Follows Kyverno v1.19.0 (``config/crds/kyverno/kyverno.io_clusterpolicies.yaml`` and
``kyverno.io_policies.yaml``, whose ``spec`` schemas are the same), versions ``v1`` (storage) and
``v2beta1``. Extracted by hand from that file and checked path by path against it; the parts a
policy author rarely writes (``verifyImages`` internals, ``validate.cel``/``manifests``,
``webhookConfiguration`` match conditions, ``mutate.targets``) are kept as ``opaque`` objects
whose insides are not checked, so nothing here rejects what the real schema accepts.

Where the CRD marks a field ``x-kubernetes-preserve-unknown-fields`` (patterns, overlays,
generated data, condition keys and values, v1's rule-level conditions) the field is ``ANY``:
the API server takes any JSON there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

FieldType = Literal["object", "array", "string", "boolean", "integer", "any", "conditions"]


@dataclass(frozen=True)
class Field:
    """One schema node. ``conditions`` is v1's untyped condition block (a list of conditions or
    any/all): the CRD takes any JSON there and Kyverno's policy validation webhook checks it."""

    type: FieldType
    properties: Mapping[str, Field] = field(default_factory=lambda: MappingProxyType({}))
    required: tuple[str, ...] = ()
    items: Field | None = None
    #: an object whose keys are free (``additionalProperties``) with values of this schema
    values: Field | None = None
    enum: tuple[str, ...] = ()
    max_length: int | None = None
    #: an object whose inside this module does not model: unknown keys are not reported
    opaque: bool = False


STRING = Field("string")
BOOLEAN = Field("boolean")
INTEGER = Field("integer")
ANY = Field("any")  # x-kubernetes-preserve-unknown-fields
RAW_CONDITIONS = Field("conditions")
STRINGS = Field("array", items=STRING)
STRING_MAP = Field("object", values=STRING)
OPAQUE = Field("object", opaque=True)


def obj(*required: str, **properties: Field) -> Field:
    return Field("object", MappingProxyType(properties), tuple(required))


def array(item: Field) -> Field:
    return Field("array", items=item)


def enum(*values: str) -> Field:
    return Field("string", enum=values)


# -- enums, as the CRD spells them ------------------------------------------------------------

#: ``ConditionOperator`` (kubebuilder enum on v1's typed conditions): the canonical spellings.
CONDITION_OPERATORS_V1 = (
    "Equals",
    "NotEquals",
    "In",
    "AnyIn",
    "AllIn",
    "NotIn",
    "AnyNotIn",
    "AllNotIn",
    "GreaterThanOrEquals",
    "GreaterThan",
    "LessThanOrEquals",
    "LessThan",
    "DurationGreaterThanOrEquals",
    "DurationGreaterThan",
    "DurationLessThanOrEquals",
    "DurationLessThan",
)
#: v2beta1 dropped the deprecated ``In`` and ``NotIn``.
CONDITION_OPERATORS_V2BETA1 = tuple(o for o in CONDITION_OPERATORS_V1 if o not in ("In", "NotIn"))
VALIDATION_FAILURE_ACTIONS = ("audit", "enforce", "Audit", "Enforce")  # spec-level, legacy case
FAILURE_ACTIONS = ("Audit", "Enforce")  # rule-level validate.failureAction
FAILURE_POLICIES = ("Ignore", "Fail")
APPLY_RULES = ("All", "One")
ADMISSION_OPERATIONS = ("CREATE", "CONNECT", "UPDATE", "DELETE")
API_CALL_METHODS = ("GET", "POST")
REGISTRY_PROVIDERS = ("default", "amazon", "azure", "google", "github")
FOREACH_ORDERS = ("Ascending", "Descending")
POD_SECURITY_LEVELS = ("privileged", "baseline", "restricted")
POD_SECURITY_VERSIONS = (
    *(f"v1.{minor}" for minor in range(19, 33)),
    "latest",
)
POD_SECURITY_CONTROLS = (
    "HostProcess",
    "Host Namespaces",
    "Privileged Containers",
    "Capabilities",
    "HostPath Volumes",
    "Host Ports",
    "AppArmor",
    "SELinux",
    "/proc Mount Type",
    "Seccomp",
    "Sysctls",
    "Volume Types",
    "Privilege Escalation",
    "Running as Non-root",
    "Running as Non-root user",
)
RULE_NAME_MAX_LENGTH = 63

# -- shared pieces ------------------------------------------------------------------------------

LABEL_SELECTOR = obj(
    matchLabels=STRING_MAP,
    matchExpressions=array(obj("key", "operator", key=STRING, operator=STRING, values=STRINGS)),
)
RESOURCE_DESCRIPTION = obj(
    kinds=STRINGS,
    name=STRING,
    names=STRINGS,
    namespaces=STRINGS,
    annotations=STRING_MAP,
    selector=LABEL_SELECTOR,
    namespaceSelector=LABEL_SELECTOR,
    operations=array(enum(*ADMISSION_OPERATIONS)),
)
SUBJECT = obj("kind", "name", kind=STRING, name=STRING, namespace=STRING, apiGroup=STRING)
RESOURCE_FILTER = obj(
    resources=RESOURCE_DESCRIPTION, subjects=array(SUBJECT), roles=STRINGS, clusterRoles=STRINGS
)


def match_block(version: str) -> Field:
    """``match``/``exclude``: v1 also takes one filter's fields at the top (the legacy form)."""
    filters = array(RESOURCE_FILTER)
    if version == "v2beta1":
        return obj(any=filters, all=filters)
    return obj(any=filters, all=filters, **dict(RESOURCE_FILTER.properties))


def typed_conditions(operators: tuple[str, ...]) -> Field:
    """``AnyAllConditions`` as the CRD types it: the operator is an enum."""
    condition = obj(key=ANY, operator=enum(*operators), value=ANY, message=STRING)
    return obj(any=array(condition), all=array(condition))


_KEY_VALUE = obj("key", "value", key=STRING, value=ANY)
CONTEXT_ENTRY = obj(
    "name",
    name=STRING,
    variable=obj(value=ANY, default=ANY, jmesPath=STRING),
    configMap=obj("name", name=STRING, namespace=STRING),
    apiCall=obj(
        urlPath=STRING,
        method=enum(*API_CALL_METHODS),
        data=array(_KEY_VALUE),
        service=obj(
            "url",
            url=STRING,
            caBundle=STRING,
            headers=array(obj("key", "value", key=STRING, value=STRING)),
        ),
        jmesPath=STRING,
        default=ANY,
    ),
    imageRegistry=obj(
        "reference",
        reference=STRING,
        jmesPath=STRING,
        imageRegistryCredentials=obj(
            allowInsecureRegistry=BOOLEAN,
            providers=array(enum(*REGISTRY_PROVIDERS)),
            secrets=STRINGS,
        ),
    ),
    globalReference=obj("name", name=STRING, jmesPath=STRING),
)
CONTEXT = array(CONTEXT_ENTRY)
FAILURE_ACTION_OVERRIDE = obj(
    action=enum(*VALIDATION_FAILURE_ACTIONS), namespaces=STRINGS, namespaceSelector=LABEL_SELECTOR
)
POD_SECURITY = obj(
    level=enum(*POD_SECURITY_LEVELS),
    version=enum(*POD_SECURITY_VERSIONS),
    exclude=array(
        obj(
            "controlName",
            controlName=enum(*POD_SECURITY_CONTROLS),
            images=STRINGS,
            restrictedField=STRING,
            values=STRINGS,
        )
    ),
)


def _conditions(version: str) -> Field:
    """Rule-level ``preconditions`` and ``deny.conditions``: untyped in v1, typed in v2beta1."""
    if version == "v2beta1":
        return typed_conditions(CONDITION_OPERATORS_V2BETA1)
    return RAW_CONDITIONS


#: foreach entries are v1 types in both versions: typed preconditions with v1's operators
FOREACH_CONDITIONS = typed_conditions(CONDITION_OPERATORS_V1)


def validate_foreach() -> Field:
    """One entry of ``validate.foreach`` (the same type in v1 and v2beta1)."""
    return obj(
        list=STRING,
        context=CONTEXT,
        preconditions=FOREACH_CONDITIONS,
        elementScope=BOOLEAN,
        pattern=ANY,
        anyPattern=ANY,
        deny=obj(conditions=RAW_CONDITIONS),
        foreach=ANY,  # nested foreach: preserved by the CRD
    )


def validate_block(version: str) -> Field:
    properties = dict(
        message=STRING,
        failureAction=enum(*FAILURE_ACTIONS),
        failureActionOverrides=array(FAILURE_ACTION_OVERRIDE),
        pattern=ANY,
        anyPattern=ANY,
        deny=obj(conditions=_conditions(version)),
        foreach=array(validate_foreach()),
        podSecurity=POD_SECURITY,
        cel=OPAQUE,
        manifests=OPAQUE,
    )
    properties["assert"] = ANY  # a Python keyword, so not a keyword argument
    if version != "v2beta1":
        properties["allowExistingViolations"] = BOOLEAN
    return Field("object", MappingProxyType(properties))


def mutate_block() -> Field:
    return obj(
        patchStrategicMerge=ANY,
        patchesJson6902=STRING,
        mutateExistingOnPolicyUpdate=BOOLEAN,
        targets=array(OPAQUE),
        foreach=array(
            obj(
                list=STRING,
                order=enum(*FOREACH_ORDERS),
                context=CONTEXT,
                preconditions=FOREACH_CONDITIONS,
                patchStrategicMerge=ANY,
                patchesJson6902=STRING,
                foreach=ANY,
            )
        ),
    )


def generate_block() -> Field:
    target = dict(apiVersion=STRING, kind=STRING, name=STRING, namespace=STRING, uid=STRING)
    sources = dict(
        data=ANY,
        clone=obj(name=STRING, namespace=STRING),
        cloneList=obj(kinds=STRINGS, namespace=STRING, selector=LABEL_SELECTOR),
    )
    return obj(
        **target,
        **sources,
        synchronize=BOOLEAN,
        orphanDownstreamOnPolicyDelete=BOOLEAN,
        generateExisting=BOOLEAN,
        foreach=array(
            obj(
                **target,
                **sources,
                list=STRING,
                context=CONTEXT,
                preconditions=FOREACH_CONDITIONS,
            )
        ),
    )


IMAGE_EXTRACTOR = obj("path", path=STRING, name=STRING, value=STRING, key=STRING, jmesPath=STRING)


def rule(version: str) -> Field:
    return obj(
        "match",
        "name",
        name=Field("string", max_length=RULE_NAME_MAX_LENGTH),
        match=match_block(version),
        exclude=match_block(version),
        context=CONTEXT,
        preconditions=_conditions(version),
        celPreconditions=array(obj("expression", "name", expression=STRING, name=STRING)),
        validate=validate_block(version),
        mutate=mutate_block(),
        generate=generate_block(),
        verifyImages=array(OPAQUE),
        imageExtractors=Field("object", values=array(IMAGE_EXTRACTOR)),
        reportProperties=STRING_MAP,
        skipBackgroundRequests=BOOLEAN,
    )


def policy_spec(version: str) -> Field:
    return obj(
        rules=array(rule(version)),
        admission=BOOLEAN,
        applyRules=enum(*APPLY_RULES),
        background=BOOLEAN,
        emitWarning=BOOLEAN,
        failurePolicy=enum(*FAILURE_POLICIES),
        generateExisting=BOOLEAN,
        generateExistingOnPolicyUpdate=BOOLEAN,
        mutateExistingOnPolicyUpdate=BOOLEAN,
        schemaValidation=BOOLEAN,
        useServerSideApply=BOOLEAN,
        validationFailureAction=enum(*VALIDATION_FAILURE_ACTIONS),
        validationFailureActionOverrides=array(FAILURE_ACTION_OVERRIDE),
        webhookConfiguration=Field(
            "object",
            MappingProxyType(
                {
                    "failurePolicy": enum(*FAILURE_POLICIES),
                    "timeoutSeconds": INTEGER,
                    "matchConditions": array(
                        obj("expression", "name", expression=STRING, name=STRING)
                    ),
                }
            ),
        ),
        webhookTimeoutSeconds=INTEGER,
    )


def policy(version: str) -> Field:
    """The whole object; ``metadata`` is the API server's own business (ObjectMeta)."""
    return obj(
        "spec",
        apiVersion=STRING,
        kind=STRING,
        metadata=OPAQUE,
        spec=policy_spec(version),
        status=OPAQUE,
    )


#: The schema of a ClusterPolicy/Policy by apiVersion version.
POLICY = MappingProxyType({version: policy(version) for version in ("v1", "v2beta1")})
