"""The baseline on the incidents of ``incidents.py`` (flagd flips with no pod change, Chaos Mesh
experiments selecting by any label, expression or pod name, configuration read by a datastore,
throttling with no Warning event, NetworkPolicies and targetPorts seen only in client spans),
each beside decoy rollouts and scale-ups in the window: the root cause named as labelled, per
incident; and the rules behind it on small inputs."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.sre.shapes3.incidents import INCIDENTS
from tests.sre.shapes3.writer import write


def _root_causes(snapshot: Path) -> list[str]:
    from sre.agents.baseline import diagnose

    return [e["name"] for e in diagnose(snapshot).entities if e["contributing_factor"]]


@pytest.mark.parametrize("name", sorted(INCIDENTS))
def test_baseline_names_the_labelled_root_cause(private_cache: Path, tmp_path: Path, name: str):
    incident = INCIDENTS[name]
    assert _root_causes(write(tmp_path / "snap", incident)) == [incident.root_cause]


def test_a_rollout_after_the_symptoms_began_is_not_their_cause(private_cache: Path, tmp_path: Path):
    """checkout rolled out between the partition and the first alert: its ReplicaSet dates it
    after payment's calls began failing, so it is no candidate however close to the alert."""
    from sre.agents.baseline.evidence import gather
    from sre.agents.baseline.rank import rank
    from sre.agents.baseline.state import observe

    snap = write(tmp_path / "snap", INCIDENTS["networkchaos-partition"])
    ranked = {c.change.entity: c for c in rank(observe(snap, gather(snap)))}
    decoy = ranked["otel-demo/Deployment/checkout"]
    assert decoy.score == 0.0
    assert any("after the symptoms began" in r for r in decoy.reasons)
    assert "otel-demo/ReplicaSet" not in " ".join(ranked)  # its ReplicaSets are its doing


def _series(values: list[float]) -> list[tuple[datetime, float]]:
    start = datetime(2026, 1, 1)
    return [(start + timedelta(seconds=10 * i), v) for i, v in enumerate(values)]


def test_a_step_is_found_where_it_begins_and_steady_noise_is_not_one():
    from sre.agents.baseline.symptoms import ERROR_STEP, step

    found = step(_series([0.05, 0.0, 0.1, 0.05, 0.0, 0.05, 1.0, 1.0, 0.9, 1.0, 1.0]))
    assert found is not None and found[0] == datetime(2026, 1, 1, 0, 1)
    noise = step(_series([0.05, 0.0, 0.1, 0.05, 0.0, 0.05, 0.0, 0.1, 0.05, 0.0]))
    assert noise is None or noise[2] - noise[1] < ERROR_STEP
    # one slow bucket is a spike, not a step: the buckets after it do not stay up
    assert step(_series([10.0] * 6 + [900.0] + [10.0] * 6)) is None


POD = dict(namespace="shop", name="cart-7f9c8d6b5-x2k9q", app="cart")


@pytest.mark.parametrize(
    ("selector", "picked"),
    [
        ({"namespaces": ["shop"], "labelSelectors": {"app.kubernetes.io/component": "cart"}},
         {"cart"}),
        ({"namespaces": ["other"], "labelSelectors": {"app.kubernetes.io/component": "cart"}},
         set()),
        ({"namespaces": ["shop"], "expressionSelectors": [
            {"key": "tier", "operator": "In", "values": ["cache", "db"]}]}, {"valkey"}),
        ({"pods": {"shop": ["cart-7f9c8d6b5-x2k9q"]}}, {"cart"}),
        ({"pods": {"shop": ["email-5c8b7f9d4-r7m4t"]}}, {"email"}),  # gone: read off its name
        ({"namespaces": ["shop"]}, set()),  # a whole namespace names no application
    ],
)  # fmt: skip
def test_chaos_selectors_pick_pods_by_any_label(selector, picked):
    from sre.agents.baseline.evidence import PodLabels
    from sre.agents.baseline.targets import chaos_picks

    pods = [
        PodLabels(labels={"app.kubernetes.io/component": "cart"}, **POD),
        PodLabels("shop", "valkey-0", "valkey", {"tier": "cache"}),
    ]
    assert chaos_picks(selector, "chaos-mesh", pods) == picked


def test_a_partition_acts_on_both_sides_and_a_schedule_on_its_experiment():
    from sre.agents.baseline.targets import chaos_selectors

    partition = {"selector": {"labelSelectors": {"a": "1"}},
                 "target": {"mode": "all", "selector": {"labelSelectors": {"a": "2"}}}}  # fmt: skip
    assert len(list(chaos_selectors("NetworkChaos", partition))) == 2
    schedule = {"type": "StressChaos", "stressChaos": {"selector": {"labelSelectors": {"a": "3"}}}}
    assert list(chaos_selectors("Schedule", schedule)) == [{"labelSelectors": {"a": "3"}}]


def test_a_flag_naming_its_service_in_part_names_it_when_no_name_is_whole():
    import json

    from sre.agents.baseline.config_content import named_apps

    def flipped(flag: str) -> list[tuple[str, str, str]]:
        old = {"flags": {flag: {"defaultVariant": "off"}, "adFailure": {"defaultVariant": "off"}}}
        new = {"flags": {flag: {"defaultVariant": "on"}, "adFailure": {"defaultVariant": "off"}}}
        return [("data.demo.flagd.json", json.dumps(old), json.dumps(new))]

    apps = {"image-provider", "frontend", "cart", "valkey-cart", "ad", "load-generator"}
    assert named_apps(flipped("imageSlowLoad"), apps) == {"image-provider"}
    # spelt out whole: only that application, not the others sharing a word
    assert named_apps(flipped("cartFailure"), apps) == {"cart"}
    assert named_apps(flipped("loadGeneratorFloodHomepage"), apps) == {"load-generator"}
    # a word two applications share names neither; a plain setting is never read in part
    assert named_apps(flipped("valkeyEviction"), apps) == {"valkey-cart"}
    assert named_apps(flipped("cartEviction"), apps - {"cart"}) == {"valkey-cart"}
    assert named_apps(flipped("cartEviction"), (apps | {"cart-db"}) - {"cart"}) == frozenset()
    assert named_apps([("data.image.size", "1", "2")], apps) == frozenset()
