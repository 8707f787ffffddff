"""The variables a rule sees: ``request`` (object, oldObject, operation, user), ``images``,
the service account, the test's values, and the rule's own ``context`` entries (``variable``
with Kyverno's default and null rules; ``configMap`` from the test's resources; ``apiCall``,
``imageRegistry`` and ``globalReference`` only from the test's values, offline)."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from jmespath.exceptions import JMESPathError

from ciso.engines.kyverno import api_paths
from ciso.engines.kyverno.errors import RuleError
from ciso.engines.kyverno.jmespath import search
from ciso.engines.kyverno.jmespath.images import image_info
from ciso.engines.kyverno.jmespath.strings import FunctionError
from ciso.engines.kyverno.model import Context, policy_id
from ciso.engines.kyverno.variables import VariableError, substitute

_PATH_PART = re.compile(r'"([^"]*)"|([^.]+)')


def path_parts(dotted: str) -> list[str]:
    """A values key's path: dots separate, a double-quoted part may hold dots
    (``metadata.annotations."example.com/team"``)."""
    return [quoted if quoted or not bare else bare for quoted, bare in _PATH_PART.findall(dotted)]


def nested_set(target: dict[str, Any], dotted: str, value: Any) -> None:
    """Set ``value`` at the values key's path in ``target``, copying each map on the way so
    that the objects ``target`` shares (the resource under ``request.object``) stay as read."""
    parts = path_parts(dotted)
    for part in parts[:-1]:
        child = target.get(part)
        child = dict(child) if isinstance(child, dict) else {}
        target[part] = child
        target = child
    target[parts[-1]] = value


def with_object_values(
    resource: dict[str, Any], policy: dict[str, Any], ctx: Context
) -> dict[str, Any]:
    """The resource as a test's values rewrite it for ``policy``: the Kyverno CLI adds the global
    and the policy's per-resource values to the request and reads ``request.object`` back, so
    that a ``request.object.…`` value changes what is matched and validated. ``resource``
    itself when no value does."""
    name = (resource.get("metadata") or {}).get("name", "")
    values = {**ctx.global_values, **ctx.resource_values.get((policy_id(policy), name), {})}
    keys = [k for k in values if k.startswith("request.object.")]
    if not keys:
        return resource
    holder: dict[str, Any] = {"object": resource}
    for key in keys:
        nested_set(holder, key.removeprefix("request."), values[key])
    return holder["object"]


@dataclass(frozen=True)
class _Extractor:
    """Where images sit in a kind of resource: a path (``*`` for every list element or map
    value), the field holding the image, the field naming it, and the group's name."""

    fields: tuple[str, ...]
    value: str
    key: str
    name: str
    jmespath: str = ""


def _standard(*prefix: str) -> tuple[_Extractor, ...]:
    return tuple(
        _Extractor((*prefix, group, "*"), "image", "name", group)
        for group in ("initContainers", "containers", "ephemeralContainers")
    )


_POD_CONTROLLER = _standard("spec", "template", "spec")
EXTRACTORS: dict[str, tuple[_Extractor, ...]] = {
    "Pod": _standard("spec"),
    "DaemonSet": _POD_CONTROLLER,
    "Deployment": _POD_CONTROLLER,
    "ReplicaSet": _POD_CONTROLLER,
    "ReplicationController": _POD_CONTROLLER,
    "StatefulSet": _POD_CONTROLLER,
    "Job": _POD_CONTROLLER,
    "CronJob": _standard("spec", "jobTemplate", "spec", "template", "spec"),
}


def _custom(configs: Any, kind: str) -> tuple[_Extractor, ...] | None:
    """A rule's ``imageExtractors`` for this kind, as Kyverno reads them (None: not given)."""
    if not isinstance(configs, dict) or kind not in configs:
        return None
    out = []
    for config in configs[kind] or []:
        if not isinstance(config, dict):
            continue
        fields = [f.strip() for f in str(config.get("path", "")).split("/") if f.strip()]
        value = config.get("value") or (fields.pop() if fields else "")
        out.append(
            _Extractor(
                tuple(fields),
                str(value),
                str(config.get("key") or ""),
                str(config.get("name") or "custom"),
                str(config.get("jmesPath") or ""),
            )
        )
    return tuple(out)


