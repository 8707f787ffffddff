"""A domain's own API types through the extension contract: a made-up CRD served to real kubectl
with its own columns, its validator refusing bad objects, and its report producer; plus the
contract's checks (clashes, undeclared kinds, failing validators and producers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from itbench.cluster import ClusterExtension, ClusterState, Column, ResourceType, start_cluster
from itbench.cluster.state import ClusterError
from itbench.errors import UsageError
from tests.cluster.kubectl_run import kubectl_on, needs_kubectl

GROUP = "toys.example.com"
WIDGET = ResourceType(GROUP, "v1", "Widget", "widgets", True, ("wdg",))
TALLY = ResourceType(GROUP, "v1", "WidgetTally", "widgettallies", True)


def widget_errors(obj: dict[str, Any]) -> list[str]:
    spec = obj.get("spec") or {}
    errors = []
    if "colour" not in spec:
        errors.append("spec.colour: Required value")
    size = spec.get("size")
    if not isinstance(size, int) or not 1 <= size <= 10:
        errors.append(f"spec.size: Invalid value: {size!r}: must be between 1 and 10")
    return errors


def tally(inputs, resources):
    """One tally per namespace: how many widgets and how many Pods live there."""
    out: dict[str, dict[str, Any]] = {}
    for widget in inputs:
        ns = widget["metadata"]["namespace"]
        out.setdefault(
            ns,
            {
                "apiVersion": f"{GROUP}/v1",
                "kind": "WidgetTally",
                "metadata": {"name": "tally", "namespace": ns},
                "widgets": 0,
                "pods": sum(
                    1
                    for r in resources
                    if r["kind"] == "Pod" and r["metadata"].get("namespace") == ns
                ),
            },
        )["widgets"] += 1
    return list(out.values())


def toy_extension(**overrides: Any) -> ClusterExtension:
    fields: dict[str, Any] = {
        "name": "toy",
        "types": (WIDGET, TALLY),
        "columns": {
            "Widget": (
                Column("Name", "string", lambda o: o["metadata"]["name"]),
                Column("Colour", "string", lambda o: o["spec"]["colour"]),
                Column("Size", "integer", lambda o: o["spec"]["size"]),
            ),
            "WidgetTally": (
                Column("Name", "string", lambda o: o["metadata"]["name"]),
                Column("Widgets", "integer", lambda o: o["widgets"]),
            ),
        },
        "validators": {(GROUP, "Widget"): widget_errors},
        "report_producer": tally,
        "report_inputs": frozenset({(GROUP, "Widget")}),
        "report_outputs": frozenset({(GROUP, "WidgetTally")}),
    }
    fields.update(overrides)
    return ClusterExtension(**fields)


def widget(name: str, colour: str | None = "teal", size: Any = 3) -> dict[str, Any]:
    spec: dict[str, Any] = {"size": size}
    if colour is not None:
        spec["colour"] = colour
    return {
        "apiVersion": f"{GROUP}/v1",
        "kind": "Widget",
        "metadata": {"name": name, "namespace": "toys"},
        "spec": spec,
    }


POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "p", "namespace": "toys"},
    "spec": {"containers": [{"name": "c", "image": "nginx"}]},
}


@pytest.fixture
def toy_cluster(tmp_path):
    with start_cluster(
        [widget("first", "amber", 7), POD],
        kubeconfig=tmp_path / "kubeconfig",
        extensions=[toy_extension()],
    ) as running:
        yield running


def write(tmp_path: Path, obj: dict[str, Any]) -> str:
    path = tmp_path / f"{obj['metadata']['name']}.yaml"
    path.write_text(yaml.safe_dump(obj))
    return str(path)


@needs_kubectl
def test_kubectl_prints_the_extensions_columns(toy_cluster, tmp_path):
    proc = kubectl_on(toy_cluster, tmp_path, "get", "widgets", "-n", "toys")
    assert proc.returncode == 0, proc.stderr
    header, row = proc.stdout.splitlines()
    assert header.split() == ["NAME", "COLOUR", "SIZE"]
    assert row.split() == ["first", "amber", "7"]
    # the short name comes from discovery
    short = kubectl_on(toy_cluster, tmp_path, "get", "wdg", "first", "-n", "toys")
    assert short.returncode == 0 and "amber" in short.stdout


@needs_kubectl
def test_only_the_given_extensions_are_served(toy_cluster, tmp_path):
    """extensions=[toy] means exactly toy: no loaded domain's kinds sneak in."""
    proc = kubectl_on(toy_cluster, tmp_path, "get", "clusterpolicies")
    assert proc.returncode != 0
    assert "clusterpolicies" in proc.stderr


@needs_kubectl
def test_apply_of_an_object_the_validator_refuses_fails_with_its_messages(toy_cluster, tmp_path):
    bad = widget("huge", colour=None, size=42)
    proc = kubectl_on(toy_cluster, tmp_path, "apply", "-f", write(tmp_path, bad))
    assert proc.returncode != 0
    # kubectl prints the Status details as it does for a CRD schema error of a real server
    assert 'The Widget "huge" is invalid' in proc.stderr
    assert "* spec.colour: Required value" in proc.stderr
    assert "* spec.size: Invalid value: 42: must be between 1 and 10" in proc.stderr
    missing = kubectl_on(toy_cluster, tmp_path, "get", "widget", "huge", "-n", "toys")
    assert missing.returncode != 0 and "NotFound" in missing.stderr
    assert toy_cluster.overlay()["applied"] == []


