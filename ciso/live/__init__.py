"""Live mode: the ``kyverno`` and ``kubectl-opa`` classes on a real cluster (``itbench ciso run|eval
--kubeconfig PATH``), through the Kubernetes Python client.

Each environment is deployed into fresh namespaces named for the trial (``<ns>-itb-<suffix>``;
cluster-scoped objects get the same suffix), every object labelled ``itbench.io/live-trial``, and
everything created is deleted again when the environment closes, even when something failed. The
agent works against the violating environment; the evaluator deploys each environment it needs
again under the same names (so a policy naming a namespace the agent saw still applies), reads the
PolicyReports Kyverno's background scan writes (kyverno) or runs the agent's fetcher against the
API (kubectl-opa), and scores them exactly as the offline evaluators do.

Off by default: without ``--kubeconfig`` nothing here is imported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from itbench.errors import InputError

if TYPE_CHECKING:
    import click

#: Seconds to wait for Kyverno's background scan to report on a deployed environment.
SCAN_TIMEOUT_S = 120.0
#: Reports unchanged for this long count as the finished scan.
SCAN_SETTLE_S = 3.0
#: Seconds to wait for deleted namespaces and objects to disappear.
DELETE_TIMEOUT_S = 180.0


@dataclass(frozen=True)
class LiveSettings:
    """Where the live cluster is and how long to wait for it."""

    kubeconfig: Path
    scan_timeout_s: float = SCAN_TIMEOUT_S
    scan_settle_s: float = SCAN_SETTLE_S
    delete_timeout_s: float = DELETE_TIMEOUT_S
    #: Seconds between two reads of the PolicyReports while waiting.
    poll_s: float = 1.0


def run_options() -> Sequence[click.Option]:
    """The ``Domain.run_options`` hook: ``--kubeconfig`` and the scan wait of live mode."""
    import click

    return [
        click.Option(
            ["--kubeconfig", "live_kubeconfig"],
            type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help="Live mode: deploy kyverno and kubectl-opa environments on the cluster of this "
            "kubeconfig (fresh namespaces per trial, removed afterwards) instead of the offline "
            "cluster.",
        ),
        click.Option(
            ["--live-scan-timeout", "live_scan_timeout"],
            type=click.FloatRange(min=0.1),
            default=SCAN_TIMEOUT_S,
            show_default=True,
            help="Live mode: seconds to wait for Kyverno's background scan to write PolicyReports.",
        ),
    ]


def settings_from(options: Mapping[str, Any]) -> LiveSettings | None:
    """The live cluster of a run whose options are ``options`` (None: ``--kubeconfig`` was not
    given, the offline cluster), after checking that it answers (an unreachable cluster fails
    before any trial). The run's session carries it to the environments and evaluators."""
    path = options.get("live_kubeconfig")
    if path is None:
        return None
    chosen = LiveSettings(
        kubeconfig=Path(path).resolve(),
        scan_timeout_s=float(options.get("live_scan_timeout") or SCAN_TIMEOUT_S),
    )
    from ciso.live.client import LiveCluster, LiveError
    from ciso.live.kubeconfig import flattened

    flattened(chosen.kubeconfig)  # what agents get must be whole: a missing context or file fails
    try:
        LiveCluster.connect(chosen.kubeconfig)
    except LiveError as exc:  # its message starts with the kubeconfig's path
        raise InputError(f"--kubeconfig {exc}") from None
    return chosen