class _BadImages(Exception):
    """Kyverno drops the whole images variable when one extraction fails."""


def _extract(
    obj: Any,
    path: list[str],
    fields: tuple[str, ...],
    extractor: _Extractor,
    found: dict[str, Any],
    secrets: list[str],
) -> None:
    if obj is None:
        return
    if fields and fields[0] == "*":
        if isinstance(obj, list):
            for i, item in enumerate(obj):
                _extract(item, [*path, str(i)], fields[1:], extractor, found, secrets)
        elif isinstance(obj, dict):
            for name, item in obj.items():
                _extract(item, [*path, name], fields[1:], extractor, found, secrets)
        else:
            raise _BadImages("invalid type")
        return
    if not isinstance(obj, dict):
        raise _BadImages("invalid image config")
    secrets = secrets + [
        s["name"]
        for s in obj.get("imagePullSecrets") or []
        if isinstance(s, dict) and isinstance(s.get("name"), str)
    ]
    if fields:
        _extract(obj.get(fields[0]), [*path, fields[0]], fields[1:], extractor, found, secrets)
        return
    pointer = "/" + "/".join(path) + "/" + extractor.value
    key: Any = pointer
    if extractor.key:
        key = obj.get(extractor.key)
        if not isinstance(key, str):
            raise _BadImages("invalid key")
    image = obj.get(extractor.value)
    if not isinstance(image, str) or not image.strip():
        return
    if extractor.jmespath:
        try:
            image = search(extractor.jmespath, image)
        except JMESPathError as exc:
            raise _BadImages(str(exc)) from None
        if not isinstance(image, str):
            raise _BadImages("jmesPath must produce a string")
    try:
        info = image_info(image)
    except FunctionError as exc:
        raise _BadImages(str(exc)) from None
    found[key] = {**info, "jsonPointer": pointer, "imagePullSecrets": secrets or None}


def _images(resource: dict[str, Any], rule: dict[str, Any]) -> dict[str, Any]:
    """The ``images`` variable: per extractor group (containers, initContainers,
    ephemeralContainers, or a rule's ``imageExtractors`` names) the images by container name;
    empty when the kind has no extractor or an image cannot be read, as in Kyverno."""
    kind = str(resource.get("kind", ""))
    extractors = _custom(rule.get("imageExtractors"), kind)
    if extractors is None:
        extractors = EXTRACTORS.get(kind, ())
    infos: dict[str, Any] = {}
    try:
        for extractor in extractors:
            found: dict[str, Any] = {}
            _extract(resource, [], extractor.fields, extractor, found, [])
            if found:
                infos[extractor.name] = found
    except _BadImages:
        return {}
    return infos


def _uses_images(rule: dict[str, Any]) -> bool:
    key = id(rule)
    cached = _IMAGES_CACHE.get(key)
    if cached is None or cached[0] is not rule:
        import json

        if len(_IMAGES_CACHE) > 10_000:  # a long-lived cluster hook must not grow without bound
            _IMAGES_CACHE.clear()
        cached = _IMAGES_CACHE[key] = (rule, "images" in json.dumps(rule))
    return cached[1]


_IMAGES_CACHE: dict[int, tuple[dict[str, Any], bool]] = {}


def _service_account(username: str) -> dict[str, str]:
    """Kyverno's serviceAccountName/Namespace variables, from a service account's user name."""
    parts = username.split(":")
    if len(parts) == 4 and parts[:2] == ["system", "serviceaccount"]:
        return {"serviceAccountName": parts[3], "serviceAccountNamespace": parts[2]}
    return {"serviceAccountName": "", "serviceAccountNamespace": ""}


