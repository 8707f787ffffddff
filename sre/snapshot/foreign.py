"""Snapshot sources in the shapes other exporters write, turned into the v0.2 TSV the index reads.

The index (``sre.snapshot.index``) reads ClickHouse-style TSVs. Real exporters also write:
gzip-compressed files; traces as OTLP JSON (``resourceSpans`` / ``scopeSpans``, one export or one
per line) or Jaeger JSON (``data[].spans`` with ``references`` and ``processes``); logs as JSON
lines, OTLP JSON (``resourceLogs``) or plain text; events and objects as JSON lines, a JSON list
or a Kubernetes ``List``. :func:`canonical` recognises the shape from the content (not the name),
writes the equivalent TSV and says what it read; a content it cannot read is an error naming the
file and what was expected, never an empty table."""

from __future__ import annotations

import csv
import gzip
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from itbench import yamlsafe
from itbench.errors import InputError
from sre.snapshot import epoch, sql

TRACE_COLUMNS = (
    "Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
    "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode", "StatusMessage",
)  # fmt: skip
LOG_COLUMNS = (
    "Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body",
    "ResourceAttributes", "LogAttributes",
)  # fmt: skip
BODY_COLUMNS = ("Timestamp", "Body")
COLUMNS = {"traces": TRACE_COLUMNS, "logs": LOG_COLUMNS, "events": BODY_COLUMNS}
COLUMNS["objects"] = BODY_COLUMNS

_GZIP_MAGIC = b"\x1f\x8b"
#: OTLP's numeric span kinds and status codes (the protobuf enums, as JSON writes them)
_OTLP_KINDS = {
    0: "Unspecified",
    1: "Internal",
    2: "Server",
    3: "Client",
    4: "Producer",
    5: "Consumer",
}
_OTLP_STATUS = {0: "Unset", 1: "Ok", 2: "Error"}


@dataclass(frozen=True)
class Converted:
    """The TSV to index in place of ``source`` (``source`` itself when it already is one)."""

    path: Path
    #: what was read, for the tools' warnings ("" when the source was already a v0.2 TSV)
    shape: str


def canonical(source: Path, kind: str, workdir: Path) -> Converted:
    """``source`` as a v0.2 TSV of ``kind`` (events, objects, logs, traces), written into
    ``workdir`` when it has to be converted."""
    with source.open("rb") as f:
        start = f.read(1 << 16)
    shape = []
    if start[:2] == _GZIP_MAGIC:
        try:
            with gzip.open(source, "rb") as f:
                raw = f.read()
        except (OSError, EOFError) as exc:
            raise InputError(f"{source}: gzip file cannot be decompressed ({exc})") from None
        shape.append("gzip")
    elif _is_tsv(start.decode("utf-8", "replace").lstrip("\ufeff"), kind):
        return Converted(source, "")  # the v0.2 TSV itself: indexed as it is, never copied
    else:
        raw = source.read_bytes()
    text = raw.decode("utf-8", "replace").lstrip("\ufeff")
    head = text.lstrip()[:1]
    if head in ("{", "["):
        rows, what = _json_rows(source, text, kind)
        shape.append(what)
    elif _is_tsv(text, kind):
        if not shape:
            return Converted(source, "")
        out = workdir / f"{source.name}.tsv"
        out.write_text(text, encoding="utf-8")
        return Converted(out, "gzip TSV")
    elif kind == "logs":
        rows = list(_plain_log_rows(source, text))
        shape.append("plain-text log lines")
    elif kind in ("objects", "events") and (docs := _yaml_documents(text)):
        # ``kubectl get -o yaml``: one object or List per document (``---`` between dumps)
        rows = [_k8s_row(source, r, kind) for r in _unwrapped(_records(docs))]
        shape.append(f"YAML {kind}")
    else:
        expected = {
            "traces": "a TSV with a TraceId/SpanId header, OTLP JSON or Jaeger JSON",
            "events": "a TSV with a Timestamp/Body header, JSON lines, a JSON list or YAML "
            "documents of events",
            "objects": "a TSV with a Timestamp/Body header, JSON lines, a JSON list or YAML "
            "documents of objects",
        }[kind]
        raise InputError(f"{source}: not readable as {kind}: expected {expected}")
    if not rows:
        raise InputError(f"{source}: read as {' '.join(shape)}, but it holds no {kind} records")
    out = workdir / f"{source.name}.tsv"
    _write_tsv(out, COLUMNS[kind], rows)
    return Converted(out, " ".join(shape))


