"""``itbench ciso env SCENARIO [--compliant]``: serve a scenario's environment to a person.

Kubernetes classes: the offline cluster (Kyverno PolicyReports included) until Ctrl-C, its
kubeconfig path on stdout. RHEL 9: the host tree (modes applied) and an inventory, both paths on
stdout. The compliant environment, never shown to agents, is served with ``--compliant``.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import tempfile
import threading
from pathlib import Path

import click

from itbench.errors import UsageError
from itbench.scratch import system_tempdir


def _pick(scenario_id: str, scenarios_dir: Path | None):  # -> CisoScenario
    from ciso.environments import ciso_truth
    from ciso.scenarios.loader import load_benchmark_scenarios

    if scenarios_dir is not None:
        loaded = [
            s
            for s in load_benchmark_scenarios(str(scenarios_dir))
            if scenario_id in (s.id, ciso_truth(s).base_id)
        ]
        if not loaded:
            raise UsageError(f"no scenario {scenario_id!r} under {scenarios_dir}")
    else:
        loaded = list(load_benchmark_scenarios(scenario_id))
    # one directory offers several classes over the same environments: any of them serves it
    return ciso_truth(loaded[0])


@click.command()
@click.argument("scenario")
@click.option(
    "--scenarios",
    "scenarios_dir",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="Look SCENARIO up in this folder instead of the built-in suite.",
)
@click.option("--compliant", is_flag=True, help="Serve the compliant environment instead.")
@click.option(
    "--dir",
    "directory",
    type=click.Path(path_type=Path, file_okay=False),
    help="Where to write the kubeconfig / inventory (default: a temporary folder).",
)
def env(scenario: str, scenarios_dir: Path | None, compliant: bool, directory: Path | None) -> None:
    """Serve SCENARIO's violating (or --compliant) environment until interrupted."""
    from ciso.environments import serve

    truth = _pick(scenario, scenarios_dir)
    if directory is None:
        # outlives this process (a host tree is left in place): not under the scratch parent
        directory = Path(tempfile.mkdtemp(prefix="itbench-ciso-env-", dir=system_tempdir()))
    directory.mkdir(parents=True, exist_ok=True)
    with serve(truth, directory, compliant=compliant) as variables:
        which = "compliant" if compliant else "violating"
        for name, value in variables.items():
            click.echo(f"{name}={value}")
        click.echo(f"serving the {which} environment of {truth.base_id}; Ctrl-C stops", err=True)
        sys.stdout.flush()
        if "KUBECONFIG" not in variables:
            return  # a host tree needs no server: the files stay in place
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a person stops it
            stop.wait()
