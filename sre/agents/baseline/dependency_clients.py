"""Whom a changed setting of a dependency acts on: the clients whose errors name it.

A datastore's or a cache's setting changed on its own workload (a server argument, an
environment value) often shows nothing on the dependency itself: PostgreSQL closes idle
sessions, Valkey refuses writes past its memory cap, and neither logs an error of its own nor,
without spans, fails a trace. Its clients do: their error lines name the server they could not
use (``connection to server at "postgresql"``) or the setting that refused them (``used memory >
'maxmemory'``). So a workload change that is not a routine rollout acts on the applications
whose error lines, written after it, name its application or a setting it changed: the
symptoms of those clients then count for the change as for the clients' own edits. A Service
whose spec changed (``internalTrafficPolicy: Local`` with no endpoint on the caller's node) is
read the same way: its clients' errors name it, its pods log nothing."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from sre.agents.baseline.evidence import WORKLOADS, Change, app_of
from sre.agents.baseline.onset import AFTER_SYMPTOMS
from sre.agents.baseline.references import host_label, spec_strings
from sre.agents.baseline.symptoms import is_error
from sre.snapshot import SourceKind, open_source

#: an option's name in a server's arguments (``--maxmemory``, ``-c idle_session_timeout=5s``):
#: a word of letters, digits, ``_``, ``-`` or ``.``, short names (``-c``) say nothing
_OPTION = re.compile(r"^-{1,2}([A-Za-z][\w.-]{3,})$|^-{0,2}([A-Za-z][\w.-]{3,})=")
_ENV_VALUE = re.compile(r"\.env\[(\d+)\]\.value$")


def _routine(path: str) -> bool:
    """A field a rollout or a scaler sets: the image, the template's annotations, replicas."""
    return path.endswith((".image", ".replicas")) or "annotations" in path


def settings_changed(change: Change) -> bool:
    """A workload edit beyond a routine rollout (its arguments, environment, resources), or an
    edit of a Service's spec (its traffic policy, its ports): the Service's clients, not its
    pods, are what it fails."""
    if change.kind == "Service":
        return change.change == "modified" and any(p.startswith("spec.") for p in change.paths)
    return (
        change.kind in WORKLOADS
        and change.change == "modified"
        and any(not _routine(p) for p in change.paths)
    )


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield from value.split()
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def _env_name(change: Change, path: str) -> str | None:
    """The name of the environment variable whose value ``path`` changed (from the spec)."""
    found = _ENV_VALUE.search(path)
    containers = ((change.spec.get("template") or {}).get("spec") or {}).get("containers") or []
    at = re.search(r"containers\[(\d+)\]", path)
    if not found or not at or int(at.group(1)) >= len(containers):
        return None
    env = containers[int(at.group(1))].get("env") or []
    index = int(found.group(1))
    return str(env[index].get("name") or "") or None if index < len(env) else None


def setting_names(change: Change) -> frozenset[str]:
    """The settings the change set: option names in its new arguments, the names of the
    environment variables whose values it changed."""
    names: set[str] = set()
    for path, _, new in change.values:
        if _routine(path):
            continue
        for token in _strings(new):
            match = _OPTION.match(token)
            if match:
                names.add(match.group(1) or match.group(2))
        env = _env_name(change, path)
        if env and len(env) > 3:
            names.add(env)
    return frozenset(names)


def mentions(words: Iterable[str]) -> re.Pattern[str] | None:
    ordered = sorted(set(words), key=len, reverse=True)
    if not ordered:
        return None
    # a whole word: ``cart`` must not match ``carts`` nor ``valkey-cart`` (its own name)
    return re.compile(
        r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in ordered) + r")(?![\w-])", re.IGNORECASE
    )


#: what follows a JSON record's key: its closing quote and the colon
_JSON_KEY_END = re.compile(r'"\s*:')


def _field_key(body: str, found: re.Match[str]) -> bool:
    """Whether the word found is the key of a structured log line's field (``level=error``,
    ``{"level": "error"}``): the line's format, written by every client before any edit as
    after it, not a setting or a host the error quotes."""
    start, end = found.span()
    if body[end : end + 1] == "=" and (start == 0 or body[start - 1].isspace()):
        return True
    opened = body[:start]
    return (
        opened.endswith('"')
        and opened[:-1].rstrip().endswith(("{", ","))
        and bool(_JSON_KEY_END.match(body, end))
    )


def names(pattern: re.Pattern[str], body: str) -> bool:
    """Whether an error line names one of the pattern's words other than as a field's key."""
    return any(not _field_key(body, found) for found in pattern.finditer(body))


#: kinds whose own rules say whom an edit of them acts on (``rank.touched_apps``): their
#: values are content or placement, not the hosts traffic is sent to
_READ_OTHERWISE = frozenset({*WORKLOADS, "Pod", "ReplicaSet", "ConfigMap", "Secret", "Service"})


def routed_hosts(change: Change, services: Iterable[str]) -> frozenset[str]:
    """The Services of the snapshot an edited object of a kind no other rule reads names as a
    host anywhere in its spec (a route's backends, a gateway's upstream): the traffic it
    steers goes there, so the clients whose errors name one of them are what it fails."""
    if change.change != "modified" or change.kind in _READ_OTHERWISE:
        return frozenset()
    wanted = {s.lower() for s in services}
    return frozenset(h for h in (host_label(s) for s in spec_strings(change.spec)) if h in wanted)