def requoted(tsv: Path, workdir: Path) -> Path | None:
    """``tsv`` written with every cell CSV-quoted, when some of its cells are CSV-quoted and hold
    a line break (a stack trace in a log body, written by a CSV writer that quotes only where it
    must): read as a CSV reader reads it (pandas, which the original tools use, does), so such a
    cell stays one field of one row instead of splitting it. None when no quoted cell spans
    lines (the reader's rejected rows have another cause)."""
    # an object's manifest is larger than csv's default cap: the index's own line limit
    csv.field_size_limit(sql.MAX_LINE)
    out = workdir / "requoted" / tsv.name  # its own name, which the skipped rows' reports give
    try:
        with tsv.open(encoding="utf-8", errors="replace", newline="") as f:
            if not any("\n" in cell or "\r" in cell for row in csv.reader(f, delimiter="\t")
                       for cell in row):  # fmt: skip
                return None
        out.parent.mkdir(exist_ok=True)
        with (
            tsv.open(encoding="utf-8", errors="replace", newline="") as f,
            out.open("w", encoding="utf-8", newline="") as g,
        ):
            writer = csv.writer(g, delimiter="\t", quoting=csv.QUOTE_ALL, lineterminator="\n")
            writer.writerows(csv.reader(f, delimiter="\t"))
    except csv.Error:
        return None  # not CSV either (a NUL byte, a cell past the cap): the plain reading stands
    return out


def _is_tsv(text: str, kind: str) -> bool:
    """A header line of tab-separated names (which ones is the index's business: it reports
    the columns it misses)."""
    header = text.split("\n", 1)[0].rstrip("\r")
    return "\t" in header and not header.lstrip().startswith(("{", "["))


def _cell(value: Any) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    # a tab or a line break would split the row: JSON already escapes them inside strings
    return text.replace("\t", " ").replace("\r", " ").replace("\n", " ")


def _write_tsv(out: Path, columns: tuple[str, ...], rows: Iterable[dict[str, Any]]) -> None:
    with out.open("w", encoding="utf-8") as f:
        f.write("\t".join(columns) + "\n")
        for row in rows:
            f.write("\t".join(_cell(row.get(c)) for c in columns) + "\n")


# ---- time --------------------------------------------------------------------------------------


def _ns_text(ns: int) -> str:
    moment = datetime.fromtimestamp(ns // 1_000_000_000, UTC)
    return f"{moment:%Y-%m-%d %H:%M:%S}.{ns % 1_000_000_000:09d}"


def _epoch_ns(value: Any) -> int | None:
    """An epoch number in seconds, milliseconds, microseconds or nanoseconds, told by size."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return epoch.epoch_ns(number)


def _time_text(value: Any) -> str | None:
    """Any timestamp form as the TSV's ``YYYY-MM-DD HH:MM:SS.fffffffff`` (UTC), or None."""
    if value is None or value == "":
        return None
    if isinstance(value, int | float) or (isinstance(value, str) and _NUMBER.match(value)):
        ns = _epoch_ns(value)
        return None if ns is None else _ns_text(ns)
    if isinstance(value, str):
        text = value.strip().replace("T", " ")
        text = re.sub(r"(Z|[+-]00:?00)$", "", text)
        if _ISO.match(text):
            return text
        m = _ISO_OFFSET.match(value.strip())
        if m:  # an offset other than UTC: convert
            try:
                moment = datetime.fromisoformat(re.sub(r"(\.\d{6})\d+", r"\1", value.strip()))
            except ValueError:
                return None
            return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M:%S.%f}"
    return None


_NUMBER = re.compile(r"^\s*\d+(\.\d+)?\s*$")
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$")
_ISO_OFFSET = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:?\d{2}$")


# ---- JSON --------------------------------------------------------------------------------------


