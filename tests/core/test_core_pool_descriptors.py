"""The trial pool in a process that already holds more than 1,023 descriptors (a service or a
test session calling the library): its pipes get numbers select(2) refuses, so the pool waits
with poll(2)."""

from __future__ import annotations

import os
from pathlib import Path

from itbench.models import Scenario
from itbench.runner.pool import WorkerExit, run_in_workers
from itbench.runner.trial import TrialSpec


def _held_descriptors(count: int) -> list[int]:
    return [os.open(os.devnull, os.O_RDONLY) for _ in range(count)]


def test_trials_run_when_the_pools_pipes_are_numbered_above_1023(tmp_path: Path) -> None:
    held = _held_descriptors(1100)
    try:
        assert max(held) > 1023
        specs = [
            TrialSpec(
                Scenario(id=f"s{i}", domain="toy", **{"class": "c"}, title="t"),
                1,
                tmp_path / f"s{i}",
            )
            for i in range(3)
        ]
        exits: list[WorkerExit] = []

        def work(spec: TrialSpec) -> None:
            spec.directory.mkdir(parents=True)
            (spec.directory / "done").write_text(spec.label)

        run_in_workers(specs, work, 2, 30.0, exits.append)
    finally:
        for fd in held:
            os.close(fd)
    assert sorted(e.spec.label for e in exits) == ["s0#1", "s1#1", "s2#1"]
    assert all(e.failure is None for e in exits), exits
    for spec in specs:
        assert (spec.directory / "done").read_text() == spec.label
