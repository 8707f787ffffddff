"""The ``kyverno test`` runner: kyverno-test.yaml files, expectations per (policy, rule, resource).

Counting (per resource-level expectation): ``passed`` when the actual result equals the expected
one; ``excluded`` when the engine produced no rule response for that policy, rule and resource while
pass or fail was expected (Kyverno's runner counts these as passes; we keep them apart so they
cannot hide a matching bug); ``failed`` otherwise, and when the entry names a resource the test does
not declare (``resource not found``, as the Kyverno CLI reports it), and when the resource after
mutation differs from the result's patched manifest (compared before the status, as the CLI
does); ``skipped`` for expectations on policy kinds outside this engine (``OUT_OF_SCOPE_KINDS``),
on JSON payloads a policy kind does not evaluate, and for a patched-resource check whose file lacks
the resource by apiVersion, kind, namespace and name (the Kyverno CLI drops it unless
``failOnMissingResources``); ``errors`` when the engine returned an error (an unsupported feature
among them), except where ``error`` was expected.

The verdict (:meth:`TestReport.verdict`) is the one ``itbench kyverno test`` exits with and
``itbench lint --run-tests`` (KYV008) reports per file: failures and errors fail; so does having
nothing to evaluate (no test, or every expectation skipped) unless empty runs are allowed; excluded
expectations only warn, unless strict.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from ciso.engines.kyverno import namespaces
from ciso.engines.kyverno.cel import dpol as cel_dpol
from ciso.engines.kyverno.cel import ivpol as cel_ivpol
from ciso.engines.kyverno.cel import vpol as cel_vpol
from ciso.engines.kyverno.engine import (
    CEL_POLICY_KINDS,
    ERROR,
    Context,
    RuleResult,
    apply,
    policy_id,
)
from ciso.engines.kyverno.generation import without_generate_labels
from ciso.engines.kyverno.matching import Facts, UserInfo
from ciso.engines.kyverno.mocks import api_responses, global_context_entries
from ciso.engines.kyverno.mutation.compare import same_resource
from ciso.engines.kyverno.reports import unscored
from ciso.engines.kyverno.scope import as_the_cli_reads_it, is_cluster_scoped
from ciso.engines.kyverno.testfile import describe, shape_problems
from itbench.cluster.manifests import MAX_DEPTH, depth_ok
from itbench.errors import InputError, parse_problem
from itbench.yamlsafe import load_all

#: expectations on policy kinds this engine does not evaluate (none at present): skipped
OUT_OF_SCOPE_FLAGS: tuple[str, ...] = ()
#: the policy kinds ``kyverno test`` also runs on a Test's ``jsonPayloads`` (and JSON-mode
#: ValidatingPolicies)
PAYLOAD_KINDS = cel_dpol.KINDS + cel_ivpol.KINDS
OUT_OF_SCOPE_KINDS: tuple[str, ...] = ()


@dataclass(frozen=True)
class Expectation:
    policy: str
    rule: str
    resource: str
    kind: str
    expected: str
    actual: str | None
    outcome: str  # passed, failed, excluded, skipped, errors
    reason: str

    @property
    def ok(self) -> bool:
        return self.outcome == "passed"


#: The outcomes that count in the agreement: everything the engine actually evaluated.
EVALUATED = ("passed", "failed", "excluded", "errors")


@dataclass
class TestFileResult:
    file: str
    expectations: list[Expectation] = field(default_factory=list)
    error: str | None = None


def find_test_files(paths: Iterable[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            found += sorted(p for p in path.rglob("kyverno-test.yaml") if p.is_file())
        else:
            raise InputError(f"{path}: no such file or directory")
    return found


def _load_yaml_documents(path: Path) -> list[Any]:
    try:
        documents = [d for d in load_all(path.read_text(encoding="utf-8")) if d is not None]
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML ({parse_problem(exc)})") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read ({getattr(exc, 'strerror', None) or exc})") from exc
    for index, document in enumerate(documents):
        if not depth_ok(document):
            raise InputError(f"{path}: document {index}: nested more than {MAX_DEPTH} levels deep")
    return documents


def _user(path: Path | None) -> UserInfo:
    """A test's userinfo file (kind UserInfo: roles, clusterRoles, userInfo.username/groups)."""
    if path is None:
        return UserInfo()
    docs = _load_yaml_documents(path)
    data = docs[0] if docs and isinstance(docs[0], dict) else {}
    raw_user = data.get("userInfo")
    user = raw_user if isinstance(raw_user, dict) else {}
    return UserInfo(
        username=str(user.get("username") or ""),
        groups=tuple(str(g) for g in user.get("groups") or []),
        roles=tuple(str(r) for r in data.get("roles") or []),
        cluster_roles=tuple(str(r) for r in data.get("clusterRoles") or []),
    )