#: the kinds whose changed values are what their readers are configured with
CONFIGURATION_KINDS = frozenset({"ConfigMap", "Secret"})
#: the top-level fields of a ConfigMap or Secret holding its files
_FILE_FIELDS = ("data.", "binaryData.", "stringData.")
#: a file's name (``pg_hba.conf``, ``nginx.conf``, ``Corefile`` has none): a word with a dot or an
#: underscore in it, which a server quotes when it refuses what the file says
_FILE_NAME = re.compile(r"^[\w-]+[._][\w.-]+$")


#: a setting's name at the start of a line of a configuration file (``maxmemory 2mb``,
#: ``max_connections = 20``, ``timeoutSeconds: 5``): a word of five characters or more, which a
#: server quotes when it refuses a request by it (``used memory > 'maxmemory'``)
_SETTING = re.compile(r"""^\s*["']?([A-Za-z][\w.-]{4,})["']?\s*(?:[=:]|\s)""")


#: a ConfigMap or Secret key that names a setting, not a file (``maxmemory``, ``DB_PASSWORD``)
_KEY_SETTING = re.compile(r"^[A-Za-z][\w-]{4,}$")


def _scalar(value: Any) -> bool:
    return value is not None and "\n" not in str(value)


def changed_settings(old: Any, new: Any) -> frozenset[str]:
    """The names of the settings a new version of a file's text gives another value: a line
    with the name went and another with it came (a directive only added or removed is read by
    what it names, ``configured_names``)."""
    if not isinstance(old, str) or not isinstance(new, str):
        return frozenset()
    before, after = set(old.splitlines()), set(new.splitlines())

    def names(lines: set[str]) -> set[str]:
        return {m.group(1) for m in map(_SETTING.match, lines) if m}

    return frozenset(names(before - after) & names(after - before))


def configured_names(change: Change, services: Iterable[str]) -> frozenset[str]:
    """For an edited ConfigMap or Secret: the names of the files it changed (``pg_hba.conf``),
    of the settings whose lines it changed in them (``maxmemory``) and the Services of the snapshot its edit added as a host (a DNS server's rewrite of
    ``quote.shop.svc.cluster.local``). Whichever namespace it lives in, whoever reads it (a
    cluster DNS server, a database), the clients whose errors after it name one of these are
    what it configured: a refused connection quotes the rule file, a failed lookup the name."""
    if change.kind not in CONFIGURATION_KINDS or change.change != "modified":
        return frozenset()
    wanted = {s.lower() for s in services}
    names: set[str] = set()
    for path, old, new in change.values:
        if not path.startswith(_FILE_FIELDS):
            continue
        key = path.split(".", 1)[1]
        if _FILE_NAME.match(key):
            names.add(key)
        elif _KEY_SETTING.match(key) and _scalar(old) and _scalar(new):
            # a key that is itself a setting (read as an environment value), given another
            # value; a key holding lines is a file, whatever its name (``Corefile``)
            names.add(key)
        names |= changed_settings(old, new)
        before = set(old.split()) if isinstance(old, str) else set()
        added = set(new.split()) - before if isinstance(new, str) else set()
        names |= {h for h in map(host_label, added) if h in wanted}
    return frozenset(names)


def clients_naming(
    changes: Iterable[Change],
    error_lines: Iterable[tuple[str, datetime, str]],
    services: Iterable[str] = (),
) -> dict[str, frozenset[str]]:
    """changed object (namespace/Kind/name) -> the other applications whose error lines (app,
    time, body), written after the change, name its application or a setting it set (a
    workload, a Service), a Service it routes to (``routed_hosts``) or a file or host its
    edit configured (``configured_names``)."""
    lines = list(error_lines)
    services = frozenset(services)
    out: dict[str, frozenset[str]] = {}
    for change in changes:
        own = app_of(change.kind, change.name)
        if settings_changed(change):
            pattern = mentions({own} | setting_names(change))
        elif change.kind in CONFIGURATION_KINDS:
            own = ""
            pattern = mentions(configured_names(change, services))
        else:
            own = ""
            pattern = mentions(routed_hosts(change, services))
        if pattern is None:
            continue
        earliest = (change.since or change.time).replace(tzinfo=None) - AFTER_SYMPTOMS
        clients = frozenset(
            app
            for app, at, body in lines
            if app != own and at.replace(tzinfo=None) >= earliest and names(pattern, body)
        )
        if clients:
            out[change.entity] = clients
    return out


def error_lines(logs: Path) -> list[tuple[str, datetime, str]]:
    """(application, time, body) of each error line of the snapshot's logs."""
    src = open_source(logs, SourceKind.LOGS)
    rows = src.con.cursor().execute(
        """SELECT service_name, ts, severity_text, severity_number, left(body, 1000) FROM data
           WHERE service_name IS NOT NULL AND ts IS NOT NULL"""
    )
    return [
        (str(app), at, str(body or ""))
        for app, at, level, number, body in rows.fetchall()
        if is_error(level, number, body)
    ]


def find(
    logs: Path, changes: Iterable[Change], notes: list[str], services: Iterable[str] = ()
) -> Mapping[str, frozenset[str]]:
    """:func:`clients_naming` over the snapshot's logs (unreadable or missing logs: a note)."""
    if not logs.is_file():
        return {}
    from itbench.errors import ItbenchError

    try:
        return clients_naming(changes, error_lines(logs), services)
    except ItbenchError as exc:
        notes.append(f"dependency clients from logs: {exc}")
        return {}