def build(
    policy: dict[str, Any],
    rule: dict[str, Any],
    resource: dict[str, Any],
    ctx: Context,
    operation: str = "CREATE",
) -> dict[str, Any]:
    meta = resource.get("metadata") or {}
    data: dict[str, Any] = {
        "request": {
            "object": resource,
            # As the Kyverno CLI simulates them: an UPDATE's old object is the resource itself, and
            # a DELETE's variables read the old object (Kyverno rewrites request.object to it).
            "oldObject": copy.deepcopy(resource) if operation in ("UPDATE", "DELETE") else None,
            "operation": operation,
            "namespace": meta.get("namespace", ""),
            "name": meta.get("name", ""),
            "userInfo": {
                "username": ctx.facts.user.username,
                "groups": list(ctx.facts.user.groups),
            },
            "roles": list(ctx.facts.user.roles),
            "clusterRoles": list(ctx.facts.user.cluster_roles),
        },
        **_service_account(ctx.facts.user.username),
    }
    # the images variable costs a walk of the spec: only build it for rules that use it; like
    # Kyverno, there is no images variable at all when there are no images
    if _uses_images(rule):
        images = _images(resource, rule)
        if images:
            data["images"] = images
    values = test_values(policy, rule, resource, ctx)
    # as the CLI's context initializer: the values are in place before the context entries load,
    # so an entry may read a value (``varA.data.x`` standing in for a configMap entry varA)
    for key, value in values.items():
        nested_set(data, key, value)
    for index, entry in enumerate(rule.get("context") or []):
        try:
            load_entry(entry, data, values, ctx)
        except RuleError as exc:
            raise exc.at("context", index) from None
    for key, value in values.items():  # and they win over what the entries loaded
        nested_set(data, key, value)
    # the simulated operation wins over the values file: the old-object check of an UPDATE runs
    # as a CREATE although the values say UPDATE
    data["request"]["operation"] = operation
    return data


def test_values(
    policy: dict[str, Any], rule: dict[str, Any], resource: dict[str, Any], ctx: Context
) -> dict[str, Any]:
    """The values for this rule and resource: global, then per resource, then per rule, each
    over the ones before. The Kyverno CLI adds the global and the resource's values to the
    policy's context, and the rule's when the rule's context loads (its context loader's
    initializer), so a rule's value wins over a resource's."""
    if not (ctx.global_values or ctx.rule_values or ctx.resource_values):
        return {}  # the common case without a values file: nothing to look up
    name = (resource.get("metadata") or {}).get("name", "")
    values = {**ctx.global_values}
    values.update(ctx.resource_values.get((policy_id(policy), name), {}))
    values.update(
        ctx.rule_values.get(
            (
                policy_id(policy),
                rule["name"].removeprefix("autogen-cronjob-").removeprefix("autogen-"),
            ),
            {},
        )
    )
    return values


def _variable_entry(name: str, variable: Any, data: dict[str, Any]) -> Any:
    """A ``variable`` context entry as Kyverno loads it: ``jmesPath`` (itself substituted) applied
    to ``value`` or to the whole context; ``default`` when that fails or finds nothing; null is an
    error."""
    from ciso.engines.kyverno.variables import evaluate

    if not isinstance(variable, dict):
        raise VariableError("must be an object with value, jmesPath or default")
    path = ""
    if variable.get("jmesPath"):
        try:
            path = substitute(variable["jmesPath"], data)
        except RuleError as exc:
            raise exc.at("jmesPath") from None
        if not isinstance(path, str):
            raise VariableError("jmesPath must be a string").at("jmesPath")
    try:
        default = substitute(variable["default"], data) if "default" in variable else None
    except RuleError as exc:
        raise exc.at("default") from None
    output = default
    if "value" in variable:
        try:
            value = substitute(variable["value"], data)
        except RuleError as exc:
            raise exc.at("value") from None
        if not path:
            output = value
        else:
            try:
                output = evaluate(path, value)
            except VariableError as exc:
                if default is None:
                    raise exc.at("jmesPath") from None
    elif path:
        try:
            found = evaluate(path, data)
            if found is not None:
                output = found
        except VariableError as exc:
            if default is None:
                raise exc.at("jmesPath") from None
    if output is None:
        raise VariableError(f"context variable {name!r} evaluated to null and has no default")
    return output


