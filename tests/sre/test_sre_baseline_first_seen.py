"""Three rules of the SRE baseline for evidence exporters write in other ways than our generator:
an object first seen in the export is not a change unless its own record dates a write inside
the window; a workload's pods left failing by a configuration edit (a flag that leaks memory)
blame the edit however late the state shows; a pod evicted for going over its own
ephemeral-storage limit blames its workload, not its node."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from sre.agents.baseline.evidence import Change, Evidence, FailingState, PodLabels
from sre.agents.baseline.rank import rank
from sre.agents.baseline.states import node_pressure, pod_failures
from sre.agents.baseline.states.objects import ObjectView
from tests._support.sre_incident_files import stamp

START = datetime(2026, 3, 4, 10, 0)
FLIP = START + timedelta(minutes=15)


def _object(kind: str, name: str, created: datetime, written: datetime | None = None) -> dict:
    meta = {"name": name, "namespace": "shop", "uid": f"uid-{kind}-{name}",
            "creationTimestamp": stamp(created)}  # fmt: skip
    if written is not None:
        meta["managedFields"] = [{"manager": "kubectl-edit", "operation": "Update",
                                  "time": stamp(written)}]  # fmt: skip
    body: dict = {"apiVersion": "v1", "kind": kind, "metadata": meta}
    if kind == "ConfigMap":
        body["data"] = {"demo.flagd.json": json.dumps({"flags": {}})}
    else:
        body["spec"] = {"selector": {"app": name}, "ports": [{"port": 8080}]}
    return body


def _spans(first: datetime) -> dict:
    def span(i: int) -> dict:
        at = int((first + timedelta(minutes=i)).timestamp() * 1e9)
        return {"traceId": f"{i:032x}", "spanId": f"{i:016x}", "name": "GET /", "kind": 2,
                "startTimeUnixNano": str(at), "endTimeUnixNano": str(at + 5_000_000),
                "status": {}}  # fmt: skip

    resource = {"attributes": [{"key": "service.name", "value": {"stringValue": "frontend"}}]}
    spans = [span(i) for i in range(30)]
    return {"resourceSpans": [{"resource": resource, "scopeSpans": [{"spans": spans}]}]}


def _snapshot(root: Path, items: list[dict]) -> Path:
    root.mkdir()
    # one `kubectl get -o json` at the end of the window: every object seen once
    (root / "k8s_objects.json").write_text(json.dumps({"apiVersion": "v1", "kind": "List",
                                                       "items": items}))  # fmt: skip
    (root / "traces.otlp.json").write_text(json.dumps(_spans(START)))
    return root


def test_objects_first_seen_in_the_export_are_changes_only_when_written_inside_it(
    private_cache: Path, tmp_path: Path
):
    from sre.agents.baseline.evidence import gather

    long_ago = START - timedelta(days=9)
    snapshot = _snapshot(
        tmp_path / "snap",
        [
            _object("Service", "frontend-proxy", long_ago),  # old, never written since
            _object("Service", "cart", long_ago, written=long_ago + timedelta(days=1)),
            _object("ConfigMap", "flagd-config", long_ago, written=FLIP),  # edited in the window
            _object("Service", "checkout", START + timedelta(minutes=5)),  # made in the window
        ],
    )
    changes = {(c.entity, c.change): c for c in gather(snapshot).changes}
    assert set(changes) == {
        ("shop/ConfigMap/flagd-config", "modified"),
        ("shop/Service/checkout", "created"),
    }
    assert changes[("shop/ConfigMap/flagd-config", "modified")].time.replace(tzinfo=None) == FLIP


def _flip() -> Change:
    def flags(variant: str) -> str:
        return json.dumps({"flags": {"emailMemoryLeak": {"state": "ENABLED",
                           "variants": {"on": "100x", "off": "off"}, "defaultVariant": variant}}})  # fmt: skip

    return Change(namespace="shop", kind="ConfigMap", name="flagd-config", time=FLIP,
                  change="modified", paths=("data.demo.flagd.json",), spec={},
                  values=(("data.demo.flagd.json", flags("off"), flags("on")),))  # fmt: skip


def _oom(at: datetime) -> FailingState:
    return FailingState("shop", "Deployment", "email", "email",
                        "pod email-5c4b9d-x2k8q container email: OOMKilled (2 restarts)", 3.0, at)  # fmt: skip


#: the applications the snapshot shows (what a flag's name may name)
PODS = tuple(
    PodLabels("shop", f"{app}-5c4b9d-x2k8q", app, {"app.kubernetes.io/name": app})
    for app in ("email", "frontend", "checkout", "flagd")
)


def test_a_workload_left_failing_by_a_configuration_edit_blames_the_edit_however_late():
    # the memory climbs for minutes: the first alert comes long after the flag was switched on
    late = FLIP + timedelta(minutes=9)
    evidence = Evidence(changes=(_flip(),), warnings=(), alerts=(), onset=late, paths=(),
                        states=(_oom(late),), pods=PODS)  # fmt: skip
    assert rank(evidence)[0].change.entity == "shop/ConfigMap/flagd-config"


def test_a_workload_whose_own_spec_changed_keeps_its_failing_state():
    late = FLIP + timedelta(minutes=9)
    rollout = Change(namespace="shop", kind="Deployment", name="email", time=FLIP,
                     change="modified",
                     paths=("spec.template.spec.containers[0].resources.limits.memory",),
                     spec={})  # fmt: skip
    evidence = Evidence(changes=(_flip(), rollout), warnings=(), alerts=(), onset=late, paths=(),
                        states=(_oom(late),), pods=PODS)  # fmt: skip
    assert rank(evidence)[0].change.entity == "shop/Deployment/email"


def _evicted(message: str) -> list[tuple[datetime, dict]]:
    pod = {"kind": "Pod", "metadata": {"name": "quote-7d9f8c6b5-abcde", "namespace": "shop",
           "labels": {"app.kubernetes.io/name": "quote"},
           "ownerReferences": [{"kind": "ReplicaSet", "name": "quote-7d9f8c6b5"}]},
           "spec": {"nodeName": "worker-1"},
           "status": {"phase": "Failed", "reason": "Evicted", "message": message}}  # fmt: skip
    deployment = {"kind": "Deployment", "metadata": {"name": "quote", "namespace": "shop"},
                  "spec": {}}  # fmt: skip
    node = {"kind": "Node", "metadata": {"name": "worker-1"}, "status": {"conditions": []}}
    return [(START, pod), (START, deployment), (START, node)]


def test_a_pod_evicted_over_its_own_ephemeral_storage_limit_blames_its_workload():
    for message in (
        "Pod ephemeral local storage usage exceeds the total limit of containers 4Mi. ",
        'Container quote exceeded its local ephemeral storage limit "4Mi". ',
        'Usage of EmptyDir volume "cache" exceeds the limit "8Mi". ',
    ):
        view = ObjectView.of(_evicted(message))
        assert [s.entity for s in pod_failures.find(view)] == ["shop/Deployment/quote"], message
        assert list(node_pressure.find(view)) == [], message


def test_a_pod_evicted_for_its_node_blames_the_node():
    view = ObjectView.of(_evicted("The node was low on resource: ephemeral-storage. "))
    assert list(pod_failures.find(view)) == []
    assert [s.entity for s in node_pressure.find(view)] == ["Node/worker-1"]


def test_an_object_a_later_round_of_the_export_shows_first_was_made_while_it_watched(
    private_cache: Path, tmp_path: Path
):
    from sre.agents.baseline.evidence import gather

    long_ago = START - timedelta(days=3)
    old = _object("Service", "frontend-proxy", long_ago)
    # its record says it is old (a copy restored from a backup keeps its creationTimestamp), but
    # the export's first rounds did not hold it: it appeared while the export watched
    scanner = _object("Service", "scanner", long_ago)
    rounds = [(START, [old]), (START + timedelta(minutes=5), [old]),
              (FLIP, [old, scanner]), (FLIP + timedelta(minutes=5), [old, scanner])]  # fmt: skip
    root = tmp_path / "snap"
    root.mkdir()
    (root / "k8s_objects.jsonl").write_text(
        "\n".join(
            json.dumps({"timestamp": stamp(at), "object": {"kind": "List", "items": items}})
            for at, items in rounds
        )
    )
    (root / "traces.otlp.json").write_text(json.dumps(_spans(START)))
    changes = {(c.entity, c.change) for c in gather(root).changes}
    assert changes == {("shop/Service/scanner", "created")}


# --- sparse evidence: a service that logs a line a minute, a path seen a dozen times -----------


def _series(points: list[tuple[int, float]]) -> list[tuple[datetime, float]]:
    return [(START + timedelta(seconds=s), v) for s, v in points]


def test_a_sparse_step_may_have_begun_as_late_as_the_next_line():
    from sre.agents.baseline.symptoms import step

    # a line every ten seconds: the step begins where the errors do
    dense = step(
        _series([(10 * i, 0.0) for i in range(6)] + [(60 + 10 * i, 1.0) for i in range(6)])
    )
    assert dense is not None and dense[0] == dense[3] == START + timedelta(seconds=60)
    # a line a minute or so: the first error may be a background one, the onset lies before the
    # next line (a bucket before it)
    sparse = step(_series([(0, 0.0), (50, 0.0), (110, 0.0), (170, 1.0), (240, 1.0), (300, 1.0),
                           (330, 1.0)]))  # fmt: skip
    assert sparse is not None
    assert (sparse[0], sparse[3]) == (
        START + timedelta(seconds=170),
        START + timedelta(seconds=230),
    )


def test_a_change_inside_a_sparse_onset_is_not_after_the_symptoms():
    from sre.agents.baseline import onset
    from sre.agents.baseline.evidence import Symptom

    began = Symptom("payment", FLIP - timedelta(seconds=40), "ERROR log lines 0% -> 89%",
                    logs=True, latest=FLIP + timedelta(seconds=20))  # fmt: skip
    flip = _flip()  # at FLIP: after the first error line, before the next
    assert onset.after_symptoms(flip, began) is None
    assert onset.followed_by(flip, frozenset({"payment"}), Evidence((), (), (), None, (),
                             symptoms=(began,)), {"payment"}) == began  # fmt: skip
    # the same first line in a dense series: the change came surely after the symptoms began
    dense = Symptom("payment", began.start, began.what, logs=True)
    assert onset.after_symptoms(flip, dense) == dense


def test_a_path_that_stopped_blames_only_when_it_was_busy_before():
    from sre.agents.baseline.evidence import CallPath
    from sre.agents.baseline.rank import blame

    def stopped(spans: int) -> CallPath:
        return CallPath(("frontend", "product-reviews", "llm"), "DISAPPEARED", "llm",
                        f"{spans} span(s) before the pivot, none after", ())  # fmt: skip

    def blamed(path: CallPath) -> set[str]:
        return set(blame(Evidence((), (), (), None, (path,))))

    assert blamed(stopped(12)) == set()
    assert blamed(stopped(240)) == {"llm"}
