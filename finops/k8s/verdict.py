"""The verdict of a Kubernetes cost trial: the evaluator replays the incident day and the next on
the configuration the agent left.

- ``mitigation_pass``: no SLO breach beyond ``SLO_TOLERANCE_STEPS`` steps, and the spend under
  the alert on both days — the scenario's own alert when the fix belongs to the workload (so an
  agent that raises or deletes the alert while the waste stays does not pass), the alert the agent
  left when the fix is the alert (a genuine rise), provided that alert still watches: a threshold
  more than ``MUTE_RATIO`` times the day's spend is a muted alert, not a fix.
- proximities (1.0 = the optimal configuration of the scenario): for the CPU and memory cost and
  for the CPU and memory efficiency (used / allocated), ``min(x, opt) / max(x, opt)``, so cutting
  below the optimum by starving the service is as far off as waste.
- ``blast_radius``: objects changed besides the one at fault.
"""

from __future__ import annotations

from dataclasses import dataclass

from finops.k8s.scenario import SLO_TOLERANCE_STEPS, K8sScenario
from finops.k8s.simulate import Config, Day

__all__ = [
    "MUTE_RATIO",
    "SLO_TOLERANCE_STEPS",
    "WASTE_PROXIMITY",
    "K8sVerdict",
    "diagnosis_matches",
    "judge",
]

#: below this proximity of the total cost to the optimum, waste remains (or the service starves)
WASTE_PROXIMITY = 0.8
MUTE_RATIO = 1.5

# The field named in a diagnosis, by the cause's field: the words an answer may use for it.
_FIELD_WORDS = {
    "spec.metrics[0].resource.target.averageUtilization": (
        "averageutilization",
        "targetcpuutilizationpercentage",
        "target",
    ),
    "spec.minReplicas": ("minreplicas",),
    "spec.template.spec.containers[0].resources.requests": ("requests", "request"),
    "spec.template.spec.containers[0].resources.limits.memory": (
        "limits.memory",
        "memory",
        "limit",
    ),
    "spec.replicas": ("replicas",),
    "data.budgetPerDay": ("budgetperday", "variancepct", "threshold", "budget"),
}


@dataclass(frozen=True)
class K8sVerdict:
    diagnosis_pass: bool | None
    mitigation_pass: bool
    alert_days: tuple[int, ...]
    alert_muted: bool
    slo_violations: int
    spend: float
    optimal_spend: float
    proximity_cpu_cost: float
    proximity_memory_cost: float
    proximity_cpu_efficiency: float
    proximity_memory_efficiency: float
    changed: tuple[str, ...]
    blast_radius: tuple[str, ...]

    def scores(self) -> dict[str, float]:
        out = {
            "mitigation_pass": float(self.mitigation_pass),
            "proximity_cpu_cost": round(self.proximity_cpu_cost, 4),
            "proximity_memory_cost": round(self.proximity_memory_cost, 4),
            "proximity_cpu_efficiency": round(self.proximity_cpu_efficiency, 4),
            "proximity_memory_efficiency": round(self.proximity_memory_efficiency, 4),
            "slo_violations": float(self.slo_violations),
            "blast_radius": float(len(self.blast_radius)),
        }
        if self.diagnosis_pass is not None:
            out["diagnosis_pass"] = float(self.diagnosis_pass)
        return out


def _near(x: float, opt: float) -> float:
    if x <= 0 and opt <= 0:
        return 1.0
    if x <= 0 or opt <= 0:
        return 0.0
    return min(x, opt) / max(x, opt)


def _efficiency(used: float, alloc: float) -> float:
    return used / alloc if alloc > 0 else 0.0


def field_words(s: K8sScenario, field: str) -> tuple[str, ...]:
    """The words a diagnosis may use for ``field``: the scenario's own, the generator's, else
    the field's last name (``spec.behavior.scaleDown.selectPolicy``: ``selectpolicy``)."""
    own = dict(s.field_words)
    if field in own:
        return own[field]
    if field in _FIELD_WORDS:
        return _FIELD_WORDS[field]
    return (field.rsplit(".", 1)[-1].split("[", 1)[0].lower(),)


def diagnosis_matches(s: K8sScenario, workload: str, kind: str, field: str) -> bool:
    """The cause named (or one of the diagnoses the scenario also accepts): the workload, the
    object's kind and the field (in the words allowed)."""
    said = field.strip().lower().replace(" ", "")
    for c in (s.cause, *s.accepted):
        if workload.strip().lower() != c.workload.lower():
            continue
        if kind.strip().lower() != c.kind.lower():
            continue
        if any(w in said for w in field_words(s, c.field)):
            return True
    return False


def _changes(s: K8sScenario, config: Config) -> tuple[str, ...]:
    before = dict(s.incident.workloads)
    out = [n for n, w in config.workloads if before.get(n) != w] + [
        n for n in before if n not in dict(config.workloads)
    ]
    if config.alert != s.incident.alert:
        out.append("alert")
    return tuple(sorted(out))


def judge(
    s: K8sScenario, config: Config, diagnosis: tuple[str, str, str] | None = None
) -> K8sVerdict:
    run = s.evaluate_replay(config)
    best = s.evaluate_replay(s.optimal).window(0)
    got: Day = run.window(0)
    if s.remedy == "alert":
        alert_days = run.alert_days
        limits = [
            config.alert.threshold(list(s.history) + [d.spend for d in run.days[:i]])
            for i in range(len(run.days))
        ]
        muted = any(
            lim is None or lim > MUTE_RATIO * d.spend
            for lim, d in zip(limits, run.days, strict=True)
        )
    else:
        original = Config(config.workloads, s.incident.alert)
        alert_days = s.evaluate_replay(original).alert_days
        muted = False
    changed = _changes(s, config)
    cause_object = "alert" if s.cause.kind == "ConfigMap" else s.cause.workload
    wasteless = _near(got.spend, best.spend) >= WASTE_PROXIMITY
    ok = not alert_days and not muted and wasteless and got.slo_violations <= SLO_TOLERANCE_STEPS
    return K8sVerdict(
        diagnosis_pass=None if diagnosis is None else diagnosis_matches(s, *diagnosis),
        mitigation_pass=ok,
        alert_days=alert_days,
        alert_muted=muted,
        slo_violations=got.slo_violations,
        spend=round(got.spend, 4),
        optimal_spend=round(best.spend, 4),
        proximity_cpu_cost=_near(got.cpu_cost, best.cpu_cost),
        proximity_memory_cost=_near(got.memory_cost, best.memory_cost),
        proximity_cpu_efficiency=_near(
            _efficiency(got.cpu_used_h, got.cpu_alloc_h),
            _efficiency(best.cpu_used_h, best.cpu_alloc_h),
        ),
        proximity_memory_efficiency=_near(
            _efficiency(got.memory_used_h, got.memory_alloc_h),
            _efficiency(best.memory_used_h, best.memory_alloc_h),
        ),
        changed=changed,
        blast_radius=tuple(c for c in changed if c != cause_object),
    )