def _json_documents(source: Path, text: str) -> list[Any]:
    """One JSON document, or one per line (JSON lines); the error names the line."""
    try:
        return [json.loads(text)]
    except json.JSONDecodeError as whole:
        docs = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                docs.append(json.loads(line))
            except json.JSONDecodeError as exc:
                if number == 1:
                    raise InputError(
                        f"{source}: not JSON (line {whole.lineno}, column {whole.colno}: "
                        f"{whole.msg})"
                    ) from None
                raise InputError(f"{source}:{number}: not a JSON line ({exc.msg})") from None
        return docs


def _yaml_documents(text: str) -> list[Any]:
    """The mappings of a YAML stream whose documents are Kubernetes objects, Lists or watch
    events; [] when it is not one (the caller then says what it expected)."""
    try:
        # untrusted: aliases refused and nesting bounded (a few bytes of aliases expand to GBs)
        docs = [_plain(d) for d in yamlsafe.load_all(text) if d is not None]
    except yaml.YAMLError:
        return []
    if docs and all(isinstance(d, dict) and ("kind" in d or "object" in d) for d in docs):
        return docs
    return []


def _plain(value: Any) -> Any:
    """YAML's timestamps back to the text a JSON export would hold (``2026-03-01T10:00:00Z``)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, datetime):
        at = value if value.tzinfo else value.replace(tzinfo=UTC)
        return at.astimezone(UTC).isoformat().replace("+00:00", "Z")
    return value


def _json_rows(source: Path, text: str, kind: str) -> tuple[list[dict[str, Any]], str]:
    docs = _json_documents(source, text)
    lines = "JSON lines" if len(docs) > 1 else "JSON"
    if kind == "traces":
        if any(isinstance(d, dict) and "resourceSpans" in d for d in docs):
            return [r for d in docs for r in _otlp_spans(d)], f"OTLP {lines} traces"
        if any(isinstance(d, dict) and isinstance(d.get("data"), list) for d in docs):
            return [r for d in docs for r in _jaeger_spans(d)], f"Jaeger {lines} traces"
        flat = [r for r in _records(docs) if _field(r, "traceId", "TraceId", "trace_id")]
        if flat:
            return [_flat_span(r) for r in flat], f"{lines} spans"
        raise InputError(
            f"{source}: JSON, but neither OTLP (resourceSpans), Jaeger (data[].spans) nor "
            "records with a traceId"
        )
    if kind == "logs":
        if any(isinstance(d, dict) and "resourceLogs" in d for d in docs):
            return [r for d in docs for r in _otlp_logs(d)], f"OTLP {lines} logs"
        return [_log_record(source, r) for r in _records(docs)], f"{lines} log records"
    return [_k8s_row(source, r, kind) for r in _unwrapped(_records(docs))], f"{lines} {kind}"


def _unwrapped(records: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Records whose object is a Kubernetes ``List`` (an exporter writing each observation as
    one ``kubectl get -o json`` output beside its time) as one record per item, each keeping the
    wrapper's time and type."""
    for r in records:
        obj = r.get("object") if isinstance(r.get("object"), dict) else None
        if obj is not None and isinstance(obj.get("items"), list) and "kind" in obj:
            rest = {k: v for k, v in r.items() if k != "object"}
            yield from ({**rest, "object": item} for item in obj["items"] if isinstance(item, dict))
        else:
            yield r


def _records(docs: list[Any]) -> Iterator[dict[str, Any]]:
    """The records of JSON documents: a list's items, a Kubernetes List's ``items``, or the
    document itself."""
    for doc in docs:
        if isinstance(doc, list):
            yield from (d for d in doc if isinstance(d, dict))
        elif isinstance(doc, dict) and isinstance(doc.get("items"), list) and "kind" in doc:
            yield from (d for d in doc["items"] if isinstance(d, dict))
        elif isinstance(doc, dict):
            yield doc


def _field(record: dict[str, Any], *names: str) -> Any:
    for name in names:
        value = record.get(name)
        if value not in (None, ""):
            return value
    return None


def _nested(record: dict[str, Any], outer: str, inner: str) -> Any:
    """``record[outer][inner]`` when ``outer`` holds a mapping (ECS nests its fields)."""
    held = record.get(outer)
    return held.get(inner) if isinstance(held, dict) else None


