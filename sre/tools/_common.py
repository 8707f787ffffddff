"""What the tools share: time parsing, entity references, the table envelope and its query."""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import duckdb
from pydantic import BaseModel, ConfigDict, Field, model_validator

from itbench.errors import UsageError
from sre.snapshot import epoch


class ToolArgs(BaseModel):
    """Arguments of one tool; unknown arguments are an error naming them."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _epoch_times(cls, data: Any) -> Any:
        """A time given as a number (an epoch number in s, ms, µs or ns) reads as its text, which
        :func:`parse_time` understands; the original accepts only ISO strings."""
        if isinstance(data, dict):
            return {
                k: str(v)
                if k.endswith("_time") and isinstance(v, int | float) and not isinstance(v, bool)
                else v
                for k, v in data.items()
            }
        return data


class ToolResult(BaseModel):
    """A tool's answer. :meth:`answer` is the original tool's shape; ``warnings`` (what was skipped,
    a window outside the data, a fallback taken) are what ours knows more, kept out of that shape:
    the MCP server sends them in the result's ``_meta``, the CLI on stderr."""

    model_config = ConfigDict(extra="allow")

    warnings: list[str] = Field(default_factory=list, exclude=True)

    def answer(self) -> Any:
        """The JSON-ready answer, in the original tool's shape (a list for some tools)."""
        return self.model_dump(mode="json", by_alias=True)


@dataclass(frozen=True)
class ToolAnswer:
    """What a tool call returns through every door (library, CLI, MCP, the llm agent)."""

    #: the original tool's shape, exactly (extra keys only where the original has none of them)
    body: Any
    warnings: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The body as the original server's text content: JSON, or its sentence as is."""
        return answer_text(self.body)


