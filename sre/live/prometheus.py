"""Prometheus' alerts through its HTTP API (``GET /api/v1/alerts``), as the recovery watcher
reads them; an alert is known by its name and the labels that outlive a pod (namespace, service,
deployment...), so an alert of a replaced pod is still the same alert."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from itbench.errors import InputError, UsageError

#: labels that name what an alert is about across pod replacements
STABLE_LABELS = ("alertname", "namespace", "service", "service_name", "deployment", "job",
                 "configmap", "node")  # fmt: skip
TIMEOUT_S = 10.0


def alert_key(labels: dict[str, str]) -> str:
    parts = [labels.get("alertname", "?")]
    parts += [f"{k}={labels[k]}" for k in STABLE_LABELS[1:] if labels.get(k)]
    return " ".join(parts)


@dataclass(frozen=True)
class Prometheus:
    url: str

    def alerts(self) -> dict[str, str]:
        """key -> state of every alert Prometheus holds (firing or pending)."""
        found: dict[str, str] = {}
        for alert in self.alert_list():
            key = alert_key(dict(alert.get("labels") or {}))
            state = str(alert.get("state", "firing"))
            # one alert over several pods: firing wins over pending
            if found.get(key) != "firing":
                found[key] = state
        return found

    def alert_list(self) -> list[dict[str, Any]]:
        """Every alert as Prometheus answers it (labels, annotations, state, activeAt, value)."""
        endpoint = self.url.rstrip("/") + "/api/v1/alerts"
        try:
            with urllib.request.urlopen(endpoint, timeout=TIMEOUT_S) as answer:
                doc = json.loads(answer.read().decode("utf-8"))
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            reason = getattr(exc, "reason", exc)
            raise InputError(f"Prometheus {endpoint}: {reason}") from None
        except ValueError as exc:
            raise InputError(f"Prometheus {endpoint}: not JSON ({exc})") from None
        try:
            if doc.get("status") != "success":
                raise InputError(f"Prometheus {endpoint}: status {doc.get('status')!r}: "
                                 f"{doc.get('error', '')}")  # fmt: skip
            alerts = doc["data"]["alerts"]
            if not isinstance(alerts, list) or not all(isinstance(a, dict) for a in alerts):
                raise TypeError
            return alerts
        except (KeyError, TypeError, AttributeError):
            raise InputError(
                f"Prometheus {endpoint}: not an alerts answer (expected data.alerts[])"
            ) from None


def check_prometheus(url: str) -> dict[str, str]:
    """The alerts Prometheus holds now; a usage error naming the URL when it does not answer."""
    if not url.startswith(("http://", "https://")):
        raise UsageError(f"--prometheus {url}: expected an http:// or https:// URL")
    try:
        return Prometheus(url).alerts()
    except InputError as exc:
        raise UsageError(f"--prometheus: {exc}; no trial was started") from None
