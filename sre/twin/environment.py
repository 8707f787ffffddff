"""The SRE domain's ``trial_environment`` hook: the twin's cluster around a mitigation trial,
nothing around a diagnosis trial (the snapshot is the whole world)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from itbench.models import Scenario
from sre.twin.suite import MitigationTruth, mitigation_environment

if TYPE_CHECKING:
    from sre.live.environment import LiveSettings


@contextmanager
def trial_environment(
    scenario: Scenario, workspace: Path, live: LiveSettings | None = None
) -> Iterator[Mapping[str, str]]:
    """``live``: the run's live mode (``--kubeconfig``), from its session (:mod:`sre.session`)."""
    truth = scenario.ground_truth
    if not isinstance(truth, MitigationTruth):
        yield {}
        return
    environment: AbstractContextManager[Mapping[str, str]]
    if live is not None:
        from sre.live.environment import live_environment

        # live mode: the incident injected into a real cluster instead of the twin's
        environment = live_environment(truth, workspace, live)
    else:
        environment = mitigation_environment(truth, workspace)
    with environment as env:
        yield env
