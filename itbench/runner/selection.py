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


def select_scenarios(scenarios: Sequence[Scenario], patterns: Sequence[str]) -> list[Scenario]:
    """The scenarios whose id matches any pattern, in loaded order; a pattern that matches
    nothing is a usage error with the closest loaded ids."""
    if not patterns:
        return list(scenarios)
    ids = [s.id for s in scenarios]
    for pattern in patterns:
        if not any(matches(i, pattern) for i in ids):
            close = difflib.get_close_matches(pattern, ids, n=5, cutoff=0.5)
            hint = f"; did you mean: {', '.join(close)}" if close else ""
            raise UsageError(
                f"--select {pattern!r} matches none of the {len(ids)} scenario id(s) loaded{hint}"
            )
    return [s for s in scenarios if any(matches(s.id, p) for p in patterns)]
