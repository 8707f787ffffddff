"""The workspace's snapshot kept current while the agent repairs: after every write the twin's
alerts are written as a new ``alerts/alerts_at_<time>.json`` and its objects and Warning events
appended to ``k8s_objects_raw.tsv`` and ``k8s_events_raw.tsv``, in the shapes the generator
writes. So the investigation tools (library, CLI, MCP) read the present, not only the past."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from itbench.fsutil import write_in_agent_tree
from sre.generator.tsv import clickhouse_time, json_field
from sre.twin.alerts import AlertState

_RESOURCES = {"Pod": "pods", "Deployment": "deployments", "ReplicaSet": "replicasets",
              "Service": "services", "Endpoints": "endpoints", "Node": "nodes",
              "ConfigMap": "configmaps", "NetworkPolicy": "networkpolicies",
              "ResourceQuota": "resourcequotas"}  # fmt: skip


def _row(at: dt.datetime, body: Mapping[str, Any], namespace: str, resource: str) -> str:
    attributes = {"k8s.resource.name": resource}
    if resource == "events":
        attributes["event.domain"] = "k8s"
    return "\t".join(
        (
            clickhouse_time(at),
            "",
            "",
            "",
            "0",
            "",
            json_field(body),
            json_field({"k8s.namespace.name": namespace}),
            json_field(attributes),
        )
    )


#: the most the view appends to the workspace's object and event dumps in one trial: the agent
#: makes the writes the view follows, and a file that grows without bound fills the disk
BUDGET_BYTES = 32 * 1024 * 1024


def _version(obj: Mapping[str, Any]) -> str:
    """What tells an object's export from its previous one: the API server's resourceVersion,
    else (objects the twin derives each time) a digest of the object."""
    version = (obj.get("metadata") or {}).get("resourceVersion")
    if isinstance(version, str) and version:
        return "rv:" + version
    return "sha256:" + hashlib.sha256(json_field(obj).encode()).hexdigest()


class LiveView:
    """Writes into a snapshot folder; files it cannot find (a workspace without the snapshot)
    are left alone.

    Each object is appended when it is new or changed since its last export (its
    resourceVersion), not every object after every write: one large ConfigMap and a hundred
    one-line writes elsewhere made the dump grow with the square of the writes (192 MB). Past
    ``budget`` bytes appended the view stops appending and says so (``note``)."""

    def __init__(self, workspace: Path, budget: int = BUDGET_BYTES) -> None:
        self.workspace = workspace
        self.budget = budget
        self.appended = 0
        #: why the view stopped appending (None while it follows the cluster)
        self.note: str | None = None
        self._exported: dict[Any, str] = {}

    def record(
        self,
        objects: Mapping[Any, dict[str, Any]],
        alerts: Mapping[Any, AlertState],
        now: float,
    ) -> None:
        # The agent works while this runs (as the runner's user, outside any sandbox): a name
        # below may be its link to any file or folder of the machine, so nothing is written but
        # through real folders into regular files (write_in_agent_tree); a planted link just
        # ends the view of that file.
        at = dt.datetime.fromtimestamp(now, dt.UTC)
        if (self.workspace / "alerts").is_dir():
            doc = {
                "status": "success",
                "data": {
                    "alerts": [
                        {
                            "labels": {"alertname": a.key.alertname, **a.labels},
                            "annotations": {"description": a.description, "summary": a.description},
                            "state": a.state,
                            "activeAt": dt.datetime.fromtimestamp(a.active_at, dt.UTC).strftime(
                                "%Y-%m-%dT%H:%M:%S.%fZ"
                            ),
                            "value": "1e+00",
                        }  # fmt: skip
                        for a in sorted(alerts.values(), key=lambda a: a.key)
                    ]
                },
            }
            name = f"alerts_at_{at:%Y-%m-%dT%H-%M-%S.%f}.json"
            text = json.dumps(doc, indent=1)
            write_in_agent_tree(self.workspace, f"alerts/{name}", text.encode(), append=False)
        if self.note is not None:
            return
        object_rows, event_rows = [], []
        for key, obj in objects.items():
            kind = obj.get("kind", "")
            if kind != "Event" and kind not in _RESOURCES:
                continue
            if kind == "Event" and obj.get("type") != "Warning":
                continue
            version = _version(obj)
            if self._exported.get(key) == version:
                continue  # exported as it is now
            self._exported[key] = version
            namespace = (obj.get("metadata") or {}).get("namespace", "")
            if kind == "Event":
                body = {"object": obj, "type": "MODIFIED" if obj.get("count", 1) > 1
                        else "ADDED"}  # fmt: skip
                event_rows.append(_row(at, body, namespace, "events"))
            else:
                object_rows.append(_row(at, obj, namespace, _RESOURCES[kind]))
        for name, rows in (
            ("k8s_objects_raw.tsv", object_rows),
            ("k8s_events_raw.tsv", event_rows),
        ):
            if not rows:
                continue
            data = ("\n".join(rows) + "\n").encode()
            if self.appended + len(data) > self.budget:
                self.note = (
                    f"the live view stopped appending to {name} and the other dumps after "
                    f"{self.appended} bytes (budget {self.budget}): the agent's writes changed "
                    "more than it keeps; the dumps show the cluster up to then"
                )
                return
            self.appended += len(data)
            write_in_agent_tree(self.workspace, name, data, append=True)
