"""Kyverno's ``ImageValidatingPolicy`` (and ``NamespacedImageValidatingPolicy``), as the Kyverno
CLI evaluates one in ``kyverno test``/``apply``.

On a resource (``evaluation.mode: Kubernetes``, the default): the policy and its autogen
variants are matched by ``matchConstraints``; then ``matchConditions`` (any false: no response
at all; an error is an ``error`` unless ``failurePolicy: Ignore``), CEL PolicyExceptions naming
the policy (all their conditions true: ``skip``), ``variables``, and the images: the default
extractors of the resource type (``containers``, ``initContainers``, ``ephemeralContainers`` of a
Pod, of a workload's pod template, of a CronJob's job template) overridden or extended by
``spec.images``, each list kept to the references ``matchImageReferences`` select (``glob`` as
gobwas/glob, ``expression`` with ``ref``; none given selects all). ``verifyDigest`` (default on)
fails a selected image without a digest; ``validations`` run in order up to the first false one
(its ``messageExpression``, ``message`` or "CEL expression validation failed at index N"); a
non-bool is an ``error``. Passing them, ``validationConfigurations.required`` (default on) fails
a policy whose selected images no signature or attestation check verified. The response's rule is
named after the policy, its type is ``ImageVerify``.

On a JSON payload (``evaluation.mode: JSON``): ``object`` is the payload, its images come from
``spec.images`` only; no constraints, namespace or request.

Offline there is no registry: ``verifyImageSignatures``, ``verifyAttestationSignatures``,
``extractPayload`` and ``getImageData`` (``libraries.imageverify``) fail, and a validation that
reaches one gives an ``error`` result saying ``unsupported: image signature verification
offline``. So does ``required`` stay unprovable: no image is ever verified offline, and a policy
whose validations pass without verifying is failed, as the CLI fails it. The CLI also fetches
every selected image's descriptor from its registry before the validations; we do not, so an
image that does not exist is not an error here."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any

from ciso.engines.kyverno.cel import autogen, dpol, matching, policy_exceptions, vpol
from ciso.engines.kyverno.cel import bindings as cel_bindings
from ciso.engines.kyverno.cel.libraries.environment import using
from ciso.engines.kyverno.cel.libraries.imageverify import (
    UNSUPPORTED_IMAGE_DATA,
    UNSUPPORTED_VERIFICATION,
)
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.jmespath.images import image_info
from ciso.engines.kyverno.jmespath.strings import FunctionError
from ciso.engines.kyverno.model import Context, RuleOutcome, RuleStatus
from itbench import goregexp

KINDS = ("ImageValidatingPolicy", "NamespacedImageValidatingPolicy")
#: Kyverno names an image validating policy's response after the policy (engine.py does)
RULE_NAME = ""

_CATEGORIES = ("containers", "initContainers", "ephemeralContainers")
#: where the pod spec sits, by (group, plural resource), as Kyverno's default image extractors
_POD_SPEC_PATHS: dict[tuple[str, str], tuple[str, ...]] = {
    ("", "pods"): ("spec",),
    **{
        (group, plural): ("spec", "template", "spec")
        for group, plural in (
            ("batch", "jobs"),
            ("apps", "deployments"),
            ("apps", "statefulsets"),
            ("apps", "daemonsets"),
            ("apps", "replicasets"),
        )
    },
    ("batch", "cronjobs"): ("spec", "jobTemplate", "spec", "template", "spec"),
}


def is_json_mode(spec: Mapping[str, Any]) -> bool:
    return ((spec.get("evaluation") or {}).get("mode") or "Kubernetes") == "JSON"


@functools.lru_cache(maxsize=256)
def glob_pattern(glob: str) -> goregexp.Regexp:
    """A gobwas/glob pattern without separators as a regex: ``*`` and ``**`` any run of
    characters (``/`` included), ``?`` one, ``[abc]``/``[!abc]``/``[a-z]`` a class, ``{a,b}``
    alternatives, ``\\`` escapes the next character."""
    out: list[str] = []
    i, depth = 0, 0
    while i < len(glob):
        ch = glob[i]
        if ch == "\\" and i + 1 < len(glob):
            out.append(goregexp.quote_meta(glob[i + 1]))
            i += 2
            continue
        if ch == "*":
            out.append(".*")
        elif ch == "?":
            out.append(".")
        elif ch == "[":
            end = glob.find("]", i + 1)
            if end < 0:
                raise ValueError(f"unexpected end of input in glob {glob!r}")
            body = glob[i + 1 : end]
            negate = body.startswith("!")
            body = body[1:] if negate else body
            out.append(f"[{'^' if negate else ''}{goregexp.quote_meta(body)}]")
            i = end
        elif ch == "{":
            depth += 1
            out.append("(?:")
        elif ch == "}" and depth:
            depth -= 1
            out.append(")")
        elif ch == "," and depth:
            out.append("|")
        else:
            out.append(goregexp.quote_meta(ch))
        i += 1
    if depth:
        raise ValueError(f"unclosed '{{' in glob {glob!r}")
    # RE2: a policy's glob is matched in linear time (see itbench.goregexp)
    return goregexp.compile("(?s)" + "".join(out))


def image_selected(image: str, references: Any) -> bool:
    """Whether ``matchImageReferences`` select ``image`` (no references select every image)."""
    if not references:
        return True
    for index, reference in enumerate(references):
        where = ("spec", "matchImageReferences", index)
        if not isinstance(reference, dict):
            raise RuleError("must be a map with a glob or an expression").at(*where)
        if reference.get("glob"):
            try:
                if glob_pattern(str(reference["glob"])).fullmatch(image):
                    return True
            except ValueError as exc:
                raise RuleError(str(exc)).at(*where, "glob") from None
        elif reference.get("expression"):
            value = cel_bindings.run(
                str(reference["expression"]), {"ref": image}, (*where, "expression")
            )
            if not isinstance(value, bool):
                raise RuleError(f"expected a bool, got {value!r}").at(*where, "expression")
            if value:
                return True
        else:
            raise RuleError("either glob or expression must be set").at(*where)
    return False


def _default_images(resource: Mapping[str, Any]) -> dict[str, list[str]]:
    group, _, _ = str(resource.get("apiVersion", "")).rpartition("/")
    path = _POD_SPEC_PATHS.get((group, matching.plural_of(str(resource.get("kind", "")))))
    if path is None:
        return {}
    pod_spec: Any = resource
    for key in path:
        pod_spec = pod_spec.get(key) if isinstance(pod_spec, dict) else None
    if not isinstance(pod_spec, dict):
        raise RuleError(f"no such key: {'.'.join(path)}").at("images")
    return {
        category: [str(c.get("image")) for c in pod_spec.get(category) or [] if isinstance(c, dict)]
        for category in _CATEGORIES
    }


def extract_images(
    spec: Mapping[str, Any], resource: Mapping[str, Any] | None, bound: dict[str, Any]
) -> dict[str, list[str]]:
    """Every image category: the resource type's defaults, then ``spec.images`` (a same-named
    extractor replaces a default)."""
    images = _default_images(resource) if resource is not None else {}
    for index, extractor in enumerate(spec.get("images") or []):
        where = ("spec", "images", index)
        if not isinstance(extractor, dict) or not extractor.get("name"):
            raise RuleError("an image extractor needs a name and an expression").at(*where)
        value = cel_bindings.run(
            str(extractor.get("expression", "")), bound, (*where, "expression")
        )
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise RuleError(f"expected a list of strings, got {value!r}").at(*where, "expression")
        images[str(extractor["name"])] = list(value)
    return images


def _without_digest(image: str) -> str | None:
    """The image when it is a reference without a digest; None when it has one."""
    try:
        info = image_info(image)
    except FunctionError:
        raise RuleError(f"failed to parse image reference {image}").at("images") from None
    return None if info.get("digest") else image


def _unsupported(exc: RuleError) -> str | None:
    for marker in (UNSUPPORTED_VERIFICATION, UNSUPPORTED_IMAGE_DATA):
        if marker in exc.message:
            where = exc.where()
            return f"{marker} ({where})" if where else marker
    return None


def _names(entries: Any) -> dict[str, str]:
    """``attestors``/``attestations`` as the expressions see them: each entry by its name (the
    verification calls that would use them are unsupported offline)."""
    return {
        str(e["name"]): str(e["name"]) for e in entries or [] if isinstance(e, dict) and "name" in e
    }


def _required(spec: Mapping[str, Any]) -> bool:
    return (spec.get("validationConfigurations") or {}).get("required") is not False


def _verify_digest(spec: Mapping[str, Any]) -> bool:
    return (spec.get("validationConfigurations") or {}).get("verifyDigest") is not False


def evaluate_spec(
    policy: dict[str, Any],
    spec: dict[str, Any],
    resource: dict[str, Any],
    ctx: Context,
    operation: str,
) -> RuleOutcome | None:
    """One matched (variant of a) policy on one resource or payload; None when its
    matchConditions leave it out (the CLI then reports nothing)."""
    payload = dpol.is_payload(resource)
    if payload:
        bound: dict[str, Any] = {"object": resource}
    else:
        bound = cel_bindings.admission(resource, ctx, operation)
        bound["namespaceObject"] = dpol.namespace_object(resource, ctx)
    if not vpol.conditions_hold(spec, bound):
        return None
    excepted = policy_exceptions.covering(policy, bound, ctx)
    if excepted:
        return policy_exceptions.skip(excepted)
    variables = ("spec", "variables")
    # Kyverno's variables are lazy: the extractors see them without ``images``, the
    # validations with it
    subject = None if payload else (bound["object"] or bound["oldObject"])
    found = extract_images(
        spec, subject, cel_bindings.with_variables(bound, spec.get("variables"), variables)
    )
    images = {
        category: [i for i in refs if image_selected(i, spec.get("matchImageReferences"))]
        for category, refs in found.items()
    }
    selected = [image for refs in images.values() for image in refs]
    if _verify_digest(spec):
        for image in selected:
            if _without_digest(image):
                return RuleOutcome(RuleStatus.FAIL, f"image {image} does not have a digest")
    bound = {
        **bound,
        "images": images,
        "attestors": _names(spec.get("attestors")),
        "attestations": _names(spec.get("attestations")),
    }
    bound = cel_bindings.with_variables(bound, spec.get("variables"), variables)
    failing = cel_bindings.first_failing(spec.get("validations"), bound)
    if failing is not None:
        message = vpol.failure_message(failing[1], failing[0], bound)
        vpol.audit_annotations(spec, bound)
        return RuleOutcome(RuleStatus.FAIL, message)
    vpol.audit_annotations(spec, bound)
    if _required(spec) and selected:
        # offline no check ever verifies an image (the verification calls are unsupported)
        return RuleOutcome(
            RuleStatus.FAIL,
            f"image {selected[0]} is not verified: no policy performed a signature or "
            "attestation check on it",
        )
    return RuleOutcome(RuleStatus.PASS, "success")


def _error(exc: RuleError) -> RuleOutcome:
    unsupported = _unsupported(exc)
    if unsupported:
        return RuleOutcome(RuleStatus.ERROR, unsupported)
    return RuleOutcome(RuleStatus.ERROR, str(exc))


def outcomes(
    policy: dict[str, Any], resource: dict[str, Any], ctx: Context, operation: str
) -> Iterator[RuleOutcome]:
    """The response of ``policy`` (or the autogen variant that matches) on ``resource``."""
    spec = policy.get("spec") or {}
    payload = dpol.is_payload(resource)
    if payload != is_json_mode(spec):
        return  # a JSON policy sees only payloads, a Kubernetes one only resources
    with using(vpol.environment(ctx)):
        if payload:
            variants = [vpol.Variant("", spec)]
        else:
            if not matching.in_policy_scope(policy, resource):
                return
            namespace = dpol.namespace_object(resource, ctx)
            labels = ((namespace or {}).get("metadata") or {}).get("labels") or {}
            request = matching.admission_of(
                resource, operation, labels if namespace else None, ctx.facts.subresources
            )
            variants = [
                v
                for v in [vpol.Variant("", spec)]
                + [vpol.Variant(a.name, a.spec) for a in autogen.variants(spec)]
                if matching.matches(v.spec.get("matchConstraints"), request)
            ]
        for variant in variants[:1]:  # Kyverno keeps one response per policy name
            try:
                outcome = evaluate_spec(policy, variant.spec, resource, ctx, operation)
            except RuleError as exc:
                outcome = _error(exc)
            if outcome is not None:
                yield outcome


def check_structure(policy: dict[str, Any]) -> list[str]:
    """What makes an ImageValidatingPolicy unusable, each naming its field."""
    spec = policy.get("spec")
    if not isinstance(spec, dict):
        return ["spec: must be a map"]
    problems: list[str] = []
    if not is_json_mode(spec) and not isinstance(spec.get("matchConstraints"), dict):
        problems.append("spec.matchConstraints: required (a policy without it matches nothing)")
    validations = spec.get("validations")
    if not isinstance(validations, list) or not validations:
        problems.append("spec.validations: must be a non-empty list")
    for key in (
        "variables",
        "matchConditions",
        "matchImageReferences",
        "images",
        "attestors",
        "attestations",
        "auditAnnotations",
    ):
        if key in spec and not isinstance(spec[key], list):
            problems.append(f"spec.{key}: must be a list")
    for index, ref in enumerate(spec.get("matchImageReferences") or []):
        if not isinstance(ref, dict) or not (ref.get("glob") or ref.get("expression")):
            problems.append(f"spec.matchImageReferences[{index}]: needs a glob or an expression")
        elif ref.get("glob"):
            try:
                glob_pattern(str(ref["glob"]))
            except ValueError as exc:
                problems.append(f"spec.matchImageReferences[{index}].glob: {exc}")
    for index, extractor in enumerate(spec.get("images") or []):
        if not isinstance(extractor, dict) or not extractor.get("name"):
            problems.append(f"spec.images[{index}].name: required")
        elif not isinstance(extractor.get("expression"), str):
            problems.append(f"spec.images[{index}].expression: required")
    mode = (spec.get("evaluation") or {}).get("mode")
    if mode is not None and mode not in ("Kubernetes", "JSON"):
        problems.append("spec.evaluation.mode: must be Kubernetes or JSON")
    return problems