def answer_text(body: Any) -> str:
    """A tool's answer as text: the original server sends JSON, and a few answers (build_topology's
    summary, a not-found) as plain sentences."""
    return body if isinstance(body, str) else json.dumps(body, default=str)


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, the text agents read, its argument model and its implementation."""

    name: str
    description: str
    args: type[ToolArgs]
    run: Callable[[Any], ToolResult]
    #: the arguments naming snapshot files, with the path inside a snapshot each defaults to
    snapshot_paths: dict[str, str] | None = None


def parse_time(value: str | None, field: str = "time") -> datetime | None:
    """A time as a naive UTC datetime, as the indexes store them. Every form the original tools
    accept (ISO 8601 with ``Z``, an offset or none — naive means UTC —, ``T`` or a space, with or
    without fractions), plus an epoch number in seconds, milliseconds, microseconds or
    nanoseconds, told by its size as the snapshot files' own epoch numbers are
    (:mod:`sre.snapshot.epoch`). The original refuses every number (``fromisoformat`` raises);
    ours reads them because the timestamps an agent copies from the files may be epoch numbers."""
    if value is None or value == "":
        return None
    if epoch.TEXT.match(value):
        ns = epoch.epoch_ns(float(value))
        moment = datetime.fromtimestamp(ns // 1_000_000_000, UTC).replace(tzinfo=None)
        return moment + timedelta(microseconds=round((ns % 1_000_000_000) / 1000))
    text = value.strip().replace(" ", "T")
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(
            f"{field}: {value!r} is not an ISO 8601 time (e.g. 2025-12-12T02:30:00Z) nor "
            "an epoch number (seconds, ms, µs or ns)"
        ) from None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(UTC).replace(tzinfo=None)
    return parsed


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$")


def parse_duration(value: str | int | float, field: str = "delta_time") -> timedelta:
    """``"5m"``, ``"90s"``, ``"1h"``, ``"2d"`` (the original's forms), ``"500ms"``, or a number
    of minutes; empty is the original's default, five minutes."""
    if isinstance(value, int | float):
        return timedelta(minutes=value)
    if not value.strip():
        return timedelta(minutes=5)
    m = _DURATION.match(value)
    if not m:
        raise UsageError(f"{field}: {value!r} is not a duration such as 5m, 90s or 1h")
    n, unit = float(m.group(1)), m.group(2) or "m"
    return {
        "ms": timedelta(milliseconds=n),
        "s": timedelta(seconds=n),
        "m": timedelta(minutes=n),
        "h": timedelta(hours=n),
        "d": timedelta(days=n),
    }[unit]


def window_warning(
    what: str,
    start: datetime | None,
    end: datetime | None,
    first: datetime | None,
    last: datetime | None,
) -> str | None:
    """A sentence when ``[start, end]`` misses the data's ``[first, last]`` (an empty answer would
    otherwise look like a quiet system), else None."""
    if start is None and end is None:
        return None
    if first is None or last is None:
        return f"the window {_span(start, end)} was asked of {what} holding no timestamps"
    if (start is not None and start > last) or (end is not None and end < first):
        return (
            f"the window {_span(start, end)} lies outside {what} "
            f"({iso(first)} to {iso(last)}): nothing in it"
        )
    return None


def _span(start: datetime | None, end: datetime | None) -> str:
    return f"{iso(start) or '(open)'} to {iso(end) or '(open)'}"


def iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat() + "Z"


@dataclass(frozen=True)
class EntityRef:
    """``namespace/Kind/name``, ``Kind/name`` or ``name`` as agents write them."""

    namespace: str | None
    kind: str | None
    name: str

    @classmethod
    def parse(cls, text: str) -> EntityRef:
        parts = [p for p in text.strip().split("/") if p != ""]
        if len(parts) >= 3:
            return cls(parts[0], parts[1], "/".join(parts[2:]))
        if len(parts) == 2:
            return cls(None, parts[0], parts[1])
        if len(parts) == 1:
            return cls(None, None, parts[0])
        raise UsageError(f"entity reference {text!r} is empty; use namespace/Kind/name")

    def exact(self, namespace: str | None, kind: str | None, name: str | None) -> bool:
        def eq(a: str | None, b: str | None) -> bool:
            return a is None or (b or "").lower() == a.lower()

        return eq(self.kind, kind) and eq(self.namespace, namespace) and eq(self.name, name)

    def loose(self, namespace: str | None, kind: str | None, name: str | None) -> bool:
        """The fallback when nothing matches exactly: the name as a substring."""
        return (
            self.kind is None or (kind or "").lower() == self.kind.lower()
        ) and self.name.lower() in (name or "").lower()


def match_entities(
    ref: EntityRef,
    candidates: Sequence[tuple[str | None, str | None, str | None]],
    *,
    in_entity_id: bool = False,
) -> tuple[list[int], bool]:
    """Indexes of the candidates that match exactly, else of those matching as a substring;
    the flag says whether the substring fallback was used. ``in_entity_id``: when the name of the
    kind asked matches nothing either, the name is looked for in the whole ``namespace/kind/name``
    whatever the kind, as the original's object tools do (asked for ``shop/Service/ledger``
    where only the Deployment ``ledger`` exists, they answer the Deployment and its pods)."""
    exact = [i for i, c in enumerate(candidates) if ref.exact(*c)]
    if exact:
        return exact, False
    loose = [i for i, c in enumerate(candidates) if ref.loose(*c)]
    if in_entity_id and not loose:
        term = ref.name.lower()
        loose = [
            i for i, (ns, kind, name) in enumerate(candidates)
            if term in f"{ns or ''}/{kind or ''}/{name or ''}".lower()
        ]  # fmt: skip
    return loose, True


def glob_match(pattern: str, text: str) -> bool:
    return fnmatch.fnmatchcase(text.lower(), pattern.lower())


def quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def pandas_time(value: datetime) -> str:
    """A time as the original's pandas columns print it (``str(Timestamp)``): naive UTC with a
    space, ``2025-12-12 02:25:00``; ``utc=True`` adds ``+00:00`` as a tz-aware column does."""
    return str(value)


def table_query(
    con: duckdb.DuckDBPyConnection,
    relation: str,
    columns: Sequence[str],
    *,
    what: str,
    filters: dict[str, Any] | None,
    group_by: str | list[str] | None,
    agg: str,
    sort_by: str | None,
    limit: int | None,
    offset: int,
    time_column: str,
    params: list[Any] | None = None,
    numeric: Sequence[str] = (),
    listed: Sequence[str] | None = None,
    stamp: Callable[[datetime], str] = pandas_time,
    ascending: Sequence[str] = (),
) -> dict[str, Any]:
    """filter -> group_by -> agg -> sort -> page over ``relation`` (SQL yielding ``columns``);
    returns ``{total_count, offset, limit, returned_count, data}`` as the original tools do
    (``limit`` is ``"all"`` when none was asked). ``nunique`` names its columns ``<col>_unique``;
    ``list`` lists the distinct values (at most 10) of the ``listed`` columns; sum, mean, max and
    min aggregate the ``numeric`` columns. ``sort_by`` sorts descending, except for the columns
    in ``ascending``."""
    params = list(params or [])
    known = list(columns)

    def column(name: str, field: str) -> str:
        if name not in known:
            raise UsageError(
                f"{what}: {field} names unknown column {name!r}; columns: {', '.join(known)}"
            )
        return quote_ident(name)

    where = []
    for key, value in (filters or {}).items():
        col = column(key, "filters")
        if isinstance(value, list):
            where.append(f"CAST({col} AS VARCHAR) IN ({', '.join('?' for _ in value)})")
            params.extend(str(v) for v in value)
        elif value is None:
            where.append(f"{col} IS NULL")
        else:
            where.append(f"CAST({col} AS VARCHAR) = ?")
            params.append(str(value))
    base = f"SELECT * FROM ({relation}) r" + (f" WHERE {' AND '.join(where)}" if where else "")
    groups = [group_by] if isinstance(group_by, str) else list(group_by or [])
    out_columns = known
    if groups:
        keys = [column(g, "group_by") for g in groups]
        rest = [c for c in known if c not in groups]
        t = quote_ident(time_column)
        q = quote_ident
        if agg == "count":
            select, out_columns = "count(*) AS count", [*groups, "count"]
        elif agg in ("first", "last"):
            fn = "arg_min" if agg == "first" else "arg_max"
            select = ", ".join(f"{fn}({q(c)}, {t}) AS {q(c)}" for c in rest)
            out_columns = [*groups, *rest]
        elif agg == "nunique":
            select = ", ".join(f"count(DISTINCT {q(c)}) AS {q(c + '_unique')}" for c in rest)
            out_columns = [*groups, *(c + "_unique" for c in rest)]
        elif agg == "list":
            shown = [c for c in (rest if listed is None else listed) if c in rest]
            select = (
                ", ".join(
                    f"list_slice(list_distinct(list({q(c)} ORDER BY {t})), 1, 10) AS {q(c)}"
                    for c in shown
                )
                or "count(*) AS count"
            )
            out_columns = [*groups, *shown] if shown else [*groups, "count"]
        elif agg in ("sum", "mean", "max", "min") and numeric:
            fn = {"mean": "avg"}.get(agg, agg)
            shown = [c for c in numeric if c in rest]
            select = ", ".join(f"{fn}({q(c)}) AS {q(c)}" for c in shown)
            out_columns = [*groups, *shown]
        else:
            kinds = "count, first, last, nunique, list" + (
                ", sum, mean, max, min" if numeric else ""
            )
            raise UsageError(f"{what}: agg {agg!r} is not one of {kinds}")
        base = f"SELECT {', '.join(keys)}, {select} FROM ({base}) g GROUP BY ALL"
        if sort_by is None and agg == "count":
            sort_by = "count"
        elif sort_by is None and agg in ("sum", "mean", "max", "min") and "value" in out_columns:
            sort_by = "value"
    total = con.execute(f"SELECT count(*) FROM ({base}) c", params).fetchall()[0][0]
    order = ""
    if sort_by:
        if sort_by not in out_columns:
            raise UsageError(
                f"{what}: sort_by names unknown column {sort_by!r}; columns: {', '.join(out_columns)}"
            )
        way = "ASC" if sort_by in ascending else "DESC"
        order = f" ORDER BY {quote_ident(sort_by)} {way} NULLS LAST"
    elif time_column in out_columns:
        order = f" ORDER BY {quote_ident(time_column)}"
    page = (
        f"{base}{order} LIMIT {int(limit)} OFFSET {int(offset)}"
        if limit
        else f"{base}{order} OFFSET {int(offset)}"
    )
    cur = con.execute(page, params)
    names = [d[0] for d in cur.description]
    data = [
        {n: _plain(v, stamp) for n, v in zip(names, row, strict=True)} for row in cur.fetchall()
    ]
    return {
        "total_count": total,
        "offset": offset,
        "limit": limit or "all",
        "returned_count": len(data),
        "data": data,
    }


def _plain(value: Any, stamp: Callable[[datetime], str] = pandas_time) -> Any:
    if isinstance(value, datetime):
        return stamp(value)
    if isinstance(value, list):
        return [_plain(v, stamp) for v in value]
    return value
