"""Feature flags (flagd's ``{"flags": {name: {variants, defaultVariant}}}``) switched on whose
name names an application (``basketFailure``): seen once, the flip has no change to show, but
the flag still says which application it breaks."""

from __future__ import annotations

from collections.abc import Iterable

from sre.agents.baseline.config_content import structured, words
from sre.agents.baseline.evidence import FailingState
from sre.agents.baseline.states.objects import ObjectView, meta

#: flag values that leave a feature off
OFF = (None, False, 0, 0.0, "", "off", "false", "0", "disabled")


def find(view: ObjectView) -> Iterable[FailingState]:
    apps = view.apps()
    for ts, cm in view.kind("ConfigMap"):
        namespace, name, _ = meta(cm)
        for key, value in ((cm.get("data") or {}) | (cm.get("binaryData") or {})).items():
            flags = structured(value)
            if not isinstance(flags, dict) or not isinstance(flags.get("flags"), dict):
                continue
            for flag, spec in flags["flags"].items():
                if not isinstance(spec, dict) or not isinstance(spec.get("variants"), dict):
                    continue
                chosen = spec["variants"].get(spec.get("defaultVariant"))
                if spec.get("state", "ENABLED") != "ENABLED" or chosen in OFF:
                    continue
                for app in sorted(a for a in apps if (w := words(a)) and w <= words(flag)):
                    yield FailingState(
                        namespace, "ConfigMap", name, app,
                        f"ConfigMap {name} {key}: flag {flag} is on ({spec.get('defaultVariant')})",
                        0.5, ts, needs_blame=True,
                    )  # fmt: skip
