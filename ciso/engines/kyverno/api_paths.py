"""An ``apiCall`` context entry's ``urlPath`` answered from the objects of a Test's fake cluster, as
the Kyverno CLI's fake client answers it when the Test has ``clusterResources``:

- ``/api/v1[/namespaces/NS]/RESOURCE[/NAME]`` and ``/apis/GROUP/VERSION[/namespaces/NS]/RESOURCE
  [/NAME]`` (``/api/v1/namespaces/NAME`` is the Namespace itself);
- a name gives that object (an error when there is none); no name gives a list,
  ``{"apiVersion", "kind": "<Kind>List", "metadata": {}, "items"}``, of the namespace's objects or
  of every namespace's;
- ``?labelSelector=k=v,k2!=v2,k3`` filters a list.

RESOURCE is the plural of an object's kind (the built-in kinds' own plurals, else Kubernetes'
pluralisation rule, as CRDs name theirs)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from itbench.cluster.resources import plural_of


class ApiPathError(ValueError):
    """A path the fake cluster cannot answer: malformed, or naming an object that is not there."""


def answer(url_path: str, objects: list[dict[str, Any]]) -> Any:
    """What a GET of ``url_path`` returns from ``objects``."""
    parts = urlsplit(url_path)
    segments = [s for s in parts.path.split("/") if s]
    if segments[:2] == ["api", "v1"]:
        api_version, rest = "v1", segments[2:]
    elif len(segments) >= 3 and segments[0] == "apis":
        api_version, rest = f"{segments[1]}/{segments[2]}", segments[3:]
    else:
        raise ApiPathError(f"{url_path!r} is not an /api/v1 or /apis/GROUP/VERSION path")
    namespace = None
    if len(rest) >= 3 and rest[0] == "namespaces":
        namespace, rest = rest[1], rest[2:]
    if not rest or len(rest) > 2:
        raise ApiPathError(f"{url_path!r}: expected RESOURCE or RESOURCE/NAME after the version")
    resource, name = rest[0], (rest[1] if len(rest) == 2 else None)
    found = [
        o
        for o in objects
        if str(o.get("apiVersion", "")) == api_version
        and plural_of(str(o.get("kind", ""))) == resource
        and (namespace is None or (o.get("metadata") or {}).get("namespace") == namespace)
    ]
    if name is not None:
        for obj in found:
            if (obj.get("metadata") or {}).get("name") == name:
                return obj
        where = f"{namespace}/{name}" if namespace else name
        raise ApiPathError(f'{resource} "{where}" not found')
    selector = (parse_qs(parts.query).get("labelSelector") or [""])[0]
    items = [o for o in found if _selected(selector, (o.get("metadata") or {}).get("labels") or {})]
    kind = str(found[0].get("kind")) if found else "List"
    return {
        "apiVersion": api_version,
        "kind": f"{kind}List" if found else kind,
        "metadata": {},
        "items": items,
    }


def _selected(selector: str, labels: dict[str, Any]) -> bool:
    """Equality-based label selector terms (``k=v``, ``k==v``, ``k!=v``, ``k``, ``!k``)."""
    for term in (t.strip() for t in selector.split(",") if t.strip()):
        if "!=" in term:
            key, value = (s.strip() for s in term.split("!=", 1))
            if str(labels.get(key)) == value and key in labels:
                return False
        elif "=" in term:
            key, value = (s.strip() for s in term.replace("==", "=").split("=", 1))
            if key not in labels or str(labels[key]) != value:
                return False
        elif term.startswith("!"):
            if term[1:].strip() in labels:
                return False
        elif term not in labels:
            return False
    return True
