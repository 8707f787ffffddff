"""The baseline's repair: the root cause it diagnosed from the snapshot, fixed through ``kubectl``
by what kind of object it is (never the ground truth, never the fault type).

- a Deployment: scaled back up if it has no replicas, else its last rollout undone, or, with
  no earlier revision to return to, scaled to zero (the workload itself is what hurts);
- a Service: its selector pointed at the Deployment's pods when it matches none of them, else
  its targetPort pointed at the port its pods declare;
- the flagd ConfigMap: every flag that serves a variant other than off turned off;
- a NetworkPolicy, a ResourceQuota, an Istio AuthorizationPolicy, a Chaos Mesh experiment:
  deleted;
- a Namespace taken out of the ambient mesh (``istio.io/dataplane-mode`` other than ambient):
  enrolled again;
- a Node: uncordoned when cordoned, else its disk pressure reported cleared (offline, what
  freeing the disk amounts to);
- a Service the cluster no longer has: created again as the snapshot last saw it;
- a Secret or a HorizontalPodAutoscaler: its content (``data``, ``spec``) put back as it was
  before its last change, from the snapshot's history of the object (the agent cannot know a
  Secret's right value, but the cluster's recorded past does).
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from itbench.errors import InputError

#: the kinds whose repair is to remove the object
DELETABLE = {"NetworkPolicy": "networkpolicy", "ResourceQuota": "resourcequota",
             "AuthorizationPolicy": "authorizationpolicy"}  # fmt: skip
#: the label that enrols a namespace in Istio's ambient mesh
MESH_MODE = "istio.io/dataplane-mode"
CHAOS_KINDS = ("NetworkChaos", "StressChaos", "DNSChaos", "PodChaos", "IOChaos", "HTTPChaos",
               "TimeChaos", "KernelChaos", "JVMChaos")  # fmt: skip


@dataclass(frozen=True)
class Kubectl:
    kubeconfig: str
    home: Path

    def __call__(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "KUBECONFIG": self.kubeconfig,
        }
        try:
            return subprocess.run(
                ["kubectl", *args],
                input=stdin,
                capture_output=True,
                text=True,
                env=env,
                timeout=60,
            )
        except FileNotFoundError:
            raise InputError("kubectl is not installed (the baseline repairs through it)") from None

    def json(self, *args: str) -> dict:
        done = self(*args, "-o", "json")
        if done.returncode != 0:
            raise InputError(f"kubectl {' '.join(args)}: {done.stderr.strip()}")
        return json.loads(done.stdout)


def parse_entity(name: str) -> tuple[str, str, str]:
    """(namespace, kind, name) of ``ns/Kind/name`` or ``Kind/name``."""
    parts = name.split("/")
    if len(parts) == 3:
        return parts[0], parts[1], parts[2]
    if len(parts) == 2:
        return "", parts[0], parts[1]
    raise InputError(f"root cause {name!r} is not namespace/Kind/name")


#: kinds whose repair is their content as it was before their last change: (kubectl's name,
#: the field that holds the content)
RESTORABLE = {"Secret": ("secret", "data"),
              "HorizontalPodAutoscaler": ("horizontalpodautoscaler", "spec")}  # fmt: skip


@dataclass(frozen=True)
class Command:
    """One kubectl call; ``stdin`` a manifest for ``-f -``."""

    args: list[str]
    stdin: str | None = None


def history(snapshot: Path | None, ns: str, kind: str, name: str) -> list[dict]:
    """Every recorded version of an object in the snapshot's objects file, oldest first."""
    from sre.snapshot import SourceKind, open_source
    from sre.snapshot.layout import SnapshotLayout

    if snapshot is None or not SnapshotLayout(snapshot).objects.is_file():
        return []
    src = open_source(SnapshotLayout(snapshot).objects, SourceKind.OBJECTS)
    rows = src.con.cursor().execute(
        "SELECT body FROM data WHERE kind = ? AND coalesce(namespace, '') = ? AND name = ? "
        "ORDER BY ts, version",
        [kind, ns, name],
    )
    out = []
    for (body,) in rows.fetchall():
        try:
            obj = json.loads(body)
        except (TypeError, ValueError):
            continue
        if isinstance(obj, dict):
            out.append(obj)
    return out


def _before_last_change(versions: list[dict], field: str) -> object | None:
    """The ``field`` of the last version that differs from the latest one."""
    if not versions:
        return None
    latest = versions[-1].get(field)
    for obj in reversed(versions):
        if obj.get(field) != latest:
            return obj.get(field)
    return None


def _recreated(obj: dict) -> str:
    """A manifest that creates the object again: identity, labels and spec; what the API
    server assigns (uid, versions, cluster IPs, status) left out."""
    meta = obj.get("metadata") or {}
    spec = {
        k: v for k, v in (obj.get("spec") or {}).items() if k not in ("clusterIP", "clusterIPs")
    }
    keep = {k: meta[k] for k in ("name", "namespace", "labels", "annotations") if meta.get(k)}
    return json.dumps({"apiVersion": obj.get("apiVersion"), "kind": obj.get("kind"),
                       "metadata": keep, "spec": spec})  # fmt: skip


def remedy(kubectl: Kubectl, entity: str, snapshot: Path | None = None) -> list[Command]:
    """The kubectl commands that repair ``entity`` (read from the live cluster and, for the
    object's past, the snapshot)."""
    ns, kind, name = parse_entity(entity)
    if kind == "Service" and kubectl("-n", ns, "get", "service", name).returncode != 0:
        versions = history(snapshot, ns, kind, name)
        if not versions:
            return []
        return [Command(["-n", ns, "create", "-f", "-"], _recreated(versions[-1]))]
    if kind in RESTORABLE:
        resource, field = RESTORABLE[kind]
        before = _before_last_change(history(snapshot, ns, kind, name), field)
        if before is None:
            return []
        patch = [{"op": "replace", "path": f"/{field}", "value": before}]
        return [Command(["-n", ns, "patch", resource, name, "--type=json", "-p",
                         json.dumps(patch)])]  # fmt: skip
    return [Command(args) for args in _live_remedy(kubectl, ns, kind, name)]


