"""Records of the FinOps domain: the anomaly to explain, resources, root causes, hierarchies."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Anomaly:
    """What the agent is asked about: a cost anomaly on ``date`` in billing account ``account_id``."""

    date: dt.date
    account_id: str


@dataclass(frozen=True, order=True)
class Resource:
    """A node of the cost hierarchy, named as ITBench names it: its value and its level."""

    name: str
    type: str


@dataclass(frozen=True)
class Hierarchy:
    """How a billing table maps onto the drill-down tree (account level first)."""

    levels: tuple[str, ...]
    cost_column: str
    date_column: str
    #: Optional columns that let the baseline say *why* a leaf moved (price vs. usage).
    price_column: str | None = None
    quantity_column: str | None = None

    @property
    def account_level(self) -> str:
        return self.levels[0]


#: ITBench-Lite's ``data.csv``: Account > CSP > Cloud_Service > Application > Instance_Family.
LITE_HIERARCHY = Hierarchy(
    levels=("Account ID", "CSP", "Cloud_Service", "Application", "Instance_Family"),
    cost_column="unblended_cost",
    date_column="date",
    price_column="Price ($/hr)",
    quantity_column="Num_Instances",
)

#: FinOps Foundation FOCUS 1.0 exports, default mapping.
FOCUS_HIERARCHY = Hierarchy(
    levels=("BillingAccountId", "ProviderName", "ServiceCategory", "ServiceName", "ResourceId"),
    cost_column="BilledCost",
    date_column="ChargePeriodStart",
)


@dataclass(frozen=True)
class RootCause:
    """One independent root cause the drill-down can justify, with the numbers behind it."""

    resource: Resource
    #: ``instance_count_spike``, ``price_change``, ``new_resource``, ``cost_spike`` or ``broad_increase``.
    kind: str
    #: The node's values from the account down to itself, e.g. ("acct-1", "aws", "EC2", "shop", "m5").
    path: tuple[str, ...]
    actual: float
    expected: float
    #: Deviation in units of the node's own day-to-day noise.
    z_score: float
    #: Share of the account's deviation that this node accounts for.
    share: float
    explanation: str


@dataclass(frozen=True)
class Diagnosis:
    anomaly: Anomaly
    account_actual: float
    account_expected: float
    root_causes: tuple[RootCause, ...]
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def resources(self) -> tuple[Resource, ...]:
        return tuple(rc.resource for rc in self.root_causes)