def _values(path: Path | None, inline: Any = None) -> tuple[Context, dict[str, Any]]:
    """The test's values: a values file, or the Test's own ``values`` block."""
    ctx = Context()
    if path is None and not isinstance(inline, dict):
        return ctx, {}
    if path is not None:
        docs = _load_yaml_documents(path)
        data = docs[0] if docs and isinstance(docs[0], dict) else {}
    else:
        data = inline
    ctx.global_values = dict(data.get("globalValues") or {})
    for policy in data.get("policies") or []:
        for rule in policy.get("rules") or []:
            ctx.rule_values[(policy.get("name", ""), rule.get("name", ""))] = dict(
                rule.get("values") or {}
            )
        for resource in policy.get("resources") or []:
            ctx.resource_values[(policy.get("name", ""), resource.get("name", ""))] = dict(
                resource.get("values") or {}
            )
    namespace_labels = namespaces.from_values(data)
    ctx.facts = Facts(namespace_labels=namespace_labels, subresources=_subresources(data))
    return ctx, data


def _subresources(data: dict[str, Any]) -> dict[tuple[str, str], tuple[str, str, str]]:
    """A values file's ``subresources``: (apiVersion, kind) of an object standing for a
    subresource request (``PodExecOptions``, ``Scale``) -> (its parent's apiVersion and kind,
    the subresource's name: ``exec``, ``scale``)."""

    def api_version(resource: dict[str, Any]) -> str:
        group, version = str(resource.get("group") or ""), str(resource.get("version") or "")
        return f"{group}/{version}" if group else version

    found = {}
    for entry in data.get("subresources") or []:
        sub = entry.get("subresource") if isinstance(entry, dict) else None
        parent = entry.get("parentResource") if isinstance(entry, dict) else None
        if not isinstance(sub, dict) or not isinstance(parent, dict):
            continue
        name = str(sub.get("name") or "").partition("/")[2]
        if sub.get("kind") and parent.get("kind") and name:
            found[(api_version(sub), str(sub["kind"]))] = (
                api_version(parent),
                str(parent["kind"]),
                name,
            )
    return found


def _cel_context(path: Path) -> dict[str, Any]:
    """A Kyverno CLI ``Context`` file: its ``spec`` (``resources``, ``images``)."""
    docs = _load_yaml_documents(path)
    data = docs[0] if docs and isinstance(docs[0], dict) else {}
    spec = data.get("spec")
    if not isinstance(spec, dict):
        raise InputError(f"{path}: a Context needs a 'spec' map (resources, images)")
    for index, resource in enumerate(spec.get("resources") or []):
        if not isinstance(resource, dict) or not resource.get("kind"):
            raise InputError(f"{path}: spec.resources[{index}] has no 'kind'")
    for index, image in enumerate(spec.get("images") or []):
        if not isinstance(image, dict) or not image.get("image"):
            raise InputError(f"{path}: spec.images[{index}] has no 'image'")
    return spec


