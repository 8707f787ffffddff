"""The incidents of ``writer.py``: flagd flag flips with no pod change, plain StressChaos,
PodChaos ``pod-failure`` and Service ``targetPort`` changes with Ready pods, each in several
shapes and each beside decoys. Root causes are named as ITBench's ground truths name them (the
flagd ConfigMap, the Chaos Mesh experiment, the Service) and were fixed before the baseline
was run on them."""

from __future__ import annotations

from datetime import timedelta

from tests.sre.shapes4.writer import (
    FAULT_AT,
    NS,
    Change,
    Effect,
    Incident,
    Install,
    chaos,
    flip,
    pause_pods,
    pod_of,
    retarget,
    roll,
    scale,
)

S = timedelta(seconds=1)
M = timedelta(minutes=1)


def rc(kind: str, name: str, namespace: str = NS) -> str:
    return f"{namespace}/{kind}/{name}"


def decoy(app: str, offset: timedelta, tag: str = "2.0.3") -> Change:
    """A routine rollout of ``app`` at ``FAULT_AT + offset`` (its spans stay healthy)."""
    return (FAULT_AT + offset, roll(app, tag))


def stress(name: str, selector: dict[str, object], stressors: dict[str, object],
           namespace: str = "chaos-mesh", listed: bool = False) -> Change:  # fmt: skip
    spec = {"mode": "all", "selector": selector, "stressors": stressors, "duration": "30m"}
    return (FAULT_AT, chaos("StressChaos", name, spec, namespace, listed))


def pod_failure(name: str, selector: dict[str, object], app: str, ready: bool | None,
                listed: bool = False, namespace: str = "chaos-mesh") -> Change:  # fmt: skip
    """A PodChaos pod-failure; ``ready`` None: the pods' objects show nothing of it."""
    make = chaos("PodChaos", name, {"action": "pod-failure", "mode": "all", "duration": "20m",
                                    "selector": selector}, namespace, listed)  # fmt: skip
    if ready is None:
        return (FAULT_AT, make)
    pause = pause_pods(app, ready)

    def both(world, when):  # type: ignore[no-untyped-def]  # test helper, world is writer.World
        make(world, when)
        pause(world, when + 3 * S)

    return (FAULT_AT, both)


def by_label(app: str, key: str = "app.kubernetes.io/name") -> dict[str, object]:
    return {"namespaces": [NS], "labelSelectors": {key: app}}


INSTALL = Install()
OLD_CHART = Install(configmap="opentelemetry-demo-flagd-config", layout="bare")
DISABLED = Install(layout="disabled")
EVALUATORS = Install(key="flagd.json", layout="evaluators")

