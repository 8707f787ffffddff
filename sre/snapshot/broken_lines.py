"""TSV records whose CSV-quoted field holds line breaks, put back on one line each.

A log body that is a stack trace (``"ConsumeException: ...`` then ``   at Consumer.Poll()``
lines), written through a CSV writer, keeps its line breaks inside the field's quotes. The index
reads TSVs with quoting off (a JSON body's own quotes are data), so each physical line of such a
record is a row with the wrong number of fields and the record is lost: often the very ERROR lines
a diagnosis needs. :func:`joined` rewrites the file with each such record on one line, its breaks
written as ``\\n`` (as ClickHouse's TabSeparated format escapes them). A line is joined to the
next only when it ends inside an open quote with fewer fields than the header, and only as long as
the joined record stays within the header's field count: any other malformed line is left as it
is, for the index to report.
"""

from __future__ import annotations

from pathlib import Path

#: a record spanning more physical lines than this is not one record: the lines are left as they are
MAX_LINES = 1000


def joined(source: Path, out: Path) -> bool:
    """Write ``source`` to ``out`` with every record broken inside a quoted field on one line;
    False (``out`` not to be used) when no record was broken."""
    found = False
    with (
        source.open(encoding="utf-8", errors="replace", newline="") as f,
        out.open("w", encoding="utf-8", newline="") as w,
    ):
        header = f.readline()
        w.write(header)
        width = header.rstrip("\r\n").count("\t") + 1
        pending: list[str] = []
        for raw in f:
            line = raw.rstrip("\r\n")
            if pending:
                record = "\\n".join([*pending, line])
                fields = record.count("\t") + 1
                if fields <= width and len(pending) < MAX_LINES:
                    if _open(record.rsplit("\t", 1)[-1]):
                        pending.append(line)
                        continue
                    if fields == width:
                        w.write(record + "\n")
                        found, pending = True, []
                        continue
                # not one record after all: every line as it was
                w.write("".join(p + "\n" for p in pending))
                pending = []
            if line.count("\t") + 1 <= width and _open(line.rsplit("\t", 1)[-1]):
                pending = [line]
                continue
            w.write(line + "\n")
        w.write("".join(p + "\n" for p in pending))
    return found


def _open(field: str) -> bool:
    """A field that opens a CSV quote and does not close it: an odd number of quote characters
    (the opening one, pairs of doubled ones, and the closing one when there)."""
    return field.startswith('"') and field.count('"') % 2 == 1