def _mocked_api_call(name: str, call: dict[str, Any], data: dict[str, Any], ctx: Context) -> Any:
    """An apiCall answered by the test's ``apiCallResponses`` (matched by method and URL, then
    URL alone), with the entry's ``jmesPath`` applied to the response body."""
    call = substitute(call, data)
    raw_service = call.get("service")
    service = raw_service if isinstance(raw_service, dict) else {}
    url = str(service.get("url") or call.get("urlPath") or "")
    method = str(call.get("method") or "GET").upper()
    answer = ctx.api_responses.get(f"{method}:{url}") or ctx.api_responses.get(url)
    if answer is None and ctx.api_objects is not None and call.get("urlPath") and method == "GET":
        try:
            answer = (200, api_paths.answer(url, ctx.api_objects))
        except api_paths.ApiPathError as exc:
            raise VariableError(f"apiCall {name!r}: {exc}") from None
    if answer is None:
        raise VariableError(
            f"unsupported: context entry apiCall {name!r}: no apiCallResponses entry for "
            f"{method} {url}"
        )
    status, body = answer
    if not 200 <= status < 300:
        raise VariableError(f"HTTP {status} from the apiCallResponses entry for {method} {url}")
    if call.get("jmesPath"):
        from ciso.engines.kyverno.variables import evaluate

        return evaluate(str(call["jmesPath"]), body)
    return body


def _mocked_global_reference(reference: dict[str, Any], data: dict[str, Any], ctx: Context) -> Any:
    """A globalReference answered by the test's ``globalContextEntries``: ``name`` is the entry,
    or ``entry.projection``; the entry's ``jmesPath`` applies to what it names."""
    reference = substitute(reference, data)
    entry, _, projection = str(reference.get("name") or "").partition(".")
    if entry not in ctx.global_context:
        raise VariableError(f"failed to fetch entry key={entry} (not in globalContextEntries)")
    found = ctx.global_context[entry]
    if projection:
        if not isinstance(found, dict):
            raise VariableError(
                f"global context entry {entry!r} has no projections (not an object)"
            )
        if projection not in found:
            raise VariableError(f"projection {projection!r} not found in entry {entry!r}")
        found = found[projection]
    if reference.get("jmesPath"):
        from ciso.engines.kyverno.variables import evaluate

        return evaluate(str(reference["jmesPath"]), found)
    return found


def load_entry(entry: Any, data: dict[str, Any], values: dict[str, Any], ctx: Context) -> None:
    """Load one context entry into ``data`` (unless the test's values provide it)."""
    if not isinstance(entry, dict):
        raise VariableError("a context entry must be an object")
    name = entry.get("name")
    if not name:
        raise VariableError("a context entry needs a name").at("name")
    if any(key == name or key.startswith(name + ".") for key in values):
        return  # the test's values provide it (possibly as "name.data.field")
    if "variable" in entry:
        try:
            data[name] = _variable_entry(name, entry["variable"], data)
        except RuleError as exc:
            raise exc.at("variable") from None
    elif "configMap" in entry and isinstance(entry["configMap"], dict):
        try:
            ref = substitute(entry["configMap"], data)
        except RuleError as exc:
            raise exc.at("configMap") from None
        where = (str(ref.get("namespace") or "default"), str(ref.get("name")))
        found = ctx.config_maps.get(where)
        if found is None:
            # the Kyverno CLI's fake cluster answers "not found" too: an error, as there
            raise VariableError(
                f"context entry configMap {name!r}: ConfigMap {where[0]}/{where[1]} not found "
                "(neither in the test's values nor among its resources)"
            )
        data[name] = found
    elif isinstance(entry.get("globalReference"), dict) and ctx.global_context:
        try:
            data[name] = _mocked_global_reference(entry["globalReference"], data, ctx)
        except RuleError as exc:
            raise exc.at("globalReference") from None
    elif isinstance(entry.get("apiCall"), dict) and (
        ctx.api_responses or ctx.api_objects is not None
    ):
        try:
            data[name] = _mocked_api_call(name, entry["apiCall"], data, ctx)
        except RuleError as exc:
            raise exc.at("apiCall") from None
    else:
        kind = next(
            (k for k in ("apiCall", "configMap", "imageRegistry", "globalReference") if k in entry),
            "context",
        )
        raise VariableError(
            f"unsupported: context entry {kind} {name!r} without a value in the test's values"
        )
