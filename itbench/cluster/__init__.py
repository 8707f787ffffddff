"""An offline Kubernetes API server over manifests, for real kubectl and the Python client.

with start_cluster(Path("manifests/")) as cluster:
    subprocess.run(["kubectl", "--kubeconfig", cluster.kubeconfig_path, "get", "pods", "-A"])
    changes = cluster.overlay()

Core serves the built-in Kubernetes kinds; every loaded domain's ``ClusterExtension`` adds its own
(custom resources, their columns and validation, a report producer) unless ``extensions=`` names
exactly which ones to serve.
"""

from __future__ import annotations

import socket
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from itbench.cluster.extensions import (
    ClusterExtension,
    Column,
    ReportProducer,
    ResourceType,
    domain_extensions,
)
from itbench.cluster.kubeconfig import write_kubeconfig
from itbench.cluster.manifests import iter_manifests, load_manifests
from itbench.cluster.reconcile import Reconciled, Reconciler, SimClock, Write
from itbench.cluster.server import ApiServer
from itbench.cluster.state import MAX_OBJECTS, ClusterError, ClusterState

__all__ = [
    "ClusterError",
    "ClusterExtension",
    "ClusterState",
    "Column",
    "Reconciled",
    "Reconciler",
    "SimClock",
    "Write",
    "ReportProducer",
    "ResourceType",
    "RunningCluster",
    "load_manifests",
    "domain_extensions",
    "start_cluster",
]


class RunningCluster:
    def __init__(
        self,
        server: ApiServer,
        kubeconfig_path: Path,
        owns_kubeconfig_dir: tempfile.TemporaryDirectory[str] | None,
    ) -> None:
        self._server = server
        self._thread = server.serve_in_thread()
        self.kubeconfig_path = kubeconfig_path
        self._tmp = owns_kubeconfig_dir

    @property
    def port(self) -> int:
        return self._server.port

    @property
    def url(self) -> str:
        """The server's address, without its credential (see :attr:`authorization`)."""
        return self._server.url

    @property
    def authorization(self) -> dict[str, str]:
        """The header every request must carry (its token is also in the kubeconfig)."""
        return {"Authorization": f"Bearer {self._server.token}"}

    @property
    def state(self) -> ClusterState:
        return self._server.state

    def apply(self, obj: dict[str, Any]) -> dict[str, Any]:
        try:
            return self.state.create(obj)
        except ClusterError as exc:
            if exc.code != 409:
                raise
            return self.state.replace(obj)

    def objects(self) -> list[dict[str, Any]]:
        return list(self.state.objects().values())

    def overlay(self) -> dict[str, list[dict[str, Any]]]:
        return self.state.overlay()

    def overlay_text(self) -> str:
        """The overlay as the JSON a trial's folder keeps: bounded by the stored-bytes budget."""
        return self.state.overlay_text()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> RunningCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _wait_accepting(port: int, timeout: float = 10.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def start_cluster(
    source: Path | Iterable[dict[str, Any]] | None = None,
    *,
    port: int = 0,
    kubeconfig: Path | None = None,
    report_producer: ReportProducer | None = None,
    extensions: Sequence[ClusterExtension] | None = None,
    reconciler: Reconciler | None = None,
    clock: SimClock | None = None,
    read_only: bool = False,
    max_stored_bytes: int | None = None,
) -> RunningCluster:
    """Start an API server in this process on a free loopback port (or ``port``); the kubeconfig is
    written once the port accepts connections.

    ``extensions`` are the custom types served besides core's (None: every loaded domain's);
    ``report_producer`` replaces the producer of the extensions that declare report inputs;
    ``reconciler`` and ``clock`` make the cluster react to writes (``reconcile.py``);
    ``read_only`` answers every write 403 Forbidden (RBAC's denial), for every client;
    ``max_stored_bytes`` bounds what writes keep (``state.MAX_STORED_BYTES`` unless
    ``ITBENCH_CLUSTER_MAX_STORED_BYTES`` says otherwise). Every request must carry the server's
    token: the kubeconfig written holds it.
    """
    objects: Iterable[dict[str, Any]]
    if source is None:
        objects = []
    elif isinstance(source, Path):
        objects = iter_manifests(source, max_objects=MAX_OBJECTS)  # streamed into the state
    else:
        objects = source
    if extensions is None:
        extensions = domain_extensions()
    state = ClusterState(
        objects,
        extensions=extensions,
        report_producer=report_producer,
        max_objects=MAX_OBJECTS,
        reconciler=reconciler,
        clock=clock,
        max_stored_bytes=max_stored_bytes,
    )
    server = ApiServer(state, port, read_only=read_only)
    tmp = None
    if kubeconfig is None:
        tmp = tempfile.TemporaryDirectory(prefix="itbench-cluster-")
        kubeconfig = Path(tmp.name) / "kubeconfig"
    running = RunningCluster(server, kubeconfig, tmp)
    _wait_accepting(server.port)
    write_kubeconfig(kubeconfig, server.kubeconfig_server, server.token)
    return running
