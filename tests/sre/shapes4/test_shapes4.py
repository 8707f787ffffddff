"""The baseline on the incidents of ``incidents.py`` (flagd flips with no pod change, plain
StressChaos, PodChaos pod-failure, Service targetPort changes with Ready pods, each in several
export shapes and beside decoy rollouts): the root cause named as labelled, per incident; and
the rules behind it on small inputs."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.sre.shapes4.incidents import INCIDENTS
from tests.sre.shapes4.writer import write


def _root_causes(snapshot: Path) -> list[str]:
    from sre.agents.baseline import diagnose

    return [e["name"] for e in diagnose(snapshot).entities if e["contributing_factor"]]


@pytest.mark.parametrize("name", sorted(INCIDENTS))
def test_baseline_names_the_labelled_root_cause(private_cache: Path, tmp_path: Path, name: str):
    incident = INCIDENTS[name]
    assert _root_causes(write(tmp_path / "snap", incident)) == [incident.root_cause]


def test_the_set_covers_each_evidence_kind_in_several_export_shapes():
    kinds: dict[str, set[str]] = {}
    for incident in INCIDENTS.values():
        kind = incident.root_cause.split("/")[1]
        kinds.setdefault(kind, set()).add(incident.export)
    assert set(kinds) == {"ConfigMap", "StressChaos", "PodChaos", "Service"}
    assert all(len(shapes) >= 3 for shapes in kinds.values()), kinds
    assert len(INCIDENTS) >= 16


# --- the rules on small inputs ------------------------------------------------------------------


def _pods() -> list:
    from sre.agents.baseline.evidence import PodLabels

    return [
        PodLabels("shop", "quote-7d9f-abcde", "quote", {"app.kubernetes.io/name": "quote"}),
        PodLabels("shop", "email-5c4b-fghij", "email", {"app.kubernetes.io/name": "email"}),
        PodLabels("other", "quote-1111-zzzzz", "quote-copy", {"app.kubernetes.io/name": "quote"}),
    ]


def test_a_chaos_field_selector_on_the_pod_name_picks_that_pod():
    from sre.agents.baseline.targets import chaos_picks

    by_name = {"namespaces": ["shop"], "fieldSelectors": {"metadata.name": "email-5c4b-fghij"}}
    assert chaos_picks(by_name, "chaos-mesh", _pods()) == {"email"}
    # with a label selector too, both must hold
    both = {**by_name, "labelSelectors": {"app.kubernetes.io/name": "quote"}}
    assert chaos_picks(both, "chaos-mesh", _pods()) == set()
    # a field the pods' view does not hold cannot be resolved: no application in particular
    node = {"namespaces": ["shop"], "fieldSelectors": {"spec.nodeName": "worker-1"}}
    assert chaos_picks(node, "chaos-mesh", _pods()) == set()


def _change(values: tuple, at: datetime, since: datetime | None = None):
    from sre.agents.baseline.evidence import Change

    return Change(namespace="shop", kind="ConfigMap", name="flagd-config", time=at,
                  change="modified", paths=tuple(v[0] for v in values), spec={},
                  values=values, since=since)  # fmt: skip


def _flags(default: str) -> str:
    return json.dumps({"flags": {"loadGeneratorFloodHomepage": {
        "state": "ENABLED", "variants": {"on": 100, "off": 0}, "defaultVariant": default}}})  # fmt: skip


def test_a_flag_flip_acts_on_the_services_whose_symptoms_begin_just_after_it():
    from sre.agents.baseline.evidence import Symptom
    from sre.agents.baseline.flag_clients import clients_hit

    at = datetime(2026, 1, 1, 10, 0)
    flip = _change((("data.demo.flagd.json", _flags("off"), _flags("on")),), at)
    symptoms = [
        Symptom("frontend", at + timedelta(seconds=50), "latency"),
        Symptom("ad", at - timedelta(minutes=5), "errors"),  # began before: not the flip's
        Symptom("email", at + timedelta(minutes=9), "errors"),  # too late to be the flip's
    ]
    assert clients_hit(flip, {"load-generator", "flagd"}, symptoms) == {"frontend"}
    # when an application the flag names shows the symptom, the name is the answer
    named = [*symptoms, Symptom("load-generator", at + timedelta(seconds=30), "errors")]
    assert clients_hit(flip, {"load-generator"}, named) == frozenset()
    # dated only between two observations: a symptom inside that span counts
    spanned = _change(flip.values, at + timedelta(minutes=3), since=at - timedelta(minutes=1))
    assert clients_hit(spanned, set(), symptoms) == {"frontend"}
    # an edit that is no flag (another key of a ConfigMap) acts on no one this way
    other = _change((("data.settings.yaml", "timeout: 1", "timeout: 2"),), at)
    assert clients_hit(other, set(), symptoms) == frozenset()


def test_objects_exported_as_lists_beside_their_observation_time_are_read_per_item(tmp_path):
    from sre.snapshot.foreign import canonical

    def dump(at: str, image: str) -> str:
        items = [{"apiVersion": "v1", "kind": "ConfigMap",
                  "metadata": {"name": "flagd-config", "namespace": "shop"}, "data": {"a": image}},
                 {"apiVersion": "chaos-mesh.org/v1alpha1", "kind": "PodChaos",
                  "metadata": {"name": "quote-outage", "namespace": "chaos-mesh"}}]  # fmt: skip
        return json.dumps({"timestamp": at, "object": {"kind": "List", "items": items}})

    source = tmp_path / "objects.jsonl"
    source.write_text(dump("2026-01-01T10:00:00Z", "1") + "\n" + dump("2026-01-01T10:04:00Z", "2"))
    out = canonical(source, "objects", tmp_path).path.read_text().splitlines()
    rows = [line.split("\t") for line in out[1:]]
    kinds = [(r[0][:19], json.loads(r[1])["kind"]) for r in rows]
    assert kinds == [("2026-01-01 10:00:00", "ConfigMap"), ("2026-01-01 10:00:00", "PodChaos"),
                     ("2026-01-01 10:04:00", "ConfigMap"), ("2026-01-01 10:04:00", "PodChaos")]  # fmt: skip


def _service(name: str, written: str) -> dict:
    return {"kind": "Service", "metadata": {"name": name, "namespace": "shop",
            "managedFields": [{"manager": "helm", "time": written}]},
            "spec": {"selector": {"app": name}}}  # fmt: skip


def _deployment(name: str) -> dict:
    return {"kind": "Deployment", "metadata": {"name": name, "namespace": "shop"},
            "spec": {"replicas": 1, "template": {"metadata": {"labels": {"app": name}}}}}  # fmt: skip


def test_a_service_not_shown_again_by_a_watch_stream_is_not_gone():
    from sre.agents.baseline.states import vanished_services
    from sre.agents.baseline.states.objects import ObjectView

    t0, t1 = datetime(2026, 1, 1, 9, 0), datetime(2026, 1, 1, 10, 0)
    # a watch: each Service's record is its last write; the cart Service was edited at t1
    watch = [(t0, _service("ad", "2026-01-01T09:00:00Z")),
             (t1, _service("cart", "2026-01-01T10:00:00Z")),
             (t1, _deployment("ad"))]  # fmt: skip
    assert list(vanished_services.find(ObjectView.of(watch))) == []
    # a periodic dump: cart, unchanged since 08:00, shown again at t1 while ad is not
    dump = [(t0, _service("ad", "2026-01-01T08:00:00Z")),
            (t1, _service("cart", "2026-01-01T08:00:00Z")),
            (t1, _deployment("ad"))]  # fmt: skip
    assert [s.name for s in vanished_services.find(ObjectView.of(dump))] == ["ad"]


def test_a_kubectl_yaml_dump_of_objects_is_read_and_found_by_its_name(tmp_path):
    from itbench.errors import InputError
    from sre.snapshot.foreign import canonical
    from sre.snapshot.layout import SnapshotLayout

    def dump(written: str, variant: str) -> str:
        return (
            "apiVersion: v1\nkind: List\nitems:\n"
            "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: flagd-config\n"
            "    namespace: shop\n    creationTimestamp: 2026-01-01T08:00:00Z\n"
            f"    managedFields:\n    - manager: kubectl-edit\n      time: {written}\n"
            f'  data:\n    demo.flagd.json: \'{{"flags": {{"cartFailure": '
            f'{{"defaultVariant": "{variant}"}}}}}}\'\n'
        )

    source = tmp_path / "k8s_objects_dump.yaml"
    source.write_text(
        dump("2026-01-01T09:00:00Z", "off") + "---\n" + dump("2026-01-01T10:02:05Z", "on")
    )
    assert SnapshotLayout(tmp_path).objects == source
    rows = [
        r.split("\t")
        for r in canonical(source, "objects", tmp_path).path.read_text().splitlines()[1:]
    ]
    assert [r[0][:19] for r in rows] == ["2026-01-01 09:00:00", "2026-01-01 10:02:05"]
    body = json.loads(rows[1][1])
    assert body["metadata"]["creationTimestamp"] == "2026-01-01T08:00:00Z"  # text, as in JSON
    assert json.loads(body["data"]["demo.flagd.json"])["flags"]["cartFailure"] == {
        "defaultVariant": "on"
    }
    # YAML that holds no Kubernetes objects is refused with what was expected
    other = tmp_path / "other_objects.yaml"
    other.write_text("just: a mapping\n")
    with pytest.raises(InputError, match="YAML documents of objects"):
        canonical(other, "objects", tmp_path)
    # an alias bomb is refused, not expanded (each level would multiply the output tenfold)
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + [
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 7)
    ]
    bomb = tmp_path / "bomb_objects.yaml"
    bomb.write_text("kind: List\n" + "\n".join(levels) + "\nitems: [*a6]\n")
    with pytest.raises(InputError, match="YAML documents of objects"):
        canonical(bomb, "objects", tmp_path)