def _live_remedy(kubectl: Kubectl, ns: str, kind: str, name: str) -> list[list[str]]:
    """The repairs read off the live cluster alone."""
    if kind == "Deployment":
        dep = kubectl.json("-n", ns, "get", "deployment", name)
        if (dep.get("spec") or {}).get("replicas", 1) == 0:
            return [["-n", ns, "scale", f"deployment/{name}", "--replicas=1"]]
        revision = ((dep.get("metadata") or {}).get("annotations") or {}).get(
            "deployment.kubernetes.io/revision", "1"
        )
        if revision == "1":
            # no earlier revision to return to: the workload itself, as first deployed, is
            # what hurts (a new client flooding a shared service); stop it, keep its definition
            return [["-n", ns, "scale", f"deployment/{name}", "--replicas=0"]]
        return [["-n", ns, "rollout", "undo", f"deployment/{name}"]]
    if kind == "Service":
        dep = kubectl.json("-n", ns, "get", "deployment", name)
        svc = kubectl.json("-n", ns, "get", "service", name)
        pod_labels = (dep["spec"]["template"].get("metadata") or {}).get("labels") or {}
        selector = (svc.get("spec") or {}).get("selector") or {}
        if any(pod_labels.get(k) != v for k, v in selector.items()):
            # the selector matches none of the pods: select them by the Deployment's selector
            wanted = (dep["spec"].get("selector") or {}).get("matchLabels") or pod_labels
            patch = [{"op": "replace", "path": "/spec/selector", "value": wanted}]
            return [["-n", ns, "patch", "service", name, "--type=json", "-p", json.dumps(patch)]]
        ports = dep["spec"]["template"]["spec"]["containers"][0].get("ports") or []
        if not ports:
            return []
        patch = [{"op": "replace", "path": "/spec/ports/0/targetPort",
                  "value": ports[0]["containerPort"]}]  # fmt: skip
        return [["-n", ns, "patch", "service", name, "--type=json", "-p", json.dumps(patch)]]
    if kind == "ConfigMap":
        cm = kubectl.json("-n", ns, "get", "configmap", name)
        data = dict(cm.get("data") or {})
        changed = False
        for key, text in data.items():
            try:
                doc = json.loads(text)
            except ValueError:
                continue
            for flag in (doc.get("flags") or {}).values():
                if isinstance(flag, dict) and _turn_off(flag):
                    changed = True
            data[key] = json.dumps(doc, sort_keys=True)
        if not changed:
            return []
        return [["-n", ns, "patch", "configmap", name, "--type=merge", "-p",
                 json.dumps({"data": data})]]  # fmt: skip
    if kind in DELETABLE:
        return [["-n", ns, "delete", DELETABLE[kind], name]]
    if kind == "Namespace":
        labels = (kubectl.json("get", "namespace", name).get("metadata") or {}).get("labels") or {}
        if labels.get(MESH_MODE) not in (None, "ambient"):
            return [["label", "namespace", name, f"{MESH_MODE}=ambient", "--overwrite"]]
        return []
    if kind in CHAOS_KINDS:
        return [["-n", ns or "chaos-mesh", "delete", kind.lower(), name]]
    if kind == "Node" and (kubectl.json("get", "node", name).get("spec") or {}).get(
        "unschedulable"
    ):
        return [["uncordon", name]]
    if kind == "Node":
        status = {"status": {"conditions": [{"type": "DiskPressure", "status": "False"},
                                            {"type": "Ready", "status": "True"}]}}  # fmt: skip
        return [["patch", "node", name, "--subresource=status", "--type=merge", "-p",
                 json.dumps(status)]]  # fmt: skip
    return []


def _turn_off(flag: dict) -> bool:
    """Point a flag that serves a variant other than ``off`` (its default, or one its targeting
    rule picks) back at ``off``; whether it changed. (In the demo's file every flag defaults to
    off; a flag without an ``off`` variant is left alone.)"""
    variants = flag.get("variants")
    if not isinstance(variants, dict) or "off" not in variants:
        return False
    changed = False
    if flag.get("defaultVariant") != "off":
        flag["defaultVariant"] = "off"
        changed = True

    def off(rule: object) -> object:
        nonlocal changed
        if isinstance(rule, str) and rule in variants and rule != "off":
            changed = True
            return "off"
        if isinstance(rule, list):
            return [off(r) for r in rule]
        if isinstance(rule, dict):
            return rule if "var" in rule else {k: off(v) for k, v in rule.items()}
        return rule

    if "targeting" in flag:
        flag["targeting"] = off(flag["targeting"])
    return changed


def mitigate(
    kubectl: Kubectl, root_causes: list[str], snapshot: Path | None = None
) -> list[tuple[list[str], int, str]]:
    """Repair the first root cause that has a remedy; (command, exit code, output) of each.
    ``snapshot``: the incident's snapshot, whose object history some remedies restore from."""
    done = []
    for entity in root_causes:
        try:
            commands = remedy(kubectl, entity, snapshot)
        except InputError as exc:
            done.append(([f"# {entity}"], 1, str(exc)))
            continue
        for command in commands:
            run = kubectl(*command.args, stdin=command.stdin)
            done.append((command.args, run.returncode, (run.stdout + run.stderr).strip()))
        if commands:
            break
    return done
