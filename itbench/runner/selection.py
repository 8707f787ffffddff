"""``--select PATTERN``: narrow the loaded scenarios by glob patterns over their ids.

The same for every domain and for built-in and user scenarios alike, since it filters what
``--scenarios`` loaded. A pattern also matches the ids it is the dotted head of (``web`` selects
``web.a`` and ``web.b``), so a scenario id selects all its classes.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from fnmatch import fnmatchcase

from itbench.errors import UsageError
from itbench.models import Scenario


def matches(scenario_id: str, pattern: str) -> bool:
    return fnmatchcase(scenario_id, pattern) or fnmatchcase(scenario_id, f"{pattern}.*")


def select_ids(ids: Sequence[str], patterns: Sequence[str]) -> list[str]:
    """The ids that match any pattern, in order (all of them without a pattern); a pattern
    that matches none is a usage error with the closest ids. A domain that knows its scenarios'
    ids before it materialises them selects with this first."""
    if not patterns:
        return list(ids)
    for pattern in patterns:
        if not any(matches(i, pattern) for i in ids):
            close = difflib.get_close_matches(pattern, ids, n=5, cutoff=0.5)
            hint = f"; did you mean: {', '.join(close)}" if close else ""
            raise UsageError(
                f"--select {pattern!r} matches none of the {len(ids)} scenario id(s) loaded{hint}"
            )
    return [i for i in ids if any(matches(i, p) for p in patterns)]


def select_scenarios(scenarios: Sequence[Scenario], patterns: Sequence[str]) -> list[Scenario]:
    """The scenarios whose id matches any pattern, in loaded order; a pattern that matches
    nothing is a usage error with the closest loaded ids."""
    chosen = set(select_ids([s.id for s in scenarios], patterns))
    return [s for s in scenarios if s.id in chosen]
