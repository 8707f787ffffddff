"""A datastore or a broker that logs only what goes wrong (PostgreSQL's ``ERROR:`` lines, Kafka's
corrupt-record warnings) writes nothing while it is healthy: the share of its error lines never
steps, since every line it writes is one. The baseline reads its first lines after silence as the
onset of a symptom, so a fault injected on it explains its clients' errors."""

from __future__ import annotations

from datetime import datetime

import pytest

from sre.agents.baseline.symptoms import BUCKET, _silent_then_failing

START = datetime(2026, 3, 2, 9, 0)


def _counts(
    quiet_buckets: int, lines: list[tuple[int, int]]
) -> dict[tuple[str, datetime], list[int]]:
    """A chatty client logging from the start; the store's (total, errors) per bucket after
    ``quiet_buckets`` of silence."""
    out = {("shop", START + k * BUCKET): [3, 0] for k in range(40)}
    for k, seen in enumerate(lines):
        out[("ledger-db", START + (quiet_buckets + k) * BUCKET)] = list(seen)
    return out


@pytest.mark.parametrize(
    ("quiet", "lines", "found"),
    [
        (12, [(1, 1)] * 6, True),  # silent, then only errors
        (12, [(2, 2), (1, 0), (1, 1), (1, 1)], True),  # mostly errors
        (0, [(1, 1)] * 6, False),  # logged from the start: no onset to read
        (1, [(1, 1)] * 6, False),  # silent for one bucket only: no onset either
        (12, [(1, 1), (1, 1)], False),  # two lines say nothing
        (12, [(1, 1), (1, 0), (1, 0), (1, 0), (1, 1), (1, 1)], False),  # mostly healthy lines
    ],
)
def test_a_store_that_begins_logging_in_errors_has_a_symptom_from_its_first_line(
    quiet: int, lines: list[tuple[int, int]], found: bool
) -> None:
    symptom = _silent_then_failing("ledger-db", _counts(quiet, lines))
    assert (symptom is not None) is found
    if symptom is not None:
        assert symptom.start == START + quiet * BUCKET
        assert symptom.logs
