"""The clean-up of a live trial, and the process that does it when the trial cannot.

A trial runs in a worker the runner kills with SIGKILL past its time limit or on Ctrl-C, so no
``finally`` in it can be relied on. Before injecting, the trial writes what the clean-up needs
(the objects it will create, the patched objects as the cluster held them) and starts this
module as a process in its own session, holding a pipe to it: when the trial ends normally it
cleans up itself and writes ``done``; when the pipe closes without it (the trial process died),
the janitor cleans up and records it in the trial's verdict file.

Run as ``python -m sre.live.janitor PLAN VERDICT`` with the pipe on stdin.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sre.live.kube import LiveKubectl

DONE = b"done\n"


@dataclass
class CleanUp:
    deleted: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    by: str = "trial"

    def summary(self) -> str:
        done = (
            ", ".join(
                [*(f"deleted {d}" for d in self.deleted), *(f"restored {r}" for r in self.restored)]
            )
            or "nothing to undo"
        )
        errors = f"; FAILED: {'; '.join(self.errors)}" if self.errors else ""
        return f"clean-up: {done}{errors}"  # fmt: skip

    def doc(self) -> dict[str, Any]:
        return {"deleted": self.deleted, "restored": self.restored, "errors": self.errors,
                "complete": not self.errors, "by": self.by}  # fmt: skip


@dataclass(frozen=True)
class CleanUpPlan:
    kubeconfig: Path
    home: Path
    #: (resource, name, namespace) of every object the injection creates
    created: tuple[tuple[str, str, str], ...]
    #: (resource, object as the cluster held it before the injection, restorable)
    saved: tuple[tuple[str, dict[str, Any]], ...]
    #: the agent's copy of the credentials, removed with the rest
    agent_kubeconfig: Path

    def write(self, path: Path) -> None:
        from itbench.fsutil import atomic_write_json

        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_json(path, {
            "kubeconfig": str(self.kubeconfig), "home": str(self.home),
            "created": [list(c) for c in self.created],
            "saved": [[r, body] for r, body in self.saved],
            "agent_kubeconfig": str(self.agent_kubeconfig),
        })  # fmt: skip

    @staticmethod
    def read(path: Path) -> CleanUpPlan:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return CleanUpPlan(
            Path(doc["kubeconfig"]),
            Path(doc["home"]),
            tuple((c[0], c[1], c[2]) for c in doc["created"]),
            tuple((r, body) for r, body in doc["saved"]),
            Path(doc["agent_kubeconfig"]),
        )


def clean_up(plan: CleanUpPlan, by: str = "trial") -> CleanUp:
    """Delete what the injection created, put back what it patched (as the cluster held it
    before), remove the agent's credentials; every failure recorded, none stops the rest."""
    kubectl = LiveKubectl(plan.kubeconfig, plan.home)
    record = CleanUp(by=by)
    for resource, name, namespace in reversed(plan.created):
        ns = ["-n", namespace] if namespace else []
        done = kubectl("delete", resource, name, *ns, "--ignore-not-found", "--wait=false")
        if done.code == 0:
            record.deleted.append(f"{resource}/{name}")
        else:
            record.errors.append(f"delete {resource}/{name}: {done.stderr}")
    for resource, body in plan.saved:
        meta = body.get("metadata") or {}
        name = meta.get("name", "?")
        if resource == "node":
            _restore_node(kubectl, body, record)
            continue
        try:
            exists = kubectl.get(resource, name, meta.get("namespace"))
        except Exception as exc:  # noqa: BLE001 - recorded, the rest still runs
            record.errors.append(f"restore {resource}/{name}: {exc}")
            continue
        verb = "replace" if exists is not None else "create"
        done = kubectl(verb, "-f", "-", stdin=json.dumps(body))
        if done.code == 0:
            record.restored.append(f"{resource}/{name}" + (" (recreated)" if verb == "create"
                                                           else ""))  # fmt: skip
        else:
            record.errors.append(f"restore {resource}/{name}: {done.stderr}")
    with contextlib.suppress(OSError):
        plan.agent_kubeconfig.unlink()
    return record


def _restore_node(kubectl: LiveKubectl, body: dict[str, Any], record: CleanUp) -> None:
    """A node gets back its cordon and taints as they were (uncordon, untaint), nothing else:
    the rest of a Node (labels, annotations, status) is its kubelet's and moved on meanwhile,
    so writing back the saved copy would undo the kubelet's own updates."""
    name = (body.get("metadata") or {}).get("name", "?")
    spec = body.get("spec") or {}
    # a merge patch: null removes the field when the node had none
    patch = {"spec": {"unschedulable": spec.get("unschedulable"), "taints": spec.get("taints")}}
    done = kubectl("patch", "node", name, "--type=merge", "-p", json.dumps(patch))
    if done.code == 0:
        record.restored.append(f"node/{name}")
    else:
        record.errors.append(f"restore node/{name}: {done.stderr}")


@dataclass
class Janitor:
    """The running janitor process, seen from the trial."""

    process: subprocess.Popen[bytes]

    @staticmethod
    def start(plan_file: Path, verdict_file: Path, log: Path) -> Janitor:
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "ab") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "sre.live.janitor", str(plan_file), str(verdict_file)],
                stdin=subprocess.PIPE, stdout=out, stderr=out,
                start_new_session=True,  # outlives the worker's process group being killed
            )  # fmt: skip
        return Janitor(process)

    def dismiss(self) -> None:
        """The trial cleaned up itself: the janitor leaves without touching anything."""
        assert self.process.stdin is not None
        with contextlib.suppress(OSError):
            self.process.stdin.write(DONE)
            self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)


def _record(verdict_file: Path, cleanup: CleanUp) -> None:
    from itbench.errors import InputError
    from itbench.records import read_signed_record, write_signed_record

    # the verdict sits in the workspace's .itbench/: the workspace is two levels up
    workspace, relative = verdict_file.parent.parent, Path(*verdict_file.parts[-2:])
    try:
        # only what the trial signed is kept: anything else there may be the agent's
        doc = read_signed_record(workspace, relative, "no verdict")
    except InputError:
        doc = {"scores": {}, "details": {"mode": "live"}}
    doc["details"]["cleanup"] = cleanup.doc()
    doc["details"].setdefault(
        "error", "the trial's process ended before its clean-up (interrupted or killed)"
    )
    write_signed_record(workspace, relative, doc)


def main(argv: list[str]) -> int:
    plan_file, verdict_file = Path(argv[0]), Path(argv[1])
    # our own session: Ctrl-C in the terminal is for the runner, not for the clean-up
    message = sys.stdin.buffer.read()
    if message == DONE:
        return 0
    cleanup = clean_up(CleanUpPlan.read(plan_file), by="janitor")
    _record(verdict_file, cleanup)
    print(json.dumps(cleanup.doc()), flush=True)
    return 0 if not cleanup.errors else 1


if __name__ == "__main__":
    os.umask(0o077)
    sys.exit(main(sys.argv[1:]))
