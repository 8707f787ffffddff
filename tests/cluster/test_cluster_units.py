"""Units of the offline cluster without kubectl: selectors, patches, manifests, limits."""

from __future__ import annotations

import http.client
import json

import pytest

from itbench.cluster import ClusterState, start_cluster
from itbench.cluster.manifests import load_manifests
from itbench.cluster.patch import json_patch, merge_patch
from itbench.cluster.selectors import field_selector, label_selector
from itbench.errors import InputError


def test_label_selector_terms():
    labels = {"app": "web", "tier": "front"}
    assert label_selector("app=web,tier in (front, back)")(labels)
    assert not label_selector("app!=web")(labels)
    assert label_selector("!missing,app")(labels)
    assert not label_selector("env notin (x),tier notin (front)")(labels)


def test_field_selector_reads_dotted_paths():
    pod = {"metadata": {"name": "a", "namespace": "n"}, "status": {"phase": "Running"}}
    assert field_selector("metadata.name=a,status.phase==Running")(pod)
    assert not field_selector("metadata.namespace!=n")(pod)


def test_strategic_merge_merges_named_lists_and_json_patch_applies():
    base = {"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}]}}
    merged = merge_patch(
        base, {"spec": {"containers": [{"name": "b", "image": "z"}]}}, strategic=True
    )
    assert merged["spec"]["containers"] == [
        {"name": "a", "image": "x"},
        {"name": "b", "image": "z"},
    ]
    plain = merge_patch(base, {"spec": {"containers": [{"name": "b", "image": "z"}]}})
    assert plain["spec"]["containers"] == [{"name": "b", "image": "z"}]
    patched = json_patch(
        base,
        [
            {"op": "replace", "path": "/spec/containers/0/image", "value": "q"},
            {"op": "remove", "path": "/spec/containers/1"},
        ],
    )
    assert patched["spec"]["containers"] == [{"name": "a", "image": "q"}]


def test_manifest_errors_and_alias_bombs(tmp_path):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n")
    with pytest.raises(InputError, match="aliases are not accepted"):
        load_manifests(bomb)
    nameless = tmp_path / "n.json"
    nameless.write_text(json.dumps({"apiVersion": "v1", "kind": "Pod", "metadata": {}}))
    with pytest.raises(
        InputError, match=r"n.json: document 0: field 'metadata.name' is missing \(Pod\)"
    ):
        load_manifests(nameless)
    deep = tmp_path / "deep.json"
    nested: dict = {}
    node = nested
    for _ in range(150):
        node["x"] = {}
        node = node["x"]
    deep.write_text(
        json.dumps(
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "d"}, "data": nested}
        )
    )
    with pytest.raises(InputError, match="nested more than 100 levels"):
        load_manifests(deep)


def test_objects_handed_over_through_the_api_and_object_limit():
    objects = [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"c{i}", "namespace": "x"}}
        for i in range(3)
    ]
    state = ClusterState(objects, max_objects=4)
    state.create(
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c3", "namespace": "x"}}
    )
    with pytest.raises(Exception, match="object limit of 4"):
        state.create(
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c4", "namespace": "x"}}
        )


def test_oversized_body_is_refused_with_a_status():
    with start_cluster([]) as cluster:
        conn = http.client.HTTPConnection("127.0.0.1", cluster.port, timeout=10)
        conn.putrequest("POST", "/api/v1/namespaces/x/configmaps")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Authorization", cluster.authorization["Authorization"])
        conn.putheader("Content-Length", str(50 * 2**20))
        conn.endheaders()
        response = conn.getresponse()
        body = json.loads(response.read())
        assert (
            response.status == 413
            and body["kind"] == "Status"
            and body["reason"] == "RequestEntityTooLarge"
        )


def test_server_refuses_non_loopback_hosts():
    from itbench.cluster.server import ApiServer
    from itbench.errors import UsageError

    with pytest.raises(UsageError, match="loopback only"):
        ApiServer(ClusterState([]), 0, host="0.0.0.0")