def _cluster_resources(paths: list[Path]) -> list[dict[str, Any]]:
    """The objects of a Test's ``clusterResources`` files (``ClusterResource`` documents): what
    the Kyverno CLI loads into its fake cluster, so that CEL's ``resource.get``/``list`` find
    them (their CRDs only teach its REST mapper plural names, which we derive from the kind)."""
    objects: list[dict[str, Any]] = []
    for path in paths:
        for doc in _load_yaml_documents(path):
            spec = doc.get("spec") if isinstance(doc, dict) else None
            if not isinstance(spec, dict):
                raise InputError(f"{path}: a ClusterResource needs a 'spec' map (resources)")
            for index, resource in enumerate(spec.get("resources") or []):
                if not isinstance(resource, dict) or not resource.get("kind"):
                    raise InputError(f"{path}: spec.resources[{index}] has no 'kind'")
                objects.append(resource)
    return objects


def _json_payloads(base: Path, test: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """A Test's ``jsonPayloads`` (and ``jsonPayload``): (file name as the test names it, its
    top-level object), as the Kyverno CLI loads them for policies that evaluate JSON."""
    rels = list(test.get("jsonPayloads") or [])
    if test.get("jsonPayload") and not rels:
        rels.append(test["jsonPayload"])
    # named as the CLI names them: "./payload.json" is "payload.json", each once
    rels = list(dict.fromkeys(posixpath.normpath(str(r)) for r in rels if str(r or "").strip()))
    payloads = []
    for rel in rels:
        docs = _load_yaml_documents(base / str(rel))
        if len(docs) != 1 or not isinstance(docs[0], dict) or not docs[0]:
            raise InputError(f"{base / str(rel)}: a JSON payload must be one non-empty object")
        payloads.append((str(rel), docs[0]))
    return payloads


def _evaluates_payloads(policy: dict[str, Any]) -> bool:
    """Whether the CLI runs ``policy`` on a Test's JSON payloads: DeletingPolicy and
    ImageValidatingPolicy kinds, and ValidatingPolicies in JSON mode."""
    kind = policy.get("kind")
    return kind in PAYLOAD_KINDS or (kind in cel_vpol.KINDS and cel_vpol.json_mode(policy))


def _payload_results(
    policies: list[dict[str, Any]],
    payloads: list[tuple[str, dict[str, Any]]],
    ctx: Context,
    sources: dict[str, str],
) -> list[RuleResult]:
    """The responses of the policies that evaluate JSON payloads, each named after its payload
    (a payload has no kind or name; the CLI reports it by file)."""
    chosen = [p for p in policies if _evaluates_payloads(p)]
    if not chosen:
        return []
    return [
        replace(result, name=name)
        for name, payload in payloads
        for result in apply(chosen, [payload], ctx, sources)
    ]


def _resource_key(name: str) -> tuple[str | None, str]:
    if "/" in name:
        ns, _, bare = name.rpartition("/")
        return ns, bare
    return None, name


def _matching(
    results: list[RuleResult], policy: str, rule: str, kind: str, resource: str
) -> tuple[list[RuleResult], bool]:
    """(rule responses for the expectation, whether the policy was applied to that resource)."""
    ns, name = _resource_key(resource)
    applied = [
        r
        for r in results
        if r.policy == policy
        and (r.kind == kind or not kind)  # an entry naming no kind is about any (as _declared)
        and r.name == name
        and (ns is None or r.namespace == ns)
    ]
    if not rule:
        return applied, bool(applied)  # no rule named: every rule of the policy counts
    rules = [r for r in applied if r.rule in (rule, f"autogen-{rule}", f"autogen-cronjob-{rule}")]
    return rules, bool(applied)


def _declared(resources: list[dict[str, Any]], kind: str, resource: str) -> bool:
    """Whether the test's resources hold ``resource`` (``name`` or ``namespace/name``) of
    ``kind`` (any kind when the entry names none)."""
    ns, name = _resource_key(resource)
    for candidate in resources:
        meta = candidate.get("metadata") or {}
        if (
            meta.get("name") == name
            and (not kind or candidate.get("kind") == kind)
            and (ns is None or meta.get("namespace") == ns)
        ):
            return True
    return False


def _judge(
    results: list[RuleResult],
    known_policies: set[str],
    policy: str,
    rule: str,
    kind: str,
    resource: str,
    expected: str,
    warned: frozenset[str] | set[str] = frozenset(),
) -> tuple[str | None, str, str]:
    """(actual, outcome, reason) of one resource-level expectation; ``warned``: the policies
    whose failures are warnings."""
    matched, applied = _matching(results, policy, rule, kind, resource)
    if not matched:
        if (
            not applied
            and policy not in known_policies
            and policy.rpartition("/")[2] not in known_policies
        ):
            return None, "failed", "policy not found"
        if expected == "skip":
            return None, "passed", "no rule response (skip expected)"
        return None, "excluded", "no rule response for this resource"
    errors = [m for m in matched if m.status == ERROR]
    if errors:
        # a test may expect the policy to fail with an error (as the CLI compares statuses);
        # an error saying the engine does not support something is never that agreement
        if expected == "error" and not any(_unsupported(m.message) for m in errors):
            return ERROR, "passed", errors[0].message
        return ERROR, "errors", errors[0].message
    status = "fail" if any(m.status == "fail" for m in matched) else matched[0].status
    if status == "fail" and policy in warned:
        status = "warn"
    if status == expected:
        return status, "passed", "Ok"
    return status, "failed", f"Want {expected}, got {status}: {matched[0].message[:300]}"


def _unsupported(message: str) -> bool:
    """An error result saying the engine does not evaluate something (see engine._locate)."""
    return message.startswith("unsupported")


def _answered(results: list[RuleResult], policy: str) -> list[str]:
    """The resources (``namespace/name``) that got a response from ``policy``."""
    name = policy.rpartition("/")[2]
    return sorted(
        {
            f"{r.namespace}/{r.name}" if r.namespace else r.name
            for r in results
            if r.policy.rpartition("/")[2] == name
        }
    )


def _expectation_names(entry: dict[str, Any]) -> list[str]:
    """The resources one result entry is about: ``resources`` (names, possibly ``ns/name``),
    the older ``resource``, or ``resourceSpecs`` (name and namespace)."""
    names = list(entry.get("resources") or ([entry["resource"]] if entry.get("resource") else []))
    for spec in entry.get("resourceSpecs") or []:
        if isinstance(spec, dict) and spec.get("name"):
            names.append(
                f"{spec['namespace']}/{spec['name']}" if spec.get("namespace") else spec["name"]
            )
    return names


def _judge_generated(
    paths: list[Path],
    results: list[RuleResult],
    policy: str,
    rule: str,
    kind: str,
    resource: str,
    verdict: tuple[str | None, str, str],
) -> tuple[str | None, str, str]:
    """The status matched: each expected object must equal one the rule generated."""
    matched, _ = _matching(results, policy, rule, kind, resource)
    made = [without_generate_labels(g) for r in matched for g in (r.generated or ())]
    for path in paths:
        try:
            expected = [d for d in _load_yaml_documents(path) if isinstance(d, dict)]
        except InputError as exc:
            return verdict[0], "errors", str(exc)
        if not any(same_resource(without_generate_labels(e), g) for e in expected for g in made):
            return verdict[0], "failed", f"no generated object equals {path.name}"
    return verdict


def _judge_patched(
    path: Path,
    results: list[RuleResult],
    resources: list[dict[str, Any]],
    policy: str,
    kind: str,
    resource: str,
    verdict: tuple[str | None, str, str],
    fail_on_missing: bool = False,
) -> tuple[str | None, str, str]:
    """As the CLI checks a result with a patched manifest, before its status: the resource after
    the policy's mutate rules must equal the manifest's object of the same apiVersion, kind,
    namespace and name; a manifest without that object skips the check (unless
    failOnMissingResources); otherwise ``verdict`` (the status comparison) stands."""
    ns, name = _resource_key(resource)
    mutated = [
        r.patched
        for r in results
        if r.policy == policy
        and (r.kind == kind or not kind)
        and r.name == name
        and (ns is None or r.namespace == ns)
        and r.patched is not None
    ]
    original = next(
        (
            r
            for r in resources
            if (r.get("kind") == kind or not kind)
            and (r.get("metadata") or {}).get("name") == name
            and (ns is None or (r.get("metadata") or {}).get("namespace") == ns)
        ),
        None,
    )
    actual = mutated[-1] if mutated else original
    try:
        documents = _load_yaml_documents(path)
    except InputError as exc:
        return verdict[0], "errors", str(exc)
    candidates = [
        d
        for d in documents
        if isinstance(d, dict)
        and (d.get("kind") == kind or not kind)
        and (d.get("metadata") or {}).get("name") == name
        and (actual is None or _same_identity(d, actual))
    ]
    if not candidates and not fail_on_missing:
        # the Kyverno CLI drops such a check unless failOnMissingResources is set
        return None, "skipped", f"{path.name} holds no {kind or 'object'} {name} (not checked)"
    if not candidates or actual is None:
        return verdict[0], "failed", f"{path.name}: no {kind or 'object'} {name} to compare with"
    if any(same_resource(c, actual) for c in candidates):
        return verdict
    return verdict[0], "failed", f"patched resource differs from {path.name}"


def _same_identity(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    """The CLI finds a patched manifest's object by exact apiVersion, kind and namespace (the
    manifest read as resources are: a namespaced object without one is in "default")."""
    namespace = (expected.get("metadata") or {}).get("namespace") or (
        "" if is_cluster_scoped(expected) else "default"
    )
    return (
        expected.get("apiVersion") == actual.get("apiVersion")
        and expected.get("kind") == actual.get("kind")
        and namespace == ((actual.get("metadata") or {}).get("namespace") or "")
    )


def _read_resources(base: Path, files: Any, label: str, what: str) -> list[dict[str, Any]]:
    """The objects of a Test's resource files (a ``...List``'s items one by one), read as the
    CLI reads them."""
    resources: list[dict[str, Any]] = []
    for rel in files or []:
        for doc in _load_yaml_documents(base / rel):
            if (
                isinstance(doc, dict)
                and doc.get("kind", "").endswith("List")
                and isinstance(doc.get("items"), list)
            ):
                resources += doc["items"]
            elif isinstance(doc, dict):
                resources.append(doc)
    for i, resource in enumerate(resources):
        if not resource.get("kind"):
            raise InputError(f"{label}: {what} {i} has no 'kind'")
        as_the_cli_reads_it(resource)
    return resources


def run_test_file(path: Path) -> TestFileResult:
    """Every Test document of the file, each run on its own as the Kyverno CLI runs a file
    holding several; their expectations together, their errors each naming its document."""
    outcome = TestFileResult(str(path))
    try:
        docs = _load_yaml_documents(path) or [{}]
    except InputError as exc:
        outcome.error = str(exc)
        return outcome
    errors = []
    for index, test in enumerate(docs):
        label = str(path) if len(docs) == 1 else f"{path} (Test document {index + 1})"
        part = _run_test(path, test, label)
        outcome.expectations += part.expectations
        if part.error:
            errors.append(part.error)
    outcome.error = "; ".join(errors) or None
    return outcome


def _run_test(path: Path, test: Any, label: str) -> TestFileResult:
    """One Test document: read, run, compared; a problem reading or running it is the result's
    error, naming the file (and the document, in a file holding several)."""
    outcome = TestFileResult(str(path))
    try:
        loaded = _read_test(path, test, label)
        ran = _run(loaded)
    except InputError as exc:
        outcome.error = str(exc)
        return outcome
    outcome.expectations = _compare(loaded, ran)
    return outcome


# -- reading: the Test document and every file it names ------------------------------------------


@dataclass(frozen=True)
class _Expected:
    """One ``results`` entry of a Test: what it expects of which resources."""

    policy: str
    #: the rule as the entry names it ("" for any)
    rule: str
    kind: str
    result: str
    #: the admission operation the entry is checked under (None: the test's own)
    operation: str | None
    #: the resources it is about (empty: every one the policy answered for)
    names: tuple[str, ...]
    #: files of objects the rule must have generated
    generated: tuple[Path, ...]
    #: the file holding the resource as the policy must have patched it
    patched: Path | None
    fail_on_missing: bool
    #: the entry sets a flag of a feature outside this engine (``OUT_OF_SCOPE_FLAGS``)
    out_of_scope: bool


@dataclass(frozen=True)
class _TestInput:
    """A Test document read whole: policies, resources, the engine's context, JSON payloads and
    the expected results."""

    policies: tuple[dict[str, Any], ...]
    #: policy id -> the file it came from (rule errors name it)
    sources: dict[str, str]
    resources: tuple[dict[str, Any], ...]
    ctx: Context
    #: (name as the test gives it, the payload object)
    payloads: tuple[tuple[str, dict[str, Any]], ...]
    expected: tuple[_Expected, ...]


def _read_test(path: Path, test: Any, label: str) -> _TestInput:
    """Everything a Test document names, read; InputError naming the file (``label``) and the
    field or document at fault."""
    if not isinstance(test, dict):
        raise InputError(f"{label}: not a Test document")
    problems = shape_problems(test)
    if problems:  # the Kyverno CLI refuses the whole Test
        raise InputError(f"{label}: {'; '.join(describe(*p) for p in problems)}")
    base = path.parent
    policies: list[dict[str, Any]] = []
    sources: dict[str, str] = {}
    for rel in test.get("policies") or []:
        for doc in _load_yaml_documents(base / rel):
            if isinstance(doc, dict):
                policies.append(doc)
                sources.setdefault(policy_id(doc), str(base / rel))
    resources = _read_resources(base, test.get("resources"), label, "resource")
    ctx = _read_context(base, test, label, resources)
    return _TestInput(
        tuple(policies),
        sources,
        tuple(resources),
        ctx,
        tuple(_json_payloads(base, test)),
        tuple(_read_expected(base, entry) for entry in test.get("results") or []),
    )


def _read_expected(base: Path, entry: dict[str, Any]) -> _Expected:
    generated = [entry["generatedResource"]] if entry.get("generatedResource") else []
    generated += list(entry.get("generatedResources") or [])
    patched = entry.get("patchedResources") or entry.get("patchedResource")
    return _Expected(
        entry.get("policy", ""),
        entry.get("rule", ""),
        entry.get("kind", ""),
        entry.get("result", ""),
        entry.get("operation"),
        tuple(_expectation_names(entry)),
        tuple(base / g for g in generated),
        base / patched if patched else None,
        bool(entry.get("failOnMissingResources")),
        any(entry.get(flag) for flag in OUT_OF_SCOPE_FLAGS),
    )


def _read_context(
    base: Path, test: dict[str, Any], label: str, resources: list[dict[str, Any]]
) -> Context:
    """The engine's context of a Test: its values, user, cluster objects, mocks and
    PolicyExceptions."""
    variables = test.get("variables")
    ctx, values = _values(base / variables if variables else None, test.get("values"))
    user_file = test.get("userinfo")
    facts = replace(ctx.facts, user=_user(base / user_file if user_file else None))
    targets = _read_resources(base, test.get("targetResources"), label, "target resource")
    params = [
        doc
        for rel in test.get("paramResources") or []
        for doc in _load_yaml_documents(base / rel)
        if isinstance(doc, dict)
    ]
    clone_sources: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for result in test.get("results") or []:
        if isinstance(result, dict) and result.get("cloneSourceResource"):
            key = (str(result.get("policy") or ""), str(result.get("rule") or ""))
            clone_sources[key] = [
                d
                for d in _load_yaml_documents(base / str(result["cloneSourceResource"]))
                if isinstance(d, dict)
            ]
    api_calls = api_responses(test.get("apiCallResponses"), label)
    global_context = global_context_entries(
        test.get("globalContextEntries"), label, base, _load_yaml_documents
    )
    context_file = test.get("context")
    cel_context = _cel_context(base / context_file) if context_file else {}
    cluster = _cluster_resources([base / rel for rel in test.get("clusterResources") or []])
    api_objects = None
    if cluster:
        known = list(cel_context.get("resources") or ())
        cel_context = {**cel_context, "resources": known + cluster}
        # with clusterResources the CLI lets apiCall entries query its fake cluster
        api_objects = [*resources, *targets, *params, *cluster]
    if values.get("namespaces"):
        # the values file's Namespace objects: what namespaceObject is for CEL policies
        cel_context = {**cel_context, "namespaces": list(values["namespaces"])}
    policy_exceptions = [
        d
        for rel in test.get("exceptions") or []
        for d in _load_yaml_documents(base / rel)
        if isinstance(d, dict) and d.get("kind") == "PolicyException"
    ]
    config_maps = {
        (
            (r.get("metadata") or {}).get("namespace") or "default",
            (r.get("metadata") or {}).get("name", ""),
        ): r
        # the test's clusterResources are what the cluster holds, for classic configMap
        # context entries too (the Kyverno CLI loads them into its fake cluster)
        for r in [*resources, *cluster]
        if r.get("kind") == "ConfigMap"
    }
    return replace(
        ctx,
        facts=facts,
        objects=resources,
        targets=targets,
        params=params,
        clone_sources=clone_sources,
        api_responses=api_calls,
        global_context=global_context,
        cel_context=cel_context,
        api_objects=api_objects,
        exceptions=policy_exceptions,
        config_maps=config_maps,
    )


# -- running: the policies over the resources, once per admission operation ---------------------


@dataclass(frozen=True)
class _TestRun:
    """The engine's responses: per operation a result entry names (None: the test's own), and
    the responses of the policies that evaluate the JSON payloads."""

    by_operation: dict[str | None, tuple[RuleResult, ...]]
    payload_results: tuple[RuleResult, ...]


def _run(test: _TestInput) -> _TestRun:
    """Every policy on every resource, once per operation the expected results name (each
    operation is its own run); a malformed policy raises PolicyError (an InputError)."""
    policies, ctx = list(test.policies), test.ctx
    runs: dict[str | None, tuple[RuleResult, ...]] = {}
    for expected in test.expected:
        operation = expected.operation
        if operation not in runs:
            run_ctx = replace(ctx, operation=str(operation).upper()) if operation else ctx
            runs[operation] = tuple(apply(policies, list(test.resources), run_ctx, test.sources))
    payload_results = _payload_results(policies, list(test.payloads), ctx, test.sources)
    return _TestRun(runs, tuple(payload_results))


# -- comparing: each expectation against the responses -----------------------------------------


def _compare(test: _TestInput, ran: _TestRun) -> list[Expectation]:
    """One Expectation per (result entry, resource it is about)."""
    policies = test.policies
    payload_names = {name for name, _ in test.payloads}
    payload_policies = {
        name
        for p in policies
        if _evaluates_payloads(p)
        for name in (policy_id(p), (p.get("metadata") or {}).get("name", ""))
    }
    out_of_scope = {policy_id(p) for p in policies if p.get("kind") in OUT_OF_SCOPE_KINDS}
    known_policies = {policy_id(p) for p in policies}
    # an unscored policy's failures are warnings, as in reports and the CLI's comparison
    warned = {policy_id(p) for p in policies if unscored(p)}
    ruleless = {policy_id(p) for p in policies if p.get("kind") in CEL_POLICY_KINDS}
    declared = [*test.resources, *test.ctx.targets]
    expectations = []
    for expected in test.expected:
        results = list(ran.by_operation[expected.operation] + ran.payload_results)
        policy, kind = expected.policy, expected.kind
        # the CLI checks every response of a ruleless kind, whatever rule the entry names
        rule = "" if policy.rpartition("/")[2] in ruleless else expected.rule
        # an entry naming no resource is about every resource the policy answered for (the
        # payloads, when the test has some), as the CLI then checks every trigger
        names = expected.names or sorted(payload_names) or _answered(results, policy)
        for resource in names:
            verdict: tuple[str | None, str, str]
            if expected.out_of_scope or policy in out_of_scope:
                verdict = (None, "skipped", "policy kind outside this engine")
            elif resource in payload_names and policy not in payload_policies:
                verdict = (None, "skipped", "JSON payloads are not evaluated for this policy kind")
            elif not _declared(declared, kind, resource) and not (
                not kind and resource in payload_names
            ):
                verdict = (None, "failed", "resource not found")
            else:
                verdict = _judge_all(
                    expected, rule, resource, results, declared, known_policies, warned
                )
            expectations.append(
                Expectation(policy, rule, resource, kind, expected.result, *verdict)
            )
    return expectations


def _judge_all(
    expected: _Expected,
    rule: str,
    resource: str,
    results: list[RuleResult],
    declared: list[dict[str, Any]],
    known_policies: set[str],
    warned: set[str],
) -> tuple[str | None, str, str]:
    """A declared resource's expectation: the status, then (when it agrees) the generated
    objects, then the patched resource, as the CLI compares them."""
    policy, kind = expected.policy, expected.kind
    verdict = _judge(results, known_policies, policy, rule, kind, resource, expected.result, warned)
    if expected.generated and verdict[1] == "passed":
        verdict = _judge_generated(
            list(expected.generated), results, policy, rule, kind, resource, verdict
        )
    if expected.patched and verdict[1] in ("passed", "failed") and verdict[0] is not None:
        verdict = _judge_patched(
            expected.patched,
            results,
            declared,
            policy,
            kind,
            resource,
            verdict,
            expected.fail_on_missing,
        )
    return verdict


@dataclass(frozen=True)
class Verdict:
    """Whether a test run passes, the reasons it does not, and what it passes with a warning."""

    ok: bool
    problems: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


@dataclass
class TestReport:
    files: list[TestFileResult]

    def summary(self) -> dict[str, int]:
        counts = {"passed": 0, "failed": 0, "excluded": 0, "skipped": 0, "errors": 0}
        for f in self.files:
            if f.error:
                counts["errors"] += 1
            for e in f.expectations:
                counts[e.outcome] += 1
        return counts

    def evaluated(self) -> int:
        """Expectations the engine evaluated (skipped ones are not)."""
        counts = self.summary()
        return sum(counts[outcome] for outcome in EVALUATED)

    def agreement(self) -> float | None:
        """passed / evaluated; None when nothing was evaluated (there is nothing to agree on)."""
        evaluated = self.evaluated()
        return self.summary()["passed"] / evaluated if evaluated else None

    def verdict(self, strict: bool = False, allow_empty: bool = False) -> Verdict:
        counts = self.summary()
        problems: list[str] = []
        warnings: list[str] = []
        if counts["failed"]:
            problems.append(f"{counts['failed']} failed")
        if counts["errors"]:
            problems.append(f"{counts['errors']} error(s)")
        if not self.files:
            if not allow_empty:
                problems.append("no kyverno-test.yaml found: nothing evaluated")
        elif not self.evaluated() and not allow_empty:
            problems.append(
                f"nothing evaluated: {counts['skipped']} expectation(s) skipped (see each one's "
                "reason), none evaluated"
            )
        if counts["excluded"]:
            what = (
                f"{counts['excluded']} excluded expectation(s): no rule response where pass or "
                "fail was expected"
            )
            if strict:
                problems.append(f"{what} (--strict)")
            else:
                warnings.append(
                    f"{what} (Kyverno's CLI counts them as passes; --strict fails them)"
                )
        return Verdict(not problems, tuple(problems), tuple(warnings))


def run_tests(paths: Iterable[Path]) -> TestReport:
    return TestReport([run_test_file(p) for p in find_test_files(paths)])
