"""The SRE domain's ``trial_environment`` hook: the twin's cluster around a mitigation trial,
nothing around a diagnosis trial (the snapshot is the whole world)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from itbench.models import Scenario
from sre.twin.suite import MitigationTruth, mitigation_environment


@contextmanager
def trial_environment(scenario: Scenario, workspace: Path) -> Iterator[Mapping[str, str]]:
    truth = scenario.ground_truth
    if not isinstance(truth, MitigationTruth):
        yield {}
        return
    from sre.live.environment import live_environment, live_settings

    # live mode (--kubeconfig): the incident injected into a real cluster instead of the twin's
    environment = live_environment if live_settings() is not None else mitigation_environment
    with environment(truth, workspace) as env:
        yield env
