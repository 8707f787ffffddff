"""What the tools share: time parsing, entity references, the table envelope and its query."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import duckdb
from pydantic import BaseModel, ConfigDict, Field

from itbench.errors import UsageError


class ToolArgs(BaseModel):
    """Arguments of one tool; unknown arguments are an error naming them."""

    model_config = ConfigDict(extra="forbid")


class ToolResult(BaseModel):
    """A tool's answer. ``warnings`` say what was skipped (malformed rows, unreadable files)."""

    model_config = ConfigDict(extra="allow")

    warnings: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, the text agents read, its argument model and its implementation."""

    name: str
    description: str
    args: type[ToolArgs]
    run: Callable[[Any], ToolResult]
    #: the arguments naming snapshot files, with the path inside a snapshot each defaults to
    snapshot_paths: dict[str, str] = None  # type: ignore[assignment]


def parse_time(value: str | None, field: str = "time") -> datetime | None:
    """An ISO 8601 time (naive means UTC) as a naive UTC datetime, as the indexes store them."""
    if value is None or value == "":
        return None
    text = value.strip().replace(" ", "T")
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(
            f"{field}: {value!r} is not an ISO 8601 time (e.g. 2025-12-12T02:30:00Z)"
        ) from None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(UTC).replace(tzinfo=None)
    return parsed


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$")


def parse_duration(value: str | int | float, field: str = "delta_time") -> timedelta:
    """``"5m"``, ``"90s"``, ``"1h"``, or a number of minutes."""
    if isinstance(value, int | float):
        return timedelta(minutes=value)
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
    ref: EntityRef, candidates: Sequence[tuple[str | None, str | None, str | None]]
) -> tuple[list[int], bool]:
    """Indexes of the candidates that match exactly, else of those matching as a substring;
    the flag says whether the substring fallback was used."""
    exact = [i for i, c in enumerate(candidates) if ref.exact(*c)]
    if exact:
        return exact, False
    return [i for i, c in enumerate(candidates) if ref.loose(*c)], True


def glob_match(pattern: str, text: str) -> bool:
    return fnmatch.fnmatchcase(text.lower(), pattern.lower())


def quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


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
    limit: int,
    offset: int,
    time_column: str,
    params: list[Any] | None = None,
) -> dict[str, Any]:
    """filter -> group_by -> agg -> sort -> page over ``relation`` (SQL yielding ``columns``);
    returns ``{total_count, offset, limit, returned_count, data}`` as the original tools do."""
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
        rest = [quote_ident(c) for c in known if c not in groups]
        t = quote_ident(time_column)
        if agg == "count":
            select, out_columns = "count(*) AS count", [*groups, "count"]
        elif agg in ("first", "last"):
            fn = "arg_min" if agg == "first" else "arg_max"
            select = ", ".join(f"{fn}({c}, {t}) AS {c}" for c in rest)
            out_columns = [*groups, *(c for c in known if c not in groups)]
        elif agg == "nunique":
            select = ", ".join(f"count(DISTINCT {c}) AS {c}" for c in rest)
            out_columns = [*groups, *(c for c in known if c not in groups)]
        elif agg == "list":
            select = ", ".join(f"list({c} ORDER BY {t}) AS {c}" for c in rest)
            out_columns = [*groups, *(c for c in known if c not in groups)]
        else:
            raise UsageError(f"{what}: agg {agg!r} is not one of count, first, last, nunique, list")
        base = f"SELECT {', '.join(keys)}, {select} FROM ({base}) g GROUP BY ALL"
        if sort_by is None and agg == "count":
            sort_by = "count"
    total = con.execute(f"SELECT count(*) FROM ({base}) c", params).fetchone()[0]
    order = ""
    if sort_by:
        if sort_by not in out_columns:
            raise UsageError(
                f"{what}: sort_by names unknown column {sort_by!r}; columns: {', '.join(out_columns)}"
            )
        order = f" ORDER BY {quote_ident(sort_by)} DESC NULLS LAST"
    elif time_column in out_columns:
        order = f" ORDER BY {quote_ident(time_column)}"
    page = (
        f"{base}{order} LIMIT {int(limit)} OFFSET {int(offset)}"
        if limit
        else f"{base}{order} OFFSET {int(offset)}"
    )
    cur = con.execute(page, params)
    names = [d[0] for d in cur.description]
    data = [{n: _plain(v) for n, v in zip(names, row, strict=True)} for row in cur.fetchall()]
    return {
        "total_count": total,
        "offset": offset,
        "limit": limit,
        "returned_count": len(data),
        "data": data,
    }


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