def _otlp_value(value: Any) -> Any:
    if not isinstance(value, dict):
        return value
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in value:
            return value[key]
    if "intValue" in value:
        return int(value["intValue"])
    if "arrayValue" in value:
        return [_otlp_value(v) for v in value["arrayValue"].get("values", [])]
    if "kvlistValue" in value:
        return _otlp_attributes(value["kvlistValue"].get("values", []))
    return None


def _otlp_attributes(items: Any) -> dict[str, Any]:
    if isinstance(items, dict):  # some exporters write a plain mapping
        return dict(items)
    return {
        a["key"]: _otlp_value(a.get("value"))
        for a in items or []
        if isinstance(a, dict) and "key" in a
    }


def _enum(value: Any, table: dict[int, str], prefix: str) -> str:
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return table.get(int(value), str(value))
    text = str(value or "")
    return text.removeprefix(prefix).capitalize() if text else table[0]


def _otlp_spans(doc: Any) -> Iterator[dict[str, Any]]:
    if not isinstance(doc, dict):
        return
    for resource_spans in doc.get("resourceSpans") or []:
        resource = _otlp_attributes((resource_spans.get("resource") or {}).get("attributes"))
        service = resource.get("service.name")
        scopes = resource_spans.get("scopeSpans") or resource_spans.get(
            "instrumentationLibrarySpans"
        )
        for scope in scopes or []:
            for span in scope.get("spans") or []:
                start = _epoch_ns(span.get("startTimeUnixNano"))
                end = _epoch_ns(span.get("endTimeUnixNano"))
                status = span.get("status") or {}
                yield {
                    "Timestamp": None if start is None else _ns_text(start),
                    "TraceId": span.get("traceId"),
                    "SpanId": span.get("spanId"),
                    "ParentSpanId": span.get("parentSpanId") or "",
                    "SpanName": span.get("name"),
                    "SpanKind": _enum(span.get("kind"), _OTLP_KINDS, "SPAN_KIND_"),
                    "ServiceName": service,
                    "ResourceAttributes": resource,
                    "SpanAttributes": _otlp_attributes(span.get("attributes")),
                    "Duration": None if start is None or end is None else max(end - start, 0),
                    "StatusCode": _enum(status.get("code"), _OTLP_STATUS, "STATUS_CODE_"),
                    "StatusMessage": status.get("message") or "",
                }


def _jaeger_tags(tags: Any) -> dict[str, Any]:
    if isinstance(tags, dict):
        return dict(tags)
    return {t["key"]: t.get("value") for t in tags or [] if isinstance(t, dict) and "key" in t}


def _jaeger_spans(doc: Any) -> Iterator[dict[str, Any]]:
    if not isinstance(doc, dict):
        return
    for trace in doc.get("data") or []:
        processes = trace.get("processes") or {}
        for span in trace.get("spans") or []:
            tags = _jaeger_tags(span.get("tags"))
            process = span.get("process") or processes.get(span.get("processID")) or {}
            parent = span.get("parentSpanID") or ""
            for ref in span.get("references") or []:
                if str(ref.get("refType", "")).upper() == "CHILD_OF" and ref.get("spanID"):
                    parent = ref["spanID"]
                    break
            failed = tags.get("error") in (True, "true") or str(
                tags.get("otel.status_code", "")
            ).upper() in ("ERROR", "STATUS_CODE_ERROR")
            start = _epoch_ns(span.get("startTime"))  # microseconds since the epoch
            duration_us = span.get("duration")
            yield {
                "Timestamp": None if start is None else _ns_text(start),
                "TraceId": span.get("traceID") or trace.get("traceID"),
                "SpanId": span.get("spanID"),
                "ParentSpanId": parent,
                "SpanName": span.get("operationName"),
                "SpanKind": str(tags.get("span.kind") or "internal").capitalize(),
                "ServiceName": process.get("serviceName"),
                "ResourceAttributes": _jaeger_tags(process.get("tags")),
                "SpanAttributes": tags,
                "Duration": None if duration_us is None else int(float(duration_us) * 1000),
                "StatusCode": "Error" if failed else "Unset",
                "StatusMessage": tags.get("otel.status_description") or "",
            }


