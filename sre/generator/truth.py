"""The ground truth of a generated incident, in the ITBench schema: the root-cause object, the
faulty workload and every service the failure climbed through (as groups, with Service/Pod/
Deployment aliases), the propagation chain in order, the fault entry and the alerts it fired."""

from __future__ import annotations

import re

from sre.generator.alerts import FiredAlert
from sre.generator.ground_truth import Alert, Fault, FaultEntity, GroundTruth, Group, Propagation
from sre.generator.incident import Incident

_REMEDY = {
    "Deployment": "kubectl -n {ns} rollout undo deployment/{name}",
    "Service": "kubectl -n {ns} apply -f the previous {name} Service manifest",
    "ConfigMap": "restore the previous flag values in ConfigMap {name}",
    "NetworkPolicy": "kubectl -n {ns} delete networkpolicy {name}",
    "ResourceQuota": "raise or delete ResourceQuota {name} in namespace {ns}",
    "Node": "free disk space on node {name} (images, logs) and uncordon it",
}


def _svc_id(name: str) -> str:
    return f"{name}-service-1"


def _pod_id(name: str) -> str:
    return f"{name}-pod-1"


def _effect(effect: str) -> str:
    return {"latency": "latency is above threshold", "error": "error rate is above threshold"}.get(
        effect, "error rate is above threshold"
    )


def build_ground_truth(inc: Incident, fired: list[FiredAlert]) -> GroundTruth:
    plan = inc.plan
    ns = inc.namespace
    target = plan.target.name
    root = plan.root
    root_id = f"{root.name}-{root.kind.lower()}-1"
    groups: list[Group] = [
        Group(
            id=root_id,
            kind=root.kind,
            namespace=root.namespace or None,
            name=root.name,
            filter=[f"^{re.escape(root.name)}$"],
            root_cause=True,
        )
    ]
    for svc in inc.affected:
        if not (root.kind == "Service" and svc == target):
            groups.append(Group(id=_svc_id(svc), kind="Service", namespace=ns, filter=[f"^{svc}$"]))
        groups.append(
            Group(
                id=_pod_id(svc),
                kind="Pod",
                namespace=ns,
                # template hash and suffix: does not catch frontend-proxy pods for frontend
                filter=[f"^{re.escape(svc)}-[a-z0-9]{{6,10}}-[a-z0-9]{{5}}$"],
            )
        )
    target_svc_id = root_id if root.kind == "Service" else _svc_id(target)
    aliases = []
    for svc in inc.affected:
        members = [_svc_id(svc) if svc != target else target_svc_id, _pod_id(svc)]
        if svc == target and root.kind == "Deployment":
            members.append(root_id)  # the pods and the Deployment are one workload
        aliases.append(members)

    symptom = plan.symptom
    props: list[Propagation] = []
    # a broken Service leaves its pods healthy: the chain starts at the Service itself
    if root.kind != "Service":
        props.append(
            Propagation(
                source=root_id,
                target=_pod_id(target),
                condition=plan.condition,
                effect=plan.pod_effect,
            )
        )
        props.append(
            Propagation(
                source=_pod_id(target),
                target=target_svc_id,
                condition=plan.pod_effect,
                effect=f"{target} service {_effect(symptom.effect)}"
                if symptom.effect != "unavailable"
                else f"{target} service has no reachable endpoint",
            )
        )
    for callee, caller in inc.topology.upstream_chain(target):
        if caller not in inc.affected:
            continue
        src = target_svc_id if callee == target else _svc_id(callee)
        props.append(
            Propagation(
                source=src,
                target=_svc_id(caller),
                condition=f"calls from {caller} to {callee} fail or slow down",
                effect=f"{caller} service {_effect(symptom.effect)}",
            )
        )

    entity_group = root_id
    fault = Fault(
        category=plan.category,
        condition=plan.condition,
        entity=FaultEntity(group_id=entity_group, kind=root.kind, name=root.name),
        fault_mechanism=plan.mechanism,
    )
    alerts: list[Alert] = []
    seen = set()
    for a in sorted(fired, key=lambda a: (a.active_at, a.alertname)):
        labels = a.label_map
        group = None
        if a.alertname == plan.pod_alert and a.active_at >= inc.onset:
            # a node's own alert belongs to the node; a pod's (cordoned node) to the pod
            node_alert = root.kind == "Node" and plan.pod_alert.startswith("KubeNode")
            group = root_id if node_alert else _pod_id(target)
        elif labels.get("service_name") in inc.affected and a.active_at >= inc.fault_time:
            wanted = "RequestLatency" if symptom.effect == "latency" else "RequestErrorRate"
            if a.alertname == wanted:
                svc = labels["service_name"]
                group = target_svc_id if svc == target else _svc_id(svc)
        if group and (group, a.alertname) not in seen:
            seen.add((group, a.alertname))
            alerts.append(
                Alert(
                    id=a.alertname,
                    group_id=group,
                    metadata={"description": f"{a.alertname} on {group}"},
                )
            )
    remedy = _REMEDY.get(root.kind, "kubectl -n {ns} delete {kind} {name}").format(
        ns=root.namespace or ns, name=root.name, kind=root.kind.lower()
    )
    return GroundTruth(
        groups=groups,
        aliases=aliases,
        propagations=props,
        fault=[fault],
        alerts=alerts,
        recommended_actions=[
            {"solution": {"id": f"undo_{plan.fault_type.replace('-', '_')}", "actions": [remedy]}}
        ],
    )
