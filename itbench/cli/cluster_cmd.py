"""``itbench cluster serve``: the offline API server as a stand-alone process.

It serves core's kinds plus the cluster extensions of every loaded domain (custom resources, their
columns, validation and report producers).
"""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import click

from itbench.errors import InputError, UsageError
from itbench.exitcodes import ExitCode

if TYPE_CHECKING:
    from itbench.cluster.extensions import ReportProducer


def _producer(spec: str | None) -> ReportProducer | None:
    if not spec:
        return None
    module_name, _, attribute = spec.partition(":")
    if not attribute:
        raise UsageError(f"--report-producer takes MODULE:CALLABLE, not {spec!r}")
    import importlib

    try:
        producer: ReportProducer = getattr(importlib.import_module(module_name), attribute)
        return producer
    except (ImportError, AttributeError) as exc:
        raise UsageError(f"--report-producer {spec}: {exc}") from exc


@click.group()
def cluster() -> None:
    """Offline Kubernetes API server over manifests (for kubectl and the Python client)."""


@cluster.command()
@click.argument("manifests", type=click.Path(path_type=Path, exists=True))
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="0 picks a free port.",
)
@click.option(
    "--kubeconfig",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Where to write the kubeconfig (default: a new temporary directory, removed on exit).",
)
@click.option(
    "--report-producer",
    help="MODULE:CALLABLE computing reports from (report inputs, other objects); replaces the "
    "producer of the loaded domains' extensions that declare report inputs.",
)
@click.option(
    "--admission-timeout",
    type=click.FloatRange(0.1, 30),
    default=10,
    show_default=True,
    help="Seconds an admission controller may take before the write is answered "
    "'failed calling webhook ... context deadline exceeded' (Kubernetes' webhook timeoutSeconds: "
    "10 by default, at most 30).",
)
@click.option("-v", "--verbose", is_flag=True, help="Log every request on stderr.")
def serve(
    manifests: Path,
    port: int,
    kubeconfig: Path | None,
    report_producer: str | None,
    admission_timeout: float,
    verbose: bool,
) -> int:
    """Serve MANIFESTS (a file or directory) on 127.0.0.1 until interrupted.

    Prints the kubeconfig path on stdout once the port accepts connections (the file is written
    atomically just before), then runs until SIGINT or SIGTERM.
    """
    import tempfile

    from itbench.cluster import domain_extensions
    from itbench.cluster.kubeconfig import write_kubeconfig
    from itbench.cluster.manifests import SourcedObjects, StderrProgress
    from itbench.cluster.server import ApiServer
    from itbench.cluster.state import MAX_OBJECTS, ClusterError, ClusterState

    producer = _producer(report_producer)
    extensions = domain_extensions()
    # streamed: an input over the object limit is refused at the first object too many
    objects = SourcedObjects(manifests, max_objects=MAX_OBJECTS, progress=StderrProgress())
    try:
        state = ClusterState(
            objects,
            extensions=extensions,
            report_producer=producer,
            admission_seconds=admission_timeout,
        )
    except ClusterError as exc:  # an object the API server refuses: the input is malformed (3)
        raise InputError(f"{objects.file}: {exc}") from exc
    if not state.loaded_count:  # serving nothing is allowed (a cluster to create into)
        click.echo(f"warning: no Kubernetes object in {manifests}", err=True)
    server = ApiServer(state, port, verbose=verbose)
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    thread = server.serve_in_thread()
    # a kubeconfig we chose lives in a directory of our own, removed on exit (an explicit
    # --kubeconfig is the caller's file and stays)
    scratch: tempfile.TemporaryDirectory[str] | None = None
    if kubeconfig:
        path = kubeconfig
    else:
        scratch = tempfile.TemporaryDirectory(prefix="itbench-cluster-")
        path = Path(scratch.name) / "kubeconfig"
    write_kubeconfig(path, server.kubeconfig_server, server.token)
    click.echo(str(path))
    sys.stdout.flush()
    served = ", ".join(e.name for e in extensions) or "none"
    click.echo(
        f"serving {state.loaded_count} object(s) on 127.0.0.1:{server.port} "
        f"(domain extensions: {served})",
        err=True,
    )
    try:
        stop.wait()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
        if scratch is not None:
            scratch.cleanup()
    return ExitCode.OK
