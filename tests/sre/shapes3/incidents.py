"""The incidents of ``writer.py``, each with its root cause fixed as ITBench's ground truths name
it (the flagd ConfigMap for a flag, the Chaos Mesh object for an experiment, the ConfigMap for a
configuration change, the Deployment for its CPU limit, the NetworkPolicy, the Service), and with
decoys in the window that cause nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from tests.sre.shapes3.writer import (
    CHAOS_NS,
    FAULT,
    NS,
    Cluster,
    Incident,
    Kept,
    chaos,
    create_batch,
    new_image,
    pod_name,
    rollout,
    scale,
    selector,
    set_flags,
)

S = timedelta(seconds=1)


def at(when: datetime, change: Callable[[Cluster], None]) -> Callable[[Cluster, datetime], None]:
    """A change made at ``when``: seen by every observation from then on."""

    def apply(cluster: Cluster, t: datetime) -> None:
        if t >= when:
            change(cluster)

    return apply


def both(*changes: Callable[[Cluster, datetime], None]) -> Callable[[Cluster, datetime], None]:
    def apply(cluster: Cluster, t: datetime) -> None:
        for change in changes:
            change(cluster, t)

    return apply


# --- decoys: each a change in the window that causes nothing ---------------------------------


def decoy_rollout(app: str, when: datetime) -> Callable[[Cluster, datetime], None]:
    """A routine image rollout of ``app`` at ``when`` (its spans stay healthy)."""
    return at(when, lambda c: rollout(c, app, when, new_image("2.1.4")))


def decoy_scale_up(app: str, when: datetime) -> Callable[[Cluster, datetime], None]:
    return at(when, lambda c: scale(c, app, 4, when))


def decoy_new_workload(name: str, when: datetime) -> Callable[[Cluster, datetime], None]:
    return at(when, lambda c: create_batch(c, name, when))


# --- faults -----------------------------------------------------------------------------------


def flag(*names: str) -> Callable[[Cluster, datetime], None]:
    return at(FAULT, lambda c: set_flags(c, FAULT, *names))


def chaos_object(kind: str, name: str, spec: dict[str, Any],
                 created: datetime = FAULT) -> Callable[[Cluster, datetime], None]:  # fmt: skip
    def make(cluster: Cluster) -> None:
        cluster[CHAOS_NS, kind, name] = Kept(chaos(kind, name, spec), created)

    return at(created, make)


def scheduled(name: str, kind: str, inner: dict[str, Any]) -> Callable[[Cluster, datetime], None]:
    """A Schedule and the experiment it runs each minute (owned by it, named after the minute)."""
    field = kind[0].lower() + kind[1:]

    def apply(cluster: Cluster, t: datetime) -> None:
        if t < FAULT:
            return
        cluster[CHAOS_NS, "Schedule", name] = Kept(chaos("Schedule", name, {
            "schedule": "@every 1m", "type": kind, "historyLimit": 2,
            "concurrencyPolicy": "Forbid", field: inner}), FAULT)  # fmt: skip
        minute = t.replace(second=0, microsecond=0)
        child = f"{name}-{int(minute.timestamp())}"
        body = chaos(kind, child, inner)
        body["metadata"]["ownerReferences"] = [{"apiVersion": "chaos-mesh.org/v1alpha1",
                                                "kind": "Schedule", "name": name,
                                                "controller": True}]  # fmt: skip
        cluster[CHAOS_NS, kind, child] = Kept(body, minute)

    return apply


def edit_config(name: str, key: str, text: str) -> Callable[[Cluster, datetime], None]:
    def change(cluster: Cluster) -> None:
        cm = cluster[NS, "ConfigMap", name]
        cm.body["data"][key] = text
        cm.wrote("kubectl-edit", FAULT)

    return at(FAULT, change)


def cpu_limit(app: str, cpu: str) -> Callable[[Cluster, datetime], None]:
    def edit(spec: dict[str, Any]) -> None:
        spec["containers"][0]["resources"]["limits"]["cpu"] = cpu

    return at(FAULT, lambda c: rollout(c, app, FAULT, edit, manager="kubectl-set"))


def network_policy(name: str, spec: dict[str, Any]) -> Callable[[Cluster, datetime], None]:
    def make(cluster: Cluster) -> None:
        cluster[NS, "NetworkPolicy", name] = Kept({
            "apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
            "metadata": {"name": name, "namespace": NS}, "spec": spec}, FAULT)  # fmt: skip

    return at(FAULT, make)


def narrow_payment_ingress(cluster: Cluster) -> None:
    """The allow-list now admits only pods carrying a label no caller has."""
    np = cluster[NS, "NetworkPolicy", "payment-ingress"]
    np.body["spec"]["ingress"][0]["from"] = [{"podSelector": {"matchLabels": {
        "app.kubernetes.io/component": "checkout", "security.tier": "pci"}}}]  # fmt: skip
    np.wrote("kubectl-apply", FAULT)


def target_port(app: str, port: int | str) -> Callable[[Cluster, datetime], None]:
    def change(cluster: Cluster) -> None:
        svc = cluster[NS, "Service", app]
        svc.body["spec"]["ports"][0]["targetPort"] = port
        svc.wrote("kubectl-patch", FAULT)

    return at(FAULT, change)


def _rc(kind: str, name: str, namespace: str = NS) -> str:
    return f"{namespace}/{kind}/{name}"


# decoy moments: one before the fault, one between the fault and the first alert
EARLY = FAULT - 50 * S
LATE = FAULT + 35 * S
VALKEY_FULL = "port 6379\nmaxmemory 2mb\nmaxmemory-policy noeviction\nappendonly no\n"
OOM = "OOM command not allowed when used memory > 'maxmemory'."

INCIDENTS: dict[str, Incident] = {
    i.name: i
    for i in (
        # -- flagd flags: the ConfigMap changes, no pod does --
        Incident("flag-payment-failure", _rc("ConfigMap", "flagd-config"), "flag flip, errors",
                 flag("paymentFailure"), both(decoy_rollout("email", EARLY),
                                              decoy_rollout("quote", LATE)),
                 errors={"payment": "Payment request failed. Invalid token. app.loyalty.level=gold"},
                 logs={"payment": "payment: charge failed: Invalid token"}),
        Incident("flag-product-catalog-failure", _rc("ConfigMap", "flagd-config"),
                 "flag flip, errors", flag("productCatalogFailure"),
                 both(decoy_scale_up("load-generator", EARLY),
                      decoy_new_workload("nightly-export", LATE)),
                 errors={"product-catalog": "Error: Product Catalog Fail Feature Flag Enabled"}),
        Incident("flag-ad-high-cpu", _rc("ConfigMap", "flagd-config"), "flag flip, latency",
                 flag("adHighCpu"), both(decoy_rollout("frontend", LATE),
                                         decoy_rollout("shipping", EARLY)),
                 slow={"ad": 30.0}, alert_on="ad", alert="RequestLatencyP95High"),
        Incident("flag-cart-failure-logs", _rc("ConfigMap", "flagd-config"),
                 "flag flip, errors in traces and logs", flag("cartFailure"),
                 both(decoy_rollout("checkout", LATE), decoy_new_workload("report-runner", EARLY)),
                 errors={"cart": "Can't access cart storage. System.ApplicationException"},
                 logs={"cart": "cart: EmptyCart failed: Can't access cart storage"}),
        Incident("flag-recommendation-cache", _rc("ConfigMap", "flagd-config"),
                 "flag flip, latency", flag("recommendationCacheFailure"),
                 both(decoy_scale_up("load-generator", LATE), decoy_rollout("email", EARLY)),
                 slow={"recommendation": 25.0}, alert="RequestLatencyP95High"),
        # -- Chaos Mesh experiments: kinds that act on what their selector picks --
        Incident("networkchaos-delay", _rc("NetworkChaos", "product-catalog-delay", CHAOS_NS),
                 "NetworkChaos delay", chaos_object("NetworkChaos", "product-catalog-delay", {
                     "action": "delay", "mode": "all", "selector": selector("product-catalog"),
                     "delay": {"latency": "800ms", "jitter": "50ms"}, "duration": "30m"}),
                 both(decoy_rollout("cart", LATE), decoy_scale_up("load-generator", EARLY)),
                 net_delay={"product-catalog": 800.0}, alert="RequestLatencyP95High"),
        Incident("networkchaos-partition", _rc("NetworkChaos", "checkout-payment-partition",
                                               CHAOS_NS),
                 "NetworkChaos partition, failing client spans only",
                 chaos_object("NetworkChaos", "checkout-payment-partition", {
                     "action": "partition", "mode": "all", "direction": "to",
                     "selector": selector("checkout"),
                     "target": {"mode": "all", "selector": selector("payment")}}),
                 both(decoy_rollout("checkout", LATE), decoy_rollout("ad", EARLY)),
                 cut=(("checkout", "payment"),), cut_error="context deadline exceeded (timeout)"),
        Incident("networkchaos-delay-expression", _rc("NetworkChaos", "shipping-latency",
                                                      CHAOS_NS),
                 "NetworkChaos delay, expression selector",
                 chaos_object("NetworkChaos", "shipping-latency", {
                     "action": "delay", "mode": "one",
                     "selector": {"namespaces": [NS], "expressionSelectors": [
                         {"key": "app.kubernetes.io/component", "operator": "In",
                          "values": ["shipping"]}]},
                     "delay": {"latency": "1500ms"}}),
                 both(decoy_new_workload("nightly-export", LATE), decoy_rollout("quote", EARLY)),
                 net_delay={"shipping": 1500.0}, alert="RequestLatencyP95High"),
        Incident("stresschaos-memory-valkey", _rc("StressChaos", "valkey-memory", CHAOS_NS),
                 "StressChaos memory", chaos_object("StressChaos", "valkey-memory", {
                     "mode": "all", "selector": selector("valkey-cart"),
                     "stressors": {"memory": {"workers": 4, "size": "95%"}}}),
                 both(decoy_rollout("cart", LATE), decoy_scale_up("load-generator", EARLY)),
                 errors={"valkey-cart": "OOM command not allowed when used memory > 'maxmemory'."},
                 logs={"cart": f"cart: Wasn't able to connect to redis: {OOM}"}),
        Incident("stresschaos-memory-pods", _rc("StressChaos", "recommendation-memory", CHAOS_NS),
                 "StressChaos memory, pods selector",
                 chaos_object("StressChaos", "recommendation-memory", {
                     "mode": "all",
                     "selector": {"pods": {NS: [pod_name("recommendation")]}},
                     "stressors": {"memory": {"workers": 2, "size": "512MB"}}}),
                 both(decoy_rollout("product-catalog", LATE),
                      decoy_new_workload("report-runner", EARLY)),
                 slow={"recommendation": 20.0}, alert="RequestLatencyP95High",
                 logs={"recommendation": "recommendation: MemoryError in list_recommendations"}),
        Incident("schedule-partition", _rc("Schedule", "frontend-ad-partition", CHAOS_NS),
                 "scheduled NetworkChaos partition, component selector",
                 scheduled("frontend-ad-partition", "NetworkChaos", {
                     "action": "partition", "mode": "all", "direction": "to",
                     "selector": selector("frontend"), "duration": "55s",
                     "target": {"mode": "all", "selector": selector("ad")}}),
                 both(decoy_rollout("frontend", LATE), decoy_rollout("email", EARLY)),
                 cut=(("frontend", "ad"),), cut_error="context deadline exceeded (timeout)"),
        # -- application configuration read by its workload --
        Incident("valkey-maxmemory", _rc("ConfigMap", "valkey-cart-config"),
                 "datastore ConfigMap (maxmemory)",
                 edit_config("valkey-cart-config", "valkey.conf", VALKEY_FULL),
                 both(decoy_rollout("cart", LATE), decoy_new_workload("nightly-export", EARLY)),
                 errors={"valkey-cart": OOM},
                 logs={"cart": f"cart: Wasn't able to connect to redis: {OOM}",
                       "valkey-cart": "valkey: evicted 0 keys, used_memory above maxmemory"}),
        Incident("shipping-settings", _rc("ConfigMap", "shipping-settings"),
                 "application ConfigMap (upstream timeout)",
                 edit_config("shipping-settings", "settings.yaml",
                             "upstream:\n  timeoutMs: 1\n  retries: 0\n"),
                 both(decoy_rollout("quote", LATE), decoy_scale_up("load-generator", EARLY)),
                 errors={"shipping": "quote upstream: deadline exceeded after 1ms"},
                 logs={"shipping": "shipping: failed to get quote: deadline exceeded after 1ms"}),
        # -- throttling with no Warning event: the metrics alone show it --
        Incident("throttled-recommendation", _rc("Deployment", "recommendation"),
                 "CPU limit lowered, throttling in metrics only", cpu_limit("recommendation", "20m"),
                 both(decoy_rollout("email", LATE), decoy_new_workload("report-runner", EARLY)),
                 slow={"recommendation": 12.0}, throttled=("recommendation",),
                 alert="RequestLatencyP95High"),
        Incident("throttled-product-catalog", _rc("Deployment", "product-catalog"),
                 "CPU limit lowered, throttling in metrics only, caller rolled out",
                 cpu_limit("product-catalog", "10m"),
                 both(decoy_rollout("frontend", LATE), decoy_scale_up("load-generator", EARLY)),
                 slow={"product-catalog": 15.0}, throttled=("product-catalog",),
                 alert="RequestLatencyP95High"),
        # -- NetworkPolicies seen only in the callers' failing client spans --
        Incident("networkpolicy-deny-payment", _rc("NetworkPolicy", "deny-all-payment"),
                 "NetworkPolicy deny-all, failing client spans only",
                 network_policy("deny-all-payment", {
                     "podSelector": {"matchLabels": {"app.kubernetes.io/component": "payment"}},
                     "policyTypes": ["Ingress"], "ingress": []}),
                 both(decoy_rollout("payment", EARLY - 120 * S), decoy_rollout("ad", LATE)),
                 cut=(("*", "payment"),), cut_error="context deadline exceeded (timeout)"),
        Incident("networkpolicy-narrowed", _rc("NetworkPolicy", "payment-ingress"),
                 "NetworkPolicy allow-list narrowed, failing client spans only",
                 at(FAULT, narrow_payment_ingress),
                 both(decoy_rollout("checkout", LATE), decoy_new_workload("nightly-export", EARLY)),
                 cut=(("*", "payment"),), cut_error="context deadline exceeded (timeout)"),
        # -- a targetPort nobody listens on; the pods stay Ready --
        Incident("target-port-email", _rc("Service", "email"), "Service targetPort, pods Ready",
                 target_port("email", 9090),
                 both(decoy_scale_up("load-generator", LATE), decoy_rollout("email", EARLY)),
                 cut=(("*", "email"),), cut_error="connect: connection refused"),
        Incident("target-port-named", _rc("Service", "quote"),
                 "Service targetPort by a port name no container has",
                 target_port("quote", "http-alt"),
                 both(decoy_rollout("shipping", LATE), decoy_new_workload("report-runner", EARLY)),
                 cut=(("*", "quote"),), cut_error="connect: connection refused"),
        # -- symptoms only in the logs, objects exported without managedFields --
        Incident("flag-email-logs-only", _rc("ConfigMap", "flagd-config"),
                 "flag flip, errors in logs only, no managedFields", flag("emailMemoryLeak"),
                 both(decoy_rollout("checkout", LATE), decoy_rollout("email", EARLY - 200 * S)),
                 logs={"email": "email: OutOfMemoryError: failed to allocate 64MB (leak)"},
                 alert_on="email", alert="LogErrorRateHigh", managed_fields=False),
        Incident("valkey-maxmemory-logs-only", _rc("ConfigMap", "valkey-cart-config"),
                 "datastore ConfigMap, evictions in logs only, no managedFields",
                 edit_config("valkey-cart-config", "valkey.conf", VALKEY_FULL),
                 both(decoy_rollout("cart", LATE), decoy_scale_up("load-generator", EARLY)),
                 logs={"cart": f"cart: Wasn't able to connect to redis: {OOM}",
                       "valkey-cart": f"valkey: {OOM}"},
                 alert_on="cart", alert="LogErrorRateHigh", managed_fields=False),
        Incident("flag-payment-no-managed-fields", _rc("ConfigMap", "flagd-config"),
                 "flag flip, no managedFields, a workload created after it",
                 flag("paymentUnreachable"),
                 both(decoy_new_workload("nightly-export", LATE), decoy_rollout("cart", EARLY)),
                 cut=(("*", "payment"),), cut_error="connect: connection refused",
                 managed_fields=False),
        Incident("target-port-no-managed-fields", _rc("Service", "shipping"),
                 "Service targetPort, pods Ready, no managedFields", target_port("shipping", 8081),
                 both(decoy_rollout("checkout", LATE), decoy_new_workload("report-runner", LATE)),
                 cut=(("*", "shipping"),), cut_error="connect: connection refused",
                 managed_fields=False),
    )
}  # fmt: skip
