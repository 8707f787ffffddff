"""The OpenTelemetry demo (Astronomy Shop) as the generator sees it: services, their Kubernetes
names, who calls whom, and the request flows the load generator drives through them.

The call graph is written down here, not read from the corpus, so the generator works without
``../shared``; ``load_architecture`` reads an ``architecture.json`` in the ITBench shape when one
is given, and the tests check that the two agree.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from itbench.errors import InputError

NAMESPACE = "otel-demo"


@dataclass(frozen=True)
class Service:
    """One workload of the demo: its architecture name, Kubernetes name and serving details."""

    arch_name: str
    name: str
    port: int
    protocol: str
    image: str
    #: span name of the operation it serves (server side)
    operation: str
    #: a datastore or broker: no application spans of its own, called through client spans only
    backing: bool = False


@dataclass(frozen=True)
class Call:
    """One dependency edge of the architecture: ``source`` calls ``target``."""

    source: str
    target: str
    protocol: str


@dataclass(frozen=True)
class Flow:
    """A user request: a tree of calls, each node ``(service, children)``."""

    name: str
    weight: int
    root: tuple


@dataclass(frozen=True)
class Topology:
    services: tuple[Service, ...]
    calls: tuple[Call, ...]
    flows: tuple[Flow, ...]

    def service(self, name: str) -> Service:
        for svc in self.services:
            if svc.name == name or svc.arch_name == name:
                return svc
        raise KeyError(name)

    def callers(self, name: str) -> tuple[str, ...]:
        return tuple(sorted({c.source for c in self.calls if c.target == name}))

    def callees(self, name: str) -> tuple[str, ...]:
        return tuple(sorted({c.target for c in self.calls if c.source == name}))

    def upstream_chain(self, name: str) -> list[tuple[str, str]]:
        """Every (callee, caller) edge from ``name`` up to the entry point, in causal order."""
        edges: list[tuple[str, str]] = []
        seen = {name}
        frontier = [name]
        while frontier:
            nxt: list[str] = []
            for callee in frontier:
                for caller in self.callers(callee):
                    if caller == "load-generator":
                        continue  # the traffic source is not a victim
                    edges.append((callee, caller))
                    if caller not in seen:
                        seen.add(caller)
                        nxt.append(caller)
            frontier = nxt
        # order the edges so a service's incoming failures all come before its outgoing ones:
        # sort by the callee's longest distance from ``name`` (the graph has no cycles)
        depth = {name: 0}
        for _ in range(len(edges)):
            for callee, caller in edges:
                depth[caller] = max(depth.get(caller, 0), depth.get(callee, 0) + 1)
        return sorted(edges, key=lambda e: (depth[e[0]], e[0], e[1]))


def _svc(arch: str, name: str, port: int, proto: str, op: str, *, backing: bool = False) -> Service:
    image = f"ghcr.io/open-telemetry/demo:2.0.2-{name}"
    return Service(arch, name, port, proto, image, op, backing)


# Kubernetes names follow the demo's Helm chart (``checkout``, not ``checkout-service``).
SERVICES: tuple[Service, ...] = (
    _svc("frontend-proxy", "frontend-proxy", 8080, "HTTP", "ingress"),
    _svc("frontend", "frontend", 8080, "HTTP", "GET"),
    _svc("ad-service", "ad", 8080, "gRPC", "oteldemo.AdService/GetAds"),
    _svc("cart-service", "cart", 8080, "gRPC", "oteldemo.CartService/GetCart"),
    _svc("checkout-service", "checkout", 8080, "gRPC", "oteldemo.CheckoutService/PlaceOrder"),
    _svc("currency-service", "currency", 8080, "gRPC", "CurrencyService/Convert"),
    _svc("email-service", "email", 8080, "HTTP", "POST /send_order_confirmation"),
    _svc("fraud-detection-service", "fraud-detection", 8080, "TCP", "orders process"),
    _svc("accounting-service", "accounting", 8080, "TCP", "orders process"),
    _svc("image-provider", "image-provider", 8081, "HTTP", "GET /static"),
    _svc("load-generator", "load-generator", 8089, "HTTP", "user_session"),
    _svc("payment-service", "payment", 8080, "gRPC", "oteldemo.PaymentService/Charge"),
    _svc(
        "product-catalog-service",
        "product-catalog",
        8080,
        "gRPC",
        "oteldemo.ProductCatalogService/ListProducts",
    ),
    _svc(
        "product-reviews-service",
        "product-reviews",
        8080,
        "gRPC",
        "oteldemo.ProductReviewService/GetProductReviews",
    ),
    _svc("quote-service", "quote", 8080, "HTTP", "POST /getquote"),
    _svc(
        "recommendation-service",
        "recommendation",
        8080,
        "gRPC",
        "oteldemo.RecommendationService/ListRecommendations",
    ),
    _svc("shipping-service", "shipping", 8080, "gRPC", "oteldemo.ShippingService/GetQuote"),
    _svc("kafka", "kafka", 9092, "TCP", "orders publish", backing=True),
    _svc("valkey", "valkey-cart", 6379, "TCP", "HGET", backing=True),
    _svc("postgresql", "postgresql", 5432, "TCP", "INSERT", backing=True),
)

_EDGES = (
    ("load-generator", "frontend-proxy", "HTTP"),
    # the proxy's routes to the web app and the image server (implied by its role in the demo)
    ("frontend-proxy", "frontend", "HTTP"),
    ("frontend-proxy", "image-provider", "HTTP"),
    ("frontend", "ad", "gRPC"),
    ("frontend", "cart", "gRPC"),
    ("frontend", "checkout", "gRPC"),
    ("frontend", "currency", "gRPC"),
    ("frontend", "product-catalog", "gRPC"),
    ("frontend", "recommendation", "gRPC"),
    ("frontend", "shipping", "gRPC"),
    ("frontend", "product-reviews", "gRPC"),
    ("checkout", "cart", "gRPC"),
    ("checkout", "currency", "gRPC"),
    ("checkout", "email", "gRPC"),
    ("checkout", "payment", "gRPC"),
    ("checkout", "product-catalog", "gRPC"),
    ("checkout", "shipping", "gRPC"),
    ("checkout", "kafka", "TCP"),
    ("shipping", "quote", "HTTP"),
    ("recommendation", "product-catalog", "gRPC"),
    ("cart", "valkey-cart", "TCP"),
    ("accounting", "kafka", "Consumer"),
    ("accounting", "postgresql", "TCP"),
    ("fraud-detection", "kafka", "Consumer"),
)

# Request trees; kafka consumers hang under the producer span as in the demo's traces.
_KAFKA = ("kafka", (("accounting", (("postgresql", ()),)), ("fraud-detection", ())))
FLOWS: tuple[Flow, ...] = (
    Flow(
        "home",
        5,
        (
            "frontend-proxy",
            (("frontend", (("product-catalog", ()), ("currency", ()), ("ad", ()))),),
        ),
    ),
    Flow(
        "product",
        5,
        (
            "frontend-proxy",
            (
                (
                    "frontend",
                    (
                        ("product-catalog", ()),
                        ("recommendation", (("product-catalog", ()),)),
                        ("product-reviews", ()),
                        ("ad", ()),
                        ("cart", (("valkey-cart", ()),)),
                    ),
                ),
                ("image-provider", ()),
            ),
        ),
    ),
    Flow(
        "cart",
        3,
        ("frontend-proxy", (("frontend", (("cart", (("valkey-cart", ()),)), ("currency", ()))),)),
    ),
    Flow(
        "shipping",
        2,
        ("frontend-proxy", (("frontend", (("shipping", (("quote", ()),)),)),)),
    ),
    Flow(
        "checkout",
        3,
        (
            "frontend-proxy",
            (
                (
                    "frontend",
                    (
                        (
                            "checkout",
                            (
                                ("cart", (("valkey-cart", ()),)),
                                ("product-catalog", ()),
                                ("currency", ()),
                                ("shipping", (("quote", ()),)),
                                ("payment", ()),
                                ("email", ()),
                                _KAFKA,
                            ),
                        ),
                    ),
                ),
            ),
        ),
    ),
)

OTEL_DEMO = Topology(
    services=SERVICES,
    calls=tuple(Call(s, t, p) for s, t, p in _EDGES),
    flows=FLOWS,
)


def kube_name(arch_name: str) -> str:
    """The Kubernetes name of an architecture component (``checkout-service`` -> ``checkout``)."""
    for svc in SERVICES:
        if svc.arch_name == arch_name:
            return svc.name
    return arch_name.removesuffix("-service")


def load_architecture(path: Path) -> list[Call]:
    """The dependency edges of an ITBench ``architecture.json``, in Kubernetes names."""
    try:
        doc = json.loads(path.read_text())
        deps = doc["dependencies"]
        return [
            Call(kube_name(d["source"]), kube_name(d["target"]), d.get("protocol") or d["type"])
            for d in deps
        ]
    except FileNotFoundError as exc:
        raise InputError(f"{path}: architecture file not found") from exc
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise InputError(f"{path}: not an ITBench architecture (dependencies[]): {exc}") from exc
