"""The baseline's root_cause_entity F1 on the hand-written incident sets (not a test: a figure).

    .venv/bin/python -m tests.sre.shapes3.score [shapes4|shapes3|shapes2|shapes ...]

Per incident: precision = right root causes named / root causes named, recall = 1 when the
labelled root cause is among them; F1 as usual; the set's figure is the mean over its incidents.
``shapes`` is ``world.py``'s incidents in six shapes (two observations in TSV, one observation,
and the four shapes of ``test_evidence_shapes.py``)."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path


def f1(named: list[str], expected: str) -> float:
    if expected not in named:
        return 0.0
    precision = 1 / len(named)
    return 2 * precision / (precision + 1)


def _named(snapshot: Path) -> list[str]:
    from sre.agents.baseline import diagnose

    return [e["name"] for e in diagnose(snapshot).entities if e["contributing_factor"]]


Case = tuple[str, str, Callable[[Path], Path]]


def shapes3() -> Iterator[Case]:
    from tests.sre.shapes3.incidents import INCIDENTS
    from tests.sre.shapes3.writer import write

    for name, incident in sorted(INCIDENTS.items()):
        yield name, incident.root_cause, lambda d, i=incident: write(d, i)


def shapes2() -> Iterator[Case]:
    from tests.sre.shapes2.incidents import INCIDENTS
    from tests.sre.shapes2.writer import write

    for name, incident in sorted(INCIDENTS.items()):
        yield name, incident.root_cause, lambda d, i=incident: write(d, i)


def shapes() -> Iterator[Case]:
    from tests.sre.shapes.test_evidence_shapes import SHAPES
    from tests.sre.shapes.world import CASES, Shape, expected, write

    every = {"two observations": Shape(), "one observation": Shape(single_observation=True)}
    every |= SHAPES
    for shape_name, shape in every.items():
        for name, case in sorted(CASES.items()):
            yield (f"{name} [{shape_name}]", expected(case, shape),
                   lambda d, c=case, s=shape: write(d, c, s))  # fmt: skip


def shapes4() -> Iterator[Case]:
    from tests.sre.shapes4.incidents import INCIDENTS
    from tests.sre.shapes4.writer import write

    for name, incident in sorted(INCIDENTS.items()):
        yield name, incident.root_cause, lambda d, i=incident: write(d, i)


SETS = {"shapes4": shapes4, "shapes3": shapes3, "shapes2": shapes2, "shapes": shapes}


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("XDG_CACHE_HOME", str(Path(tmp) / "cache"))
        for set_name in argv or list(SETS):
            scores = []
            for i, (name, expected, write) in enumerate(SETS[set_name]()):
                named = _named(write(Path(tmp) / f"{set_name}-{i}"))
                scores.append(f1(named, expected))
                mark = "ok  " if scores[-1] == 1 else "MISS"
                print(f"{mark} {set_name} {name}: {named} (expected {expected})")
            mean = sum(scores) / len(scores)
            print(f"== {set_name}: root_cause_entity F1 {mean:.3f} over {len(scores)} incidents, "
                  f"{sum(s == 1 for s in scores)} exactly right")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