@needs_kubectl
def test_a_patch_the_validator_refuses_leaves_the_object_unchanged(toy_cluster, tmp_path):
    proc = kubectl_on(
        toy_cluster, tmp_path, "patch", "widget", "first", "-n", "toys",
        "--type", "merge", "-p", '{"spec": {"size": 99}}',
    )  # fmt: skip
    assert proc.returncode != 0
    assert "spec.size: Invalid value: 99" in proc.stderr
    got = kubectl_on(toy_cluster, tmp_path, "get", "widget", "first", "-n", "toys", "-o", "json")
    assert json.loads(got.stdout)["spec"]["size"] == 7


@needs_kubectl
def test_server_dry_run_validates_and_stores_nothing(toy_cluster, tmp_path):
    bad = kubectl_on(
        toy_cluster, tmp_path, "apply", "--dry-run=server", "-f",
        write(tmp_path, widget("dry-bad", size=0)),
    )  # fmt: skip
    assert bad.returncode != 0 and "spec.size: Invalid value: 0" in bad.stderr
    good = kubectl_on(
        toy_cluster, tmp_path, "apply", "--dry-run=server", "-f",
        write(tmp_path, widget("dry-good")),
    )  # fmt: skip
    assert good.returncode == 0, good.stderr
    assert "server dry run" in good.stdout
    assert toy_cluster.overlay()["applied"] == []


@needs_kubectl
def test_the_extensions_report_producer_follows_its_inputs(toy_cluster, tmp_path):
    def tallies() -> list[dict[str, Any]]:
        proc = kubectl_on(toy_cluster, tmp_path, "get", "widgettallies", "-A", "-o", "json")
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)["items"]

    (before,) = tallies()
    assert (before["widgets"], before["pods"]) == (1, 1)
    proc = kubectl_on(toy_cluster, tmp_path, "apply", "-f", write(tmp_path, widget("second")))
    assert proc.returncode == 0, proc.stderr
    (after,) = tallies()
    assert (after["widgets"], after["pods"]) == (2, 1)
    table = kubectl_on(toy_cluster, tmp_path, "get", "widgettallies", "-n", "toys")
    assert table.stdout.split() == ["NAME", "WIDGETS", "tally", "2"]


@needs_kubectl
def test_report_producer_override_replaces_the_extensions_producer(tmp_path):
    def constant(inputs, resources):
        return [
            {
                "apiVersion": f"{GROUP}/v1",
                "kind": "WidgetTally",
                "metadata": {"name": "override", "namespace": "toys"},
                "widgets": -1,
            }
        ]

    with start_cluster(
        [widget("first")], extensions=[toy_extension()], report_producer=constant
    ) as cluster:
        proc = kubectl_on(cluster, tmp_path, "get", "widgettallies", "-A", "-o", "name")
        assert proc.stdout.split() == ["widgettally.toys.example.com/override"]


# -- the contract's own checks (no kubectl needed) --------------------------------------------


def test_loaded_objects_are_validated_too():
    with pytest.raises(ClusterError) as refused:
        ClusterState([widget("bad", size="big")], extensions=[toy_extension()])
    assert refused.value.code == 422
    assert str(refused.value) == (
        'Widget.toys.example.com "bad" is invalid: '
        "spec.size: Invalid value: 'big': must be between 1 and 10"
    )
    assert refused.value.causes == ("spec.size: Invalid value: 'big': must be between 1 and 10",)


def test_a_kind_claimed_twice_names_both_claimants():
    other = ClusterExtension(name="other", types=(WIDGET,))
    with pytest.raises(UsageError, match="'other'.*Widget.*already served by 'toy'"):
        ClusterState([], extensions=[toy_extension(), other])
    core_clash = ClusterExtension(
        name="clash", types=(ResourceType("apps", "v1", "Deployment", "deployments", True),)
    )
    with pytest.raises(UsageError, match="'clash'.*Deployment.*already served by 'core'"):
        ClusterState([], extensions=[core_clash])


def test_columns_validators_and_reports_must_name_served_kinds():
    with pytest.raises(UsageError, match="columns for kind 'Gadget'"):
        ClusterState([], extensions=[toy_extension(columns={"Gadget": ()})])
    with pytest.raises(UsageError, match="validator for Gadget"):
        ClusterState([], extensions=[toy_extension(validators={(GROUP, "Gadget"): widget_errors})])
    with pytest.raises(UsageError, match="report kind Gadget"):
        ClusterState([], extensions=[toy_extension(report_outputs=frozenset({(GROUP, "Gadget")}))])


def test_a_report_producer_without_an_extension_to_serve_it_is_a_usage_error():
    with pytest.raises(UsageError, match="declares its input kinds"):
        ClusterState([], extensions=[], report_producer=tally)


def test_a_failing_validator_is_a_500_naming_the_extension():
    def broken(obj):
        raise KeyError("spec")

    state = ClusterState([], extensions=[toy_extension(validators={(GROUP, "Widget"): broken})])
    with pytest.raises(ClusterError) as failed:
        state.create(widget("w"))
    assert failed.value.code == 500
    assert "validator of 'toy' for Widget failed: KeyError" in str(failed.value)


def test_a_producer_returning_undeclared_kinds_is_recorded_not_served():
    def stray(inputs, resources):
        return [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}]

    state = ClusterState([widget("w")], extensions=[toy_extension(report_producer=stray)])
    assert state.report_errors == [
        "toy: the report producer returned ('', 'ConfigMap'), which is not among its report_outputs"
    ]
    assert not [o for o in state.objects().values() if o["kind"] == "ConfigMap"]


def test_a_cell_that_cannot_be_computed_is_empty_not_an_error():
    from itbench.cluster.tables import table

    state = ClusterState([], extensions=[toy_extension(validators={})])
    state.create({**widget("odd"), "spec": {}})
    rtype = state.registry.by_kind("Widget")
    assert rtype is not None
    doc = table(state.catalog.columns_of(rtype), state.list(rtype), "1", "None")
    assert doc["rows"][0]["cells"] == ["odd", None, None]