def _flat_span(r: dict[str, Any]) -> dict[str, Any]:
    """A span written as one flat record, with OTLP-ish or v0.2 field names."""
    start = _field(r, "Timestamp", "timestamp", "startTime", "start_time", "startTimeUnixNano")
    duration = _field(r, "Duration", "duration_ns", "durationNano")
    if duration is None and _field(r, "duration_ms") is not None:
        duration = int(float(r["duration_ms"]) * 1e6)
    status = _field(r, "StatusCode", "status_code", "statusCode", "status")
    if isinstance(status, dict):
        status = status.get("code")
    return {
        "Timestamp": _time_text(start),
        "TraceId": _field(r, "TraceId", "traceId", "trace_id"),
        "SpanId": _field(r, "SpanId", "spanId", "span_id"),
        "ParentSpanId": _field(r, "ParentSpanId", "parentSpanId", "parent_span_id") or "",
        "SpanName": _field(r, "SpanName", "name", "span_name", "operationName"),
        "SpanKind": _enum(_field(r, "SpanKind", "kind", "span_kind"), _OTLP_KINDS, "SPAN_KIND_"),
        "ServiceName": _field(r, "ServiceName", "service_name", "serviceName", "service"),
        "ResourceAttributes": _field(r, "ResourceAttributes", "resource_attributes") or {},
        "SpanAttributes": _field(r, "SpanAttributes", "attributes", "span_attributes") or {},
        "Duration": duration,
        "StatusCode": _enum(status, _OTLP_STATUS, "STATUS_CODE_"),
        "StatusMessage": _field(r, "StatusMessage", "status_message", "statusMessage") or "",
    }


_LEVELS = {"TRACE": 1, "DEBUG": 5, "INFO": 9, "WARN": 13, "WARNING": 13, "ERROR": 17, "FATAL": 21}


def _otlp_logs(doc: Any) -> Iterator[dict[str, Any]]:
    if not isinstance(doc, dict):
        return
    for resource_logs in doc.get("resourceLogs") or []:
        resource = _otlp_attributes((resource_logs.get("resource") or {}).get("attributes"))
        for scope in resource_logs.get("scopeLogs") or []:
            for record in scope.get("logRecords") or []:
                when = _epoch_ns(record.get("timeUnixNano") or record.get("observedTimeUnixNano"))
                body = _otlp_value(record.get("body"))
                yield {
                    "Timestamp": None if when is None else _ns_text(when),
                    "TraceId": record.get("traceId") or "",
                    "SpanId": record.get("spanId") or "",
                    "SeverityText": record.get("severityText") or "",
                    "SeverityNumber": record.get("severityNumber") or "",
                    "ServiceName": resource.get("service.name"),
                    "Body": body if isinstance(body, str) else json.dumps(body),
                    "ResourceAttributes": resource,
                    "LogAttributes": _otlp_attributes(record.get("attributes")),
                }


def _log_record(source: Path, r: dict[str, Any]) -> dict[str, Any]:
    raw_resource = r.get("resource")
    resource = raw_resource if isinstance(raw_resource, dict) else {}
    resource = dict(resource or r.get("ResourceAttributes") or {})
    given = r.get("kubernetes")
    kubernetes: dict[str, Any] = given if isinstance(given, dict) else {}
    pod = _field(r, "pod", "pod_name", "k8s.pod.name") or kubernetes.get("pod_name")
    namespace = _field(r, "namespace", "k8s.namespace.name") or kubernetes.get("namespace_name")
    if pod:
        resource.setdefault("k8s.pod.name", pod)
    if namespace:
        resource.setdefault("k8s.namespace.name", namespace)
    level = _field(r, "SeverityText", "severityText", "level", "severity", "lvl", "log.level")
    if level is None:  # Elastic Common Schema (Filebeat): ``{"log": {"level": "error"}}``
        level = _nested(r, "log", "level")
    body = _field(r, "Body", "body", "message", "msg", "log", "MESSAGE")
    if body is None:
        body = json.dumps(r)  # a record with no message field: the whole record is the message
    service = _field(
        r, "ServiceName", "service_name", "service.name", "service", "app"
    ) or resource.get("service.name")
    if isinstance(service, dict):  # Elastic Common Schema: ``{"service": {"name": "cart"}}``
        service = service.get("name")
    service = service or (kubernetes.get("labels") or {}).get("app")
    return {
        "Timestamp": _time_text(
            _field(r, "Timestamp", "timestamp", "time", "ts", "@timestamp", "timeUnixNano")
        ),
        "TraceId": _field(r, "TraceId", "traceId", "trace_id") or "",
        "SpanId": _field(r, "SpanId", "spanId", "span_id") or "",
        "SeverityText": str(level or "").upper(),
        "SeverityNumber": _field(r, "SeverityNumber", "severityNumber")
        or _LEVELS.get(str(level or "").upper(), ""),
        "ServiceName": service or _service_of_file(source),
        "Body": body if isinstance(body, str) else json.dumps(body),
        "ResourceAttributes": resource,
        "LogAttributes": {},
    }