INCIDENTS: dict[str, Incident] = {
    i.name: i
    for i in (
        # --- flagd flips: only the ConfigMap changes --------------------------------------
        Incident(
            "flag-payment-failure-percent",
            rc("ConfigMap", "flagd-config"),
            (FAULT_AT, flip(INSTALL, paymentFailure=("defaultVariant", "50%"))),
            Effect(
                fail={
                    "payment": (
                        0.5,
                        "Payment request failed. Invalid token. app.loyalty.level=gold",
                    )
                }
            ),
            decoys=(decoy("currency", -6 * M), decoy("shipping", 50 * S)),
            alert_on="checkout",
        ),
        Incident(
            "flag-cart-failure-old-chart",
            rc("ConfigMap", "opentelemetry-demo-flagd-config"),
            (FAULT_AT, flip(OLD_CHART, cartFailure=("defaultVariant", "on"))),
            Effect(
                fail={
                    "cart": (
                        0.4,
                        "Can't access cart storage. System.ApplicationException"
                        ": Wasn't able to connect to redis",
                    )
                }
            ),
            decoys=(
                decoy("recommendation", 40 * S),
                (FAULT_AT - 5 * M, scale("load-generator", 2)),
            ),
            install=OLD_CHART,
            export="two",
        ),
        Incident(
            "flag-product-catalog-state",
            rc("ConfigMap", "flagd-config"),
            (FAULT_AT, flip(DISABLED, productCatalogFailure=("state", "ENABLED"))),
            Effect(
                fail={"product-catalog": (0.2, "Error: Product Catalog Fail Feature Flag Enabled")}
            ),
            decoys=(decoy("ad", 70 * S), decoy("email", -3 * M)),
            install=DISABLED,
            export="watch",
        ),
        Incident(
            "flag-image-slow-load",
            rc("ConfigMap", "flagd-config"),
            (FAULT_AT, flip(EVALUATORS, imageSlowLoad=("defaultVariant", "5sec"))),
            Effect(slower={"image-provider": 5000.0}),
            decoys=(decoy("frontend", 45 * S), decoy("quote", -8 * M)),
            install=EVALUATORS,
            export="list",
            alert_on="frontend-proxy",
        ),
        Incident(
            "flag-payment-unreachable",
            rc("ConfigMap", "flagd-config"),
            (FAULT_AT, flip(INSTALL, paymentUnreachable=("defaultVariant", "on"))),
            Effect(
                refused={
                    "payment": "14 UNAVAILABLE: Name resolution failed for target "
                    "dns:badAddress:50051"
                }
            ),
            decoys=(decoy("checkout", 60 * S), decoy("cart", -4 * M)),
            alertmanager=True,
            alert_on="checkout",
        ),
        Incident(
            "flag-ad-high-cpu",
            rc("ConfigMap", "flagd-config"),
            (FAULT_AT, flip(INSTALL, adHighCpu=("defaultVariant", "on"))),
            Effect(slower={"ad": 450.0}, cpu=("ad",)),
            decoys=(decoy("product-catalog", 35 * S), decoy("frontend", -7 * M)),
            export="watch",
        ),
        Incident(
            "flag-cart-slow-propagation",
            rc("ConfigMap", "flagd-config"),
            (FAULT_AT, flip(INSTALL, cartFailure=("defaultVariant", "on"))),
            Effect(fail={"cart": (0.3, "EmptyCart failed: feature flag cartFailure")}),
            decoys=(decoy("frontend", 45 * S), decoy("cart", -3 * M)),
            export="list",
            lag=100 * S,
        ),
        Incident(
            "flag-kafka-queue",
            rc("ConfigMap", "flagd-config"),
            (FAULT_AT, flip(INSTALL, kafkaQueueProblems=("defaultVariant", "on"))),
            Effect(
                slower={"checkout": 180.0},
                log={
                    "fraud-detection": "Consumer lag on topic orders: 4211 messages",
                    "accounting": "Consumer lag on topic orders: 3982 messages",
                },
            ),
            decoys=(decoy("email", 30 * S), decoy("accounting", -6 * M)),
            alert_on="checkout",
        ),
        Incident(
            "flag-recommendation-cache",
            rc("ConfigMap", "flagd-config"),
            (FAULT_AT, flip(INSTALL, recommendationCacheFailure=("defaultVariant", "on"))),
            Effect(slower={"recommendation": 700.0}, memory=("recommendation",)),
            decoys=(decoy("frontend", 20 * S), decoy("product-catalog", -2 * M)),
            export="two",
            alertmanager=True,
        ),
        Incident(
            "flag-load-generator-flood",
            rc("ConfigMap", "flagd-config"),
            (FAULT_AT, flip(INSTALL, loadGeneratorFloodHomepage=("defaultVariant", "on"))),
            Effect(
                slower={"frontend": 260.0},
                fail={"frontend": (0.1, "upstream connect error or disconnect/reset")},
            ),
            decoys=(decoy("frontend", 50 * S), decoy("ad", -5 * M)),
            export="watch",
            lag=40 * S,
        ),
        Incident(
            "flag-email-leak-yaml-dump",
            rc("ConfigMap", "flagd-config"),
            (FAULT_AT, flip(INSTALL, emailMemoryLeak=("defaultVariant", "100x"))),
            Effect(slower={"email": 350.0}, memory=("email",)),
            decoys=(decoy("checkout", 40 * S), decoy("email", -6 * M)),
            export="yaml",
            alert_on="checkout",
        ),
        # --- plain StressChaos ------------------------------------------------------------
        Incident(
            "stress-cpu-label",
            rc("StressChaos", "recommendation-cpu-stress", "chaos-mesh"),
            stress(
                "recommendation-cpu-stress",
                by_label("recommendation"),
                {"cpu": {"workers": 4, "load": 100}},
            ),
            Effect(slower={"recommendation": 320.0}, cpu=("recommendation",)),
            decoys=(decoy("product-catalog", 50 * S), decoy("checkout", -6 * M)),
        ),
        Incident(
            "stress-memory-field-selector",
            rc("StressChaos", "email-memory", "chaos-mesh"),
            stress(
                "email-memory",
                {"namespaces": [NS], "fieldSelectors": {"metadata.name": pod_of("email")}},
                {"memory": {"workers": 2, "size": "512MB"}},
                listed=True,
            ),
            Effect(
                slower={"email": 900.0}, fail={"email": (0.1, "Errno::ENOMEM")}, memory=("email",)
            ),
            decoys=(decoy("payment", 40 * S), decoy("currency", -5 * M)),
            export="list",
            alert_on="checkout",
        ),
        Incident(
            "stress-cpu-own-namespace",
            rc("StressChaos", "currency-burn"),
            stress(
                "currency-burn",
                {"labelSelectors": {"opentelemetry.io/name": "currency"}},
                {"cpu": {"workers": 2, "load": 90}},
                namespace=NS,
            ),
            Effect(slower={"currency": 250.0}, cpu=("currency",)),
            decoys=(decoy("frontend", 30 * S), decoy("ad", -2 * M)),
            export="watch",
        ),
        Incident(
            "stress-expression",
            rc("StressChaos", "quote-stress", "chaos-mesh"),
            stress(
                "quote-stress",
                {
                    "namespaces": [NS],
                    "expressionSelectors": [
                        {"key": "opentelemetry.io/name", "operator": "In", "values": ["quote"]}
                    ],
                },
                {"cpu": {"workers": 1, "load": 100}, "memory": {"workers": 1, "size": "256MB"}},
            ),
            Effect(slower={"quote": 600.0}, cpu=("quote",)),
            decoys=(decoy("shipping", 45 * S), decoy("email", -9 * M)),
            export="two",
            alertmanager=True,
            alert_on="checkout",
        ),
        # --- PodChaos pod-failure ---------------------------------------------------------
        Incident(
            "pod-failure-not-ready",
            rc("PodChaos", "cart-pod-failure", "chaos-mesh"),
            pod_failure("cart-pod-failure", by_label("cart"), "cart", ready=False),
            Effect(refused={"cart": "connection refused"}),
            decoys=(decoy("frontend", 40 * S), decoy("recommendation", -6 * M)),
        ),
        Incident(
            "pod-failure-calls-only",
            rc("PodChaos", "quote-outage", "chaos-mesh"),
            pod_failure(
                "quote-outage",
                {"namespaces": [NS], "fieldSelectors": {"metadata.name": pod_of("quote")}},
                "quote",
                ready=None,
                listed=True,
            ),
            Effect(refused={"quote": "dial tcp 10.96.5.113:8080: connect: connection refused"}),
            decoys=(decoy("shipping", 50 * S), decoy("checkout", -4 * M)),
            export="list",
            alert_on="checkout",
        ),
        Incident(
            "pod-failure-watch",
            rc("PodChaos", "shipping-down", "chaos-mesh"),
            pod_failure(
                "shipping-down",
                by_label("shipping", "opentelemetry.io/name"),
                "shipping",
                ready=False,
            ),
            Effect(refused={"shipping": "connection refused"}),
            decoys=(decoy("checkout", 35 * S), decoy("quote", -5 * M)),
            export="watch",
            alertmanager=True,
            alert_on="checkout",
        ),
        Incident(
            "pod-failure-ready-two",
            rc("PodChaos", "catalog-failure", "chaos-mesh"),
            pod_failure(
                "catalog-failure",
                {
                    "namespaces": [NS],
                    "expressionSelectors": [
                        {
                            "key": "app.kubernetes.io/name",
                            "operator": "In",
                            "values": ["product-catalog"],
                        }
                    ],
                },
                "product-catalog",
                ready=True,
            ),
            Effect(refused={"product-catalog": "connection refused"}),
            decoys=(decoy("recommendation", 45 * S), decoy("frontend", -3 * M)),
            export="two",
        ),
        Incident(
            "pod-failure-yaml-dump",
            rc("PodChaos", "payment-failure"),
            pod_failure(
                "payment-failure",
                {"labelSelectors": {"app.kubernetes.io/name": "payment"}},
                "payment",
                ready=False,
                namespace=NS,
            ),
            Effect(refused={"payment": "connection refused"}),
            decoys=(decoy("checkout", 45 * S), decoy("cart", -5 * M)),
            export="yaml",
            alert_on="checkout",
        ),
        # --- Service targetPort, pods Ready -----------------------------------------------
        Incident(
            "target-port-ad",
            rc("Service", "ad"),
            (FAULT_AT, retarget("ad", 9999)),
            Effect(refused={"ad": "connection refused"}),
            decoys=(decoy("frontend", 40 * S), decoy("ad", -9 * M)),
        ),
        Incident(
            "target-port-watch",
            rc("Service", "currency"),
            (FAULT_AT, retarget("currency", 7001)),
            Effect(refused={"currency": "14 UNAVAILABLE: connect ECONNREFUSED"}),
            decoys=(decoy("checkout", 30 * S), decoy("frontend", -5 * M)),
            export="watch",
        ),
        Incident(
            "target-port-two",
            rc("Service", "email"),
            (FAULT_AT, retarget("email", 8081)),
            Effect(refused={"email": "Failed to open TCP connection (Connection refused)"}),
            decoys=(decoy("checkout", 55 * S), decoy("email", -7 * M)),
            export="two",
            alertmanager=True,
            alert_on="checkout",
        ),
        Incident(
            "target-port-list",
            rc("Service", "quote"),
            (FAULT_AT, retarget("quote", 80)),
            Effect(refused={"quote": "connection refused"}),
            decoys=(decoy("shipping", 35 * S), decoy("payment", -4 * M)),
            export="list",
            alert_on="checkout",
        ),
        Incident(
            "target-port-no-container-ports",
            rc("Service", "payment"),
            (FAULT_AT, retarget("payment", 50051)),
            Effect(refused={"payment": "14 UNAVAILABLE: No connection established"}),
            decoys=(decoy("checkout", 40 * S), decoy("payment", -6 * M)),
            install=Install(ports=False),
            export="list",
            alert_on="checkout",
        ),
    )
}
