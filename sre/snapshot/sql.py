"""The DuckDB statements that turn one raw snapshot file into its indexed table ``data``, the
table ``problems`` (file, line, message) of the rows that had to be skipped and, for objects, the
table ``deletions`` of the removals a watch export reports."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from pathlib import Path

import duckdb

from itbench.errors import InputError
from sre.snapshot import epoch

#: the longest line (so the largest cell) a snapshot file is read with: an object's manifest
#: runs to megabytes
MAX_LINE = 8 * 1024 * 1024
_CSV = (
    "delim='\t', header=true, strict_mode=false, auto_detect=false, "
    f"max_line_size={MAX_LINE}, buffer_size={4 * MAX_LINE}"
)
#: ClickHouse exports are tab separated with JSON bodies unquoted; quoting is off so a body's own
#: quotes are data. A CSV-quoted body (``"{""a"": 1}"``) is undone by ``body_json`` instead.
_UNQUOTED = "quote='', escape=''"
#: a file whose every field is quoted: a quote opens and closes a field and a doubled one is data,
#: so the CSV reader's own quoting reads it, a field holding a tab or a line break included
_QUOTED = "quote='\"', escape='\"'"

MACROS = [
    # Timestamps arrive as "2025-12-12 02:10:00.123456789", ISO with T and Z, or with +00:00;
    # DuckDB keeps microseconds, which is finer than any tool needs.
    # An epoch number (exporters that write Prometheus' or OTLP's own numbers) is told by its
    # size: epoch.py holds the thresholds (s/ms/µs/ns) and the digit counts, for every reader.
    epoch.sql_macro(),
    rf"""CREATE OR REPLACE MACRO parse_ts(x) AS
        CASE WHEN regexp_full_match(trim(x), '{epoch.SQL_TEXT}')
             THEN epoch_ts(CAST(trim(x) AS DOUBLE))
             ELSE try_cast(regexp_replace(replace(trim(x), 'T', ' '), '(Z|[+-]00:?00)$', '')
                           AS TIMESTAMP) END""",
    # A body as a JSON object text, or NULL: plain JSON; JSON double-encoded as a JSON string;
    # a CSV-quoted field with doubled quotes; doubled quotes alone.
    r"""CREATE OR REPLACE MACRO unquote_csv(b) AS
        CASE WHEN starts_with(b, '"') AND ends_with(b, '"') AND length(b) > 1
             THEN replace(b[2:-2], '""', '"') ELSE replace(b, '""', '"') END""",
    r"""CREATE OR REPLACE MACRO body_json1(b) AS
        CASE WHEN json_valid(b) AND json_type(b) = 'VARCHAR' THEN json_extract_string(b, '$')
             WHEN json_valid(b) THEN b
             WHEN json_valid(unquote_csv(b)) THEN unquote_csv(b)
             ELSE NULL END""",
    r"""CREATE OR REPLACE MACRO body_json(b) AS
        CASE WHEN json_valid(body_json1(b)) AND json_type(body_json1(b)) = 'OBJECT'
             THEN body_json1(b)
             WHEN json_valid(body_json1(body_json1(b)))
                  AND json_type(body_json1(body_json1(b))) = 'OBJECT'
             THEN body_json1(body_json1(b))
             ELSE NULL END""",
    # A body as the original tools' reader sees it: the cell as pandas hands it over, one pair
    # of outer quotes stripped and every doubled quote halved, parsed (and parsed again when that
    # gives a string); NULL when that fails, so a body stored as a JSON string (``"{\"kind\":
    # ...}"``) or holding an empty string (``""`` halved) is one the original never reads.
    r"""CREATE OR REPLACE MACRO original_text(t) AS unquote_csv(trim(t))""",
    r"""CREATE OR REPLACE MACRO original_object(o) AS
        CASE WHEN NOT coalesce(json_valid(o), false) THEN NULL
             WHEN json_type(o) = 'OBJECT' THEN o
             WHEN json_type(o) = 'VARCHAR' AND json_valid(json_extract_string(o, '$'))
                  AND json_type(json_extract_string(o, '$')) = 'OBJECT'
             THEN json_extract_string(o, '$') END""",
    # the original keeps a row of a raw objects export only when that body names its kind and
    # name at the top (a watch event's wrapped object is not read)
    r"""CREATE OR REPLACE MACRO original_reads(t) AS
        coalesce(json_extract_string(original_object(original_text(t)), '$.kind'), '') <> ''
        AND coalesce(json_extract_string(original_object(original_text(t)), '$.metadata.name'),
                     '') <> ''""",
    # a CSV-quoted cell's text, as a CSV reader (pandas) hands it over; other text as it is
    r"""CREATE OR REPLACE MACRO csv_cell(b) AS
        CASE WHEN starts_with(b, '"') AND ends_with(b, '"') AND length(b) > 1
             THEN replace(b[2:-2], '""', '"') ELSE b END""",
    # a watch event (``{"type": "MODIFIED", "object": {...}}``, as a k8sobjects receiver in
    # watch mode writes it) is the object it carries; a plain object stays as it is
    r"""CREATE OR REPLACE MACRO watch_event(b) AS
        json_exists(b, '$.object.kind') AND NOT json_exists(b, '$.kind')""",
    r"""CREATE OR REPLACE MACRO watched_object(b) AS
        CASE WHEN watch_event(b) THEN json_extract(b, '$.object')::VARCHAR ELSE b END""",
    # owner of a pod or replica set by the names controllers generate ("checkout-6f7b9c-x2k4q")
    r"""CREATE OR REPLACE MACRO deployment_of(kind, name) AS
        CASE WHEN kind = 'Pod' THEN regexp_replace(name, '-[a-z0-9]{1,10}-[a-z0-9]{5}$', '')
             WHEN kind = 'ReplicaSet' THEN regexp_replace(name, '-[a-z0-9]{1,10}$', '')
             WHEN kind = 'Deployment' THEN name ELSE NULL END""",
    # variable parts of a log line, masked once at index time so pattern mining groups in SQL
    r"""CREATE OR REPLACE MACRO mask_log(b) AS
        regexp_replace(regexp_replace(regexp_replace(regexp_replace(b,
          '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}', '<UUID>', 'g'),
          '\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b', '<IP>', 'g'),
          '\b(0x[0-9a-fA-F]+|[0-9a-fA-F]*[0-9][0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*|[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*[0-9][0-9a-fA-F]*)\b', '<HEX>', 'g'),
          '\b\d+(\.\d+)?\b', '<NUM>', 'g')""",
    # the service a client span calls, from peer.service or a host name: "basket:8080",
    # "basket.shop.svc.cluster.local" and "basket" are all basket; an IP address stays as it is
    r"""CREATE OR REPLACE MACRO peer_name(p) AS
        CASE WHEN p IS NULL THEN NULL
             WHEN regexp_matches(regexp_replace(p, ':\d+$', ''), '^[0-9.]+$|^\[?[0-9a-fA-F:]+\]?$')
             THEN regexp_replace(p, ':\d+$', '')
             ELSE split_part(regexp_replace(p, ':\d+$', ''), '.', 1) END""",
    # the host of a URL (an HTTP client span of older semantic conventions names its callee
    # only in ``http.url``, a newer one also in ``url.full``)
    r"""CREATE OR REPLACE MACRO url_host(u) AS
        nullif(regexp_extract(u, '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/@]*@)?([^/:?#]+)', 1), '')""",
    # a label out of a JSON or Python-dict attribute string (CSV-doubled quotes too), without
    # evaluating it
    r"""CREATE OR REPLACE MACRO attr(s, key) AS
        nullif(regexp_extract(s, '[''"]+' || key || '[''"]+\s*:\s*[''"]+([^''"]*)[''"]', 1), '')""",
]


def create_macros(con: duckdb.DuckDBPyConnection) -> None:
    for statement in MACROS:
        con.execute(statement)


def unquote(text: str | None) -> str | None:
    """A CSV-quoted field (``"{""k"":""v""}"``) as its text; any other text as it is."""
    if text and len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1].replace('""', '"')
    return text


def header_columns(path: Path) -> list[str]:
    """The header's column names (quotes removed): read directly, so DuckDB never has to sniff a
    dialect from rows that may be malformed; the tools read a file's layout from it too.

    A field with no name (the row index pandas' ``to_csv`` writes first) is named as pandas'
    reader names it, ``Unnamed: <position>``: the original tools read such files through pandas,
    and DuckDB refuses a column whose name is empty."""
    return [
        str(unquote(name)) or f"Unnamed: {position}"
        for position, name in enumerate(_header_fields(path))
    ]


def _header_fields(path: Path) -> list[str]:
    """The header's fields as written (quotes kept). A UTF-8 byte order mark before the first
    name (Excel and pandas' ``encoding="utf-8-sig"`` write one) is not part of it: pandas, which
    the original tools read with, drops it, and a kept one hides the first column."""
    with path.open("rb") as f:
        header = f.readline(1 << 20).decode("utf-8-sig", "replace").rstrip("\r\n")
    return [name.strip() for name in header.split("\t")]


def _csv_quoted(path: Path) -> bool:
    """Every field of the file is CSV-quoted (``"Timestamp"\t"Body"`` header, ``"{""a"": 1}"``
    bodies): an exporter writing TSV through a CSV writer that quotes all fields."""
    return all(unquote(name) != name for name in _header_fields(path))


#: what DuckDB's readers take as a glob, not as part of a file's name
GLOB_CHARACTERS = frozenset("*?[")


def _reader(path: Path, columns: Sequence[str], rejects: str = "rej") -> str:
    # read_csv('dir/*events*.tsv') reads every file the pattern matches: a name with a glob
    # character (one an agent made in its workspace) would have the tools read files beside it
    # that no check looked at, a link to anywhere among them
    if GLOB_CHARACTERS & set(str(path)):
        raise InputError(
            f"{path}: a file name with * ? or [ is not read (DuckDB reads it as a glob)"
        )
    spec = "{" + ", ".join(f"'{_lit(c)}': 'VARCHAR'" for c in columns) + "}"
    quoting = _QUOTED if _csv_quoted(path) else _UNQUOTED
    return (
        f"read_csv('{_lit(path)}', {_CSV}, {quoting}, columns={spec}, store_rejects=true, "
        f"rejects_table='{rejects}', rejects_scan='{rejects}_scan')"
    )


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _lit(path: Path | str) -> str:
    return str(path).replace("'", "''")


def _col(columns: Sequence[str], *names: str) -> str:
    """The first of ``names`` the file has (case-insensitive), quoted; NULL when none."""
    lower = {c.lower(): c for c in columns}
    for n in names:
        if n.lower() in lower:
            return _ident(lower[n.lower()])
    return "NULL"


def _select(kind: str, cols: Sequence[str], quoted: bool = False) -> tuple[str, str]:
    """(the typed projection over ``src``, the condition a row must meet to be kept);
    ``quoted``: the reader has unquoted every cell already (``_csv_quoted``)."""
    c = lambda *n: _col(cols, *n)  # noqa: E731 - a local shorthand read a dozen times below
    ts = c("Timestamp", "timestamp", "time")
    if kind == "events":
        paths = [
            "$.object.involvedObject.kind", "$.object.regarding.kind", "$.involvedObject.kind",
            "$.object.involvedObject.name", "$.object.regarding.name", "$.involvedObject.name",
            "$.object.involvedObject.namespace", "$.object.regarding.namespace",
            "$.object.metadata.namespace", "$.object.reason", "$.object.message", "$.object.note",
            "$.object.lastTimestamp", "$.object.eventTime", "$.object.firstTimestamp",
            "$.object.type", "$.type", "$.object.count", "$.object.deprecatedCount",
            "$.object.source.component", "$.object.reportingController",
            "$.involvedObject.namespace", "$.reason", "$.message", "$.lastTimestamp",
            "$.count", "$.source.component",
        ]  # fmt: skip
        body = c("Body", "body")
        proj = f"""
          SELECT ord, ts, b AS body,
            coalesce(f[1], f[2], f[3]) AS object_kind,
            coalesce(f[4], f[5], f[6]) AS object_name,
            coalesce(f[7], f[8], f[9], f[22]) AS namespace,
            coalesce(f[10], f[23]) AS reason,
            coalesce(f[11], f[12], f[24]) AS message,
            coalesce(parse_ts(coalesce(f[13], f[14], f[15], f[25])), ts) AS event_time,
            CASE WHEN json_exists(b, '$.object') THEN f[16] ELSE f[17] END AS event_kind,
            CASE WHEN json_exists(b, '$.object') THEN f[17] ELSE NULL END AS watch_type,
            try_cast(coalesce(f[18], f[19], f[26]) AS BIGINT) AS count,
            coalesce(f[20], f[21], f[27]) AS source_component,
            deployment_of(coalesce(f[1], f[2], f[3]), coalesce(f[4], f[5], f[6])) AS deployment,
            raw_ts AS log_timestamp, raw_ts, raw_body
          FROM (SELECT *, json_extract_string(b, {paths!r}) AS f FROM (
                SELECT ord, parse_ts({ts}) AS ts, body_json({body}) AS b,
                       {ts} AS raw_ts, {body} AS raw_body FROM src))"""
        return proj, "body IS NOT NULL AND ts IS NOT NULL"
    if kind == "objects":
        body = c("Body", "body")
        # the processed layout names kind and name in columns: the original keeps every row
        cell = body if quoted else f"csv_cell({body})"
        reads = "true" if c("object_kind") != "NULL" else f"original_reads({cell})"
        proj = f"""
          SELECT ord, ts, b AS body,
            coalesce(f[1], {c("object_kind")}) AS kind,
            coalesce(f[2], {c("object_name")}) AS name,
            f[3] AS namespace,
            -- the API server numbers its writes: two observations of one object stamped with
            -- the same time (a watch's ADDED and MODIFIED in one second) are ordered by it
            coalesce(try_cast(f[4] AS BIGINT), 0) AS version, deleted, {reads} AS original_reads,
            raw_ts, raw_body
          FROM (SELECT *, json_extract_string(b, ['$.kind', '$.metadata.name',
                                                  '$.metadata.namespace',
                                                  '$.metadata.resourceVersion']) AS f
                FROM (SELECT *, watched_object(j) AS b,
                             -- a DELETED watch event shows no object that is still there: it
                             -- is the object's removal, kept apart (``split_deletions``)
                             coalesce(watch_event(j)
                                      AND json_extract_string(j, '$.type') = 'DELETED',
                                      false) AS deleted
                      FROM (SELECT *, parse_ts({ts}) AS ts, body_json({body}) AS j,
                                   {ts} AS raw_ts, {body} AS raw_body FROM src)))"""
        return proj, "body IS NOT NULL AND ts IS NOT NULL AND kind IS NOT NULL"
    if kind == "traces":
        duration = (
            f"coalesce(try_cast({c('Duration')} AS BIGINT), "
            f"CAST(try_cast({c('duration_ms')} AS DOUBLE) * 1e6 AS BIGINT))"
        )
        proj = f"""
          SELECT ord, parse_ts({ts}) AS ts, {c("TraceId")} AS trace_id, {c("SpanId")} AS span_id,
            nullif({c("ParentSpanId")}, '') AS parent_span_id, {c("SpanName")} AS span_name,
            {c("SpanKind")} AS span_kind, {c("ServiceName")} AS service_name,
            {duration} AS duration_ns, {c("StatusCode")} AS status_code,
            {c("StatusMessage")} AS status_message,
            peer_name(coalesce(attr({c("SpanAttributes")}, 'peer\\.service'),
                     attr({c("SpanAttributes")}, 'server\\.address'),
                     attr({c("SpanAttributes")}, 'net\\.peer\\.name'),
                     url_host(attr({c("SpanAttributes")}, 'url\\.full')),
                     url_host(attr({c("SpanAttributes")}, 'http\\.url')))) AS peer_service,
            attr({c("SpanAttributes")}, 'rpc\\.service') AS rpc_service,
            {ts} AS raw_ts, NULL AS raw_body
          FROM src"""
        return proj, "ts IS NOT NULL AND trace_id IS NOT NULL AND span_id IS NOT NULL"
    if kind == "logs":
        res = c("ResourceAttributes")
        proj = f"""
          SELECT ord, parse_ts({ts}) AS ts, {c("TraceId")} AS trace_id, {c("SpanId")} AS span_id,
            {c("SeverityText")} AS severity_text,
            try_cast({c("SeverityNumber")} AS INTEGER) AS severity_number,
            {c("ServiceName")} AS service_name, {c("Body")} AS body,
            attr({res}, 'k8s\\.pod\\.name') AS pod, attr({res}, 'k8s\\.namespace\\.name') AS namespace,
            coalesce(attr({res}, 'k8s\\.deployment\\.name'),
                     deployment_of('Pod', attr({res}, 'k8s\\.pod\\.name'))) AS deployment,
            mask_log({c("Body")}) AS template, {ts} AS raw_ts, NULL AS raw_body
          FROM src"""
        return proj, "ts IS NOT NULL AND body IS NOT NULL"
    raise ValueError(kind)


def load_table(con: duckdb.DuckDBPyConnection, path: Path, kind: str) -> None:
    cols = header_columns(path)
    # no row numbers here: numbering rows serialises and materialises the whole read; the
    # few rows that need a line number get it from a second pass (_record_problems)
    con.execute(f"CREATE TEMP VIEW src AS SELECT NULL::BIGINT AS ord, * FROM {_reader(path, cols)}")
    proj, keep = _select(kind, cols, _csv_quoted(path))
    con.execute(f"CREATE TABLE data AS {proj}")
    con.execute(
        "CREATE OR REPLACE TEMP VIEW src AS SELECT row_number() OVER () AS ord, * FROM "
        + _reader(path, cols, "rej_lines")
    )
    _record_problems(con, path, kind, keep, path.name, proj)
    if kind == "objects":
        split_deletions(con)
    if kind == "traces":
        name_rpc_callees(con)
        add_call_paths(con)


def split_deletions(con: duckdb.DuckDBPyConnection) -> None:
    """Move the objects' DELETED watch events out of ``data`` into their own table
    ``deletions`` (ts, kind, name, namespace, body: the object as it was when removed). ``data``
    holds observations of objects that are there; a removal is a change of its own (a Secret
    deleted under the pods that pull with it), which an export in watch mode states outright."""
    con.execute(
        "CREATE TABLE deletions AS SELECT ts, kind, name, namespace, body FROM data WHERE deleted"
    )
    con.execute("DELETE FROM data WHERE deleted")
    con.execute("ALTER TABLE data DROP COLUMN deleted")


def name_rpc_callees(con: duckdb.DuckDBPyConnection) -> None:
    """A gRPC client span that names its callee only by ``rpc.service``
    (``oteldemo.CartService``) calls the application whose server spans carry that
    ``rpc.service`` (the one serving it most often); when no server span does (the callee never
    answered), the service name read off the gRPC name (``CartService`` -> ``cart``,
    ``ProductCatalogService`` -> ``product-catalog``)."""
    con.execute(
        """UPDATE data SET peer_service = coalesce(served.service_name, lower(regexp_replace(
               regexp_replace(split_part(data.rpc_service, '.', -1), 'Service$', ''),
               '([a-z0-9])([A-Z])', '\\1-\\2', 'g')))
           FROM (SELECT DISTINCT rpc_service FROM data WHERE rpc_service IS NOT NULL) names
           LEFT JOIN (SELECT rpc_service, arg_max(service_name, n) AS service_name FROM (
                        SELECT rpc_service, service_name, count(*) AS n FROM data
                        WHERE rpc_service IS NOT NULL AND lower(span_kind) LIKE '%server%'
                        GROUP BY ALL) GROUP BY rpc_service) served USING (rpc_service)
           WHERE data.rpc_service = names.rpc_service AND data.peer_service IS NULL
             AND lower(data.span_kind) LIKE '%client%'"""
    )


def add_call_paths(con: duckdb.DuckDBPyConnection) -> None:
    """Give every span the service path from its trace's root down to it ("frontend-proxy ->
    frontend -> ad"), once at index time: walking parent links is the expensive part of the
    trace tools, and it does not depend on the window a question asks about. A client span's
    path ends at its peer (``peer.service``, else ``server.address``), so a callee that no longer
    answers still has a path. Spans are keyed by a
    64-bit hash of (trace, span) to keep the joins small. The walk goes one tree level per join (a recursive CTE keeps every
    level in memory; plain joins spill to disk), and rows are stored in time order so time
    windows skip whole row groups."""
    con.execute(
        """CREATE TEMP TABLE spans AS
        SELECT hash(trace_id, span_id) AS k,
               CASE WHEN parent_span_id IS NOT NULL THEN hash(trace_id, parent_span_id) END AS pk,
               CASE WHEN lower(span_kind) LIKE '%client%' AND peer_service IS NOT NULL
                         AND peer_service <> service_name
                    THEN [service_name, peer_service] ELSE [service_name] END AS hop
        FROM data"""
    )
    con.execute(
        """CREATE TEMP TABLE level AS
        SELECT s.k, s.hop AS path FROM spans s ANTI JOIN spans p ON p.k = s.pk"""
    )
    con.execute("CREATE TEMP TABLE paths AS SELECT * FROM level")
    for _ in range(64):  # deeper than any real call tree; also ends a parent cycle
        con.execute(
            """CREATE OR REPLACE TEMP TABLE level AS
            SELECT c.k,
                   CASE WHEN p.path[-1] = c.hop[1] THEN list_concat(p.path, c.hop[2:])
                        ELSE list_concat(p.path, c.hop) END AS path
            FROM spans c JOIN level p ON c.pk = p.k"""
        )
        if not con.execute("SELECT count(*) FROM level").fetchall()[0][0]:
            break
        con.execute("INSERT INTO paths SELECT * FROM level")
    con.execute(
        """CREATE TABLE traced AS
        SELECT d.*, p.call_path FROM data d LEFT JOIN (
          SELECT k, any_value(array_to_string(path, ' -> ')) AS call_path
          FROM paths GROUP BY k) p ON p.k = hash(d.trace_id, d.span_id)
        ORDER BY d.ts"""
    )
    for table in ("data", "spans", "level", "paths"):
        con.execute(f"DROP TABLE {table}")
    con.execute("ALTER TABLE traced RENAME TO data")


#: the problem a row of another width than the header's is reported with
WRONG_WIDTH = "wrong number of fields"


def _record_problems(
    con: duckdb.DuckDBPyConnection, path: Path, kind: str, keep: str, file_name: str, proj: str
) -> None:
    con.execute("CREATE TABLE problems (file VARCHAR, line BIGINT, message VARCHAR)")
    rejected = sorted(
        {
            line
            for (line,) in con.execute(
                "SELECT DISTINCT line FROM rej" if _has(con, "rej") else "SELECT 1 WHERE false"
            ).fetchall()
        }
    )
    if rejected:
        rows = con.execute(
            "SELECT line, any_value(error_message ORDER BY column_idx) FROM rej GROUP BY line"
        ).fetchall()
        con.executemany(
            "INSERT INTO problems VALUES (?, ?, ?)",
            [(file_name, line, f"{file_name}:{line}: {WRONG_WIDTH} ({msg})") for line, msg in rows],
        )
    bad = []
    if con.execute(f"SELECT count(*) FROM data WHERE NOT ({keep})").fetchall()[0][0]:
        con.execute("SET preserve_insertion_order = true")  # row numbers in file order
        bad = con.execute(
            f"SELECT ord, raw_ts, left(raw_body, 60) FROM ({proj}) WHERE NOT ({keep}) "
            "ORDER BY ord LIMIT 1000"
        ).fetchall()
    entries = []
    for ord_, raw_ts, raw_body in bad:
        line = _line_of(ord_, rejected)
        what = (
            f"Timestamp {raw_ts!r} is not a time"
            if raw_ts is None or _is_bad_ts(con, raw_ts)
            else f"Body is not a JSON object: {raw_body!r}"
        )
        entries.append((file_name, line, f"{file_name}:{line}: {what}"))
    if entries:
        con.executemany("INSERT INTO problems VALUES (?, ?, ?)", entries)
    con.execute(f"DELETE FROM data WHERE NOT ({keep})")
    con.execute("ALTER TABLE data DROP COLUMN raw_ts")
    con.execute("ALTER TABLE data DROP COLUMN raw_body")


def split_rows(con: duckdb.DuckDBPyConnection) -> int:
    """How many rows ``problems`` holds for a wrong number of fields."""
    if not _has(con, "problems"):
        return 0
    return con.execute(
        "SELECT count(*) FROM problems WHERE message LIKE ?", [f"%: {WRONG_WIDTH} (%"]
    ).fetchall()[0][0]


def _is_bad_ts(con: duckdb.DuckDBPyConnection, raw: str) -> bool:
    return con.execute("SELECT parse_ts(?) IS NULL", [raw]).fetchall()[0][0]


def _has(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    return bool(
        con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE table_name = ?", [table]
        ).fetchall()[0][0]
    )


def _line_of(ordinal: int, rejected: Sequence[int]) -> int:
    """The file line of the ``ordinal``-th accepted row (1-based), given the rejected lines: line 1
    is the header, and every rejected line at or before the answer shifts it by one."""
    line = ordinal + 1
    while True:
        shifted = ordinal + 1 + bisect.bisect_right(rejected, line)
        if shifted == line:
            return line
        line = shifted


#: the optional columns of a metrics file, as the index names them, and their spellings
METRIC_OPTIONAL_COLUMNS = {
    "pod_name": ("pod_name",),
    "namespace": ("namespace",),
    "service_name": ("service_name",),
    "status_code": ("status_code",),
    "bucket_le": ("bucket_le", "le"),
}


def load_metrics(con: duckdb.DuckDBPyConnection, files: Sequence[Path]) -> None:
    """All ``metrics/<kind>_<name>.tsv`` files as one table, with the object each belongs to."""
    con.execute("SET preserve_insertion_order = true")  # small files; row numbers in file order
    con.execute(
        "CREATE TABLE data (file VARCHAR, object_kind VARCHAR, object_name VARCHAR, "
        "metric_name VARCHAR, ts TIMESTAMP, value DOUBLE, tags VARCHAR, pod_name VARCHAR, "
        "namespace VARCHAR, service_name VARCHAR, bucket_le VARCHAR, status_code VARCHAR, "
        "extra VARCHAR)"
    )
    con.execute("CREATE TABLE problems (file VARCHAR, line BIGINT, message VARCHAR)")
    # the optional columns each file's header has, even where every value is empty: the
    # original's answers carry a column its files have (as null), not only one with values
    con.execute("CREATE TABLE file_columns (file VARCHAR, name VARCHAR)")
    # the columns a file has beyond the ones the tools read (a pandas row index, an exporter's
    # own): the original's rows carry every column of the file, so ours keep them, as text in
    # ``data.extra`` and typed as pandas types the column (``file_extras.type``)
    con.execute(
        "CREATE TABLE file_extras (file VARCHAR, name VARCHAR, position INTEGER, type VARCHAR)"
    )
    for f in files:
        cols = header_columns(f)
        extras = _metric_extras(cols)
        kind, _, name = f.stem.partition("_")
        for column, spellings in METRIC_OPTIONAL_COLUMNS.items():
            if _col(cols, *spellings) != "NULL":
                con.execute("INSERT INTO file_columns VALUES (?, ?)", [f.name, column])
        c = lambda *n, cols=cols: _col(cols, *n)  # noqa: E731 - shorthand, as in _select
        con.execute("DROP TABLE IF EXISTS rej")
        con.execute("DROP TABLE IF EXISTS rej_scan")
        reader = _reader(f, cols)
        con.execute(
            f"CREATE OR REPLACE TEMP VIEW src AS SELECT row_number() OVER () AS ord, * FROM {reader}"
        )
        con.execute(
            f"""CREATE OR REPLACE TEMP TABLE staged AS
            SELECT ord, '{_lit(f.name)}' AS file, '{_lit(kind)}' AS object_kind,
              '{_lit(name)}' AS object_name, {c("metric_name")} AS metric_name,
              parse_ts({c("timestamp", "Timestamp")}) AS ts, try_cast({c("value")} AS DOUBLE) AS value,
              {c("tags")} AS tags, {c("pod_name")} AS pod_name, {c("namespace")} AS namespace,
              {c("service_name")} AS service_name, {c("bucket_le", "le")} AS bucket_le,
              {c("status_code")} AS status_code, {_extra_object(extras)} AS extra,
              {c("timestamp", "Timestamp")} AS raw_ts, {c("value")} AS raw_body
            FROM src"""
        )
        _record_extras(con, f.name, cols, extras)
        keep = "ts IS NOT NULL AND value IS NOT NULL AND metric_name IS NOT NULL"
        rejected = sorted(n for (n,) in con.execute("SELECT DISTINCT line FROM rej").fetchall())
        for line, msg in con.execute(
            "SELECT line, any_value(error_message) FROM rej GROUP BY line"
        ).fetchall():
            con.execute(
                "INSERT INTO problems VALUES (?, ?, ?)",
                [f.name, line, f"{f.name}:{line}: {WRONG_WIDTH} ({msg})"],
            )
        for ord_, raw_ts, raw_value in con.execute(
            f"SELECT ord, raw_ts, raw_body FROM staged WHERE NOT ({keep}) ORDER BY ord LIMIT 1000"
        ).fetchall():
            line = _line_of(ord_, rejected)
            con.execute(
                "INSERT INTO problems VALUES (?, ?, ?)",
                [f.name, line,
                 f"{f.name}:{line}: timestamp {raw_ts!r} or value {raw_value!r} unreadable"],
            )  # fmt: skip
        con.execute(
            f"""INSERT INTO data SELECT file, object_kind, object_name, metric_name, ts, value, tags,
                pod_name, namespace, service_name, bucket_le, status_code, extra
                FROM staged WHERE {keep}"""
        )


#: the metrics columns the tools read, by every spelling they accept (lower case)
METRIC_READ_COLUMNS = frozenset(
    {"metric_name", "timestamp", "value", "tags"}
    | {s for spellings in METRIC_OPTIONAL_COLUMNS.values() for s in spellings}
)


def _metric_extras(columns: Sequence[str]) -> list[str]:
    """The columns of a metrics file the tools do not read, in the file's order."""
    return [c for c in columns if c.lower() not in METRIC_READ_COLUMNS]


def _extra_object(extras: Sequence[str]) -> str:
    """A row's extra cells as one JSON object of texts (NULL when the file has none)."""
    if not extras:
        return "NULL::VARCHAR"
    pairs = ", ".join(f"'{_lit(name)}', {_ident(name)}" for name in extras)
    return f"json_object({pairs})::VARCHAR"


def _record_extras(
    con: duckdb.DuckDBPyConnection, file_name: str, columns: Sequence[str], extras: Sequence[str]
) -> None:
    """How pandas types each extra column of the file: ``integer`` when every cell is a whole
    number, ``number`` when every filled cell is a number (an empty one is NaN), else ``text``."""
    for name in extras:
        col = _ident(name)
        whole, numeric = con.execute(
            f"""SELECT coalesce(bool_and({col} IS NOT NULL
                                         AND regexp_full_match(trim({col}), '-?[0-9]+')), true),
                       coalesce(bool_and({col} IS NULL
                                         OR try_cast(trim({col}) AS DOUBLE) IS NOT NULL), true)
                FROM src"""
        ).fetchall()[0]
        kind = "integer" if whole else "number" if numeric else "text"
        con.execute(
            "INSERT INTO file_extras VALUES (?, ?, ?, ?)",
            [file_name, name, list(columns).index(name), kind],
        )