def _service_of_file(source: Path) -> str:
    """A per-service log file (``cart.log``) names its service; the generic names do not."""
    stem = source.name.split(".")[0]
    return "" if "log" in stem.lower() else stem


_PLAIN = re.compile(
    r"^\[?(?P<ts>\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\]?"
    r"\s*(?:\[?(?P<level>TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\]?:?)?\s*"
    r"(?:\[(?P<service>[\w.-]+)\]:?\s*)?(?P<body>.*)$",
    re.IGNORECASE,
)


def _plain_log_rows(source: Path, text: str) -> Iterator[dict[str, Any]]:
    """Plain-text lines that start with a timestamp; a line without one continues the record
    before it (a stack trace). Text with no timestamped line at all is refused."""
    current: dict[str, Any] | None = None
    default_service = _service_of_file(source)
    for line in text.splitlines():
        m = _PLAIN.match(line.strip())
        if m:
            if current is not None:
                yield current
            level = (m.group("level") or "").upper()
            current = {
                "Timestamp": _time_text(m.group("ts").replace(",", ".")),
                "SeverityText": level,
                "SeverityNumber": _LEVELS.get(level, ""),
                "ServiceName": m.group("service") or default_service,
                "Body": m.group("body"),
                "ResourceAttributes": {},
                "LogAttributes": {},
            }
        elif current is not None and line.strip():
            current["Body"] += " " + line.strip()
    if current is not None:
        yield current
    else:
        raise InputError(
            f"{source}: not readable as logs: neither a TSV with a Body header, JSON (lines) nor "
            "text lines starting with a timestamp"
        )


def _k8s_row(source: Path, r: dict[str, Any], kind: str) -> dict[str, Any]:
    """An event or object record as a Timestamp/Body row: a watch event ``{type, object}``, a
    record wrapping the object with its observation time, or the bare object."""
    obj = r.get("object") if isinstance(r.get("object"), dict) else None
    wrapper_time = _field(r, "Timestamp", "timestamp", "time", "observed_at", "observedAt")
    if obj is None and isinstance(r.get("body"), dict | str):
        obj = r["body"] if isinstance(r["body"], dict) else json.loads(r["body"])
    if obj is None and isinstance(r.get("Body"), dict | str):
        obj = r["Body"] if isinstance(r["Body"], dict) else json.loads(r["Body"])
    obj = obj if obj is not None else r
    if kind == "events":
        when = wrapper_time or _field(
            obj, "lastTimestamp", "eventTime", "firstTimestamp", "deprecatedLastTimestamp"
        )
        when = when or (obj.get("metadata") or {}).get("creationTimestamp")
        body = {"object": obj, "type": r.get("type") or "ADDED"}
    else:
        meta = obj.get("metadata") or {}
        managed = [m.get("time") for m in meta.get("managedFields") or [] if m.get("time")]
        removed = obj is not r and r.get("type") == "DELETED"
        when = wrapper_time or (meta.get("deletionTimestamp") if removed else None)
        when = when or (max(managed) if managed else meta.get("creationTimestamp"))
        # a watch event's removal stays one (the index keeps it apart from the observations);
        # any other record is the object as observed
        body = {"object": obj, "type": "DELETED"} if removed else obj
    stamp = _time_text(when)
    if stamp is None:
        what = f"{obj.get('kind', '?')}/{(obj.get('metadata') or {}).get('name', '?')}"
        raise InputError(f"{source}: {kind} record {what} has no time (no timestamp field)")
    return {"Timestamp": stamp, "Body": body}
