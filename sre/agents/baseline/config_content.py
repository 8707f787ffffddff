"""Which applications a configuration change names in what it changed.

A ConfigMap or Secret has no selector: it acts on whoever reads it, and the application that
reads a shared configuration is not the one it is about (flagd serves every service's feature
flags from one ConfigMap). What was changed often says whom it is about: the key switched on is
``cartFailure``, the setting edited is ``checkout.timeout``. So the old and new values of each
changed field are compared down to the keys that differ (a value holding JSON or YAML is read as
such), and an application is named when every word of its name is a word of a changed key's path
(``product-catalog`` in ``flags.productCatalogFailure.defaultVariant``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

import yaml

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
#: values larger than this are not parsed (a certificate bundle, a whole dashboard)
MAX_VALUE = 1 << 20


def words(text: str) -> frozenset[str]:
    """The lower-case words of a name or key: split at separators and camelCase humps."""
    return frozenset(
        w.lower() for part in re.split(r"[^A-Za-z0-9]+", text) for w in _CAMEL.findall(part)
    )


def structured(value: Any) -> Any:
    """A string holding a JSON or YAML mapping or list, parsed; anything else as it is."""
    if not isinstance(value, str) or len(value) > MAX_VALUE:
        return value
    text = value.strip()
    if not text or text[0] not in "{[" and ":" not in text:
        return value
    for parse in (json.loads, yaml.safe_load):
        try:
            parsed = parse(text)
        except (ValueError, yaml.YAMLError):
            continue
        if isinstance(parsed, dict | list):
            return parsed
    return value


def changed_keys(path: str, old: Any, new: Any, depth: int = 0) -> Iterator[str]:
    """The key paths under ``path`` whose values differ between ``old`` and ``new``."""
    old, new = structured(old), structured(new)
    if old == new:
        return
    if depth < 16 and isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new), key=str):
            yield from changed_keys(f"{path}.{key}", old.get(key), new.get(key), depth + 1)
    elif depth < 16 and isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            yield from changed_keys(f"{path}[{index}]", a, b, depth + 1)
    else:
        yield path


#: keys that document a setting without changing what it does (a flagd flag's ``description``,
#: a document's ``$schema``): an edit of them alone acts on nobody, whatever they mention
DOCUMENTATION = frozenset({"description", "$schema"})


def acting_keys(path: str, old: Any, new: Any) -> Iterator[str]:
    """The changed key paths (:func:`changed_keys`) that change behaviour, not documentation."""
    for key in changed_keys(path, old, new):
        if key.rsplit(".", 1)[-1] not in DOCUMENTATION:
            yield key


def named_apps(values: Iterable[tuple[str, Any, Any]], apps: Iterable[str]) -> frozenset[str]:
    """The ``apps`` whose names are spelt out in the keys ``values`` (path, old, new) changed.

    A feature flag may name its service only in part (``imageSlowLoad`` for ``image-provider``):
    when no application is spelt out whole, the first word of a changed flag's name, when it
    belongs to the name of one application only, names that application."""
    apps = list(apps)
    keys = [key for path, old, new in values for key in acting_keys(path, old, new)]
    changed = [words(key) for key in keys]
    whole = frozenset(
        app for app in apps if (name := words(app)) and any(name <= key for key in changed)
    )
    if whole:
        return whole
    partial: set[str] = set()
    for key in keys:
        if not FLAG_KEY.search(key):
            continue
        flag = FLAG_KEY.split(key, maxsplit=1)[-1].split(".", 1)[0]
        # a flag's name begins with what it is about (``imageSlowLoad``, ``kafkaQueueProblems``);
        # its other words say what goes wrong (``load``, ``high``), not where
        first = next(iter(_CAMEL.findall(flag)), "").lower()
        having = [app for app in apps if first and first not in GENERIC and first in words(app)]
        if len(having) == 1:
            partial.add(having[0])
    return frozenset(partial)


#: a key under a flagd document's ``flags`` (``data.demo.flagd.json.flags.imageSlowLoad...``)
FLAG_KEY = re.compile(r"(?:^|\.)flags\.")
#: words of application names that name no application in particular
GENERIC = frozenset({"service", "server", "svc", "app", "api", "worker", "demo", "default"})
