"""How a leave-one-in environment is built: on the compliant environment, with the one violating
resource put in as the agent saw it (in the place of its compliant twin, else in its own file, with
its Namespace when the compliant side lacks it; a kept Namespace with what the agent saw inside
it), and nothing else of the violating environment."""

from __future__ import annotations

from pathlib import Path

from ciso.environments.kubernetes import leave_one_in, leave_one_in_copy, leave_one_in_sourced
from ciso.scenarios.loader import load_builtin
from ciso.scenarios.model import ResourceRef
from ciso.scenarios.objects import identity
from itbench.cluster import load_manifests

SCENARIO = next(
    s
    for s in load_builtin().scenarios
    if s.id == "cis-k8s-5.1.5-default-service-account.opa-static"
)


def _objects(*specs: tuple[str, str, str, str]) -> list[tuple[Path, dict]]:
    """(file, kind, namespace, name) -> objects with their files; a label marks the side."""
    found = []
    for file, kind, namespace, name in specs:
        meta = {"name": name, **({"namespace": namespace} if namespace else {})}
        found.append((Path(file), {"apiVersion": "v1", "kind": kind, "metadata": meta}))
    return found


def test_the_kept_resource_replaces_its_compliant_twin_in_that_files_place() -> None:
    seen = _objects(("a.yaml", "Pod", "east", "mailer"), ("b.yaml", "ConfigMap", "east", "marker"))
    seen[0][1]["metadata"]["labels"] = {"side": "violating"}
    fixed = _objects(("c.yaml", "Pod", "east", "mailer"), ("c.yaml", "Secret", "east", "token"))
    mailer = ResourceRef("Pod", "east", "mailer")
    built = leave_one_in_sourced(seen, fixed, [mailer, ResourceRef("Pod", "east", "x")], mailer)
    assert [(str(p), identity(o)) for p, o in built] == [
        ("c.yaml", mailer),
        ("c.yaml", ResourceRef("Secret", "east", "token")),
    ]
    assert built[0][1]["metadata"]["labels"] == {"side": "violating"}


def test_a_kept_resource_the_compliant_side_lacks_comes_with_its_namespace() -> None:
    seen = _objects(
        ("ns.yaml", "Namespace", "", "west"),
        ("only-here.yaml", "Pod", "west", "relay"),
        ("only-here.yaml", "Pod", "west", "harmless"),
    )
    fixed = _objects(("f.yaml", "Pod", "east", "other"), ("ns.yaml", "Namespace", "", "east"))
    relay = ResourceRef("Pod", "west", "relay")
    built = leave_one_in_sourced(seen, fixed, [relay], relay)
    # a file only the violating side has is not brought along: its name would give it away
    assert {(str(p), identity(o)) for p, o in built} == {
        ("f.yaml", ResourceRef("Pod", "east", "other")),
        ("ns.yaml", ResourceRef("Namespace", "", "east")),
        ("ns.yaml", ResourceRef("Namespace", "", "west")),
        ("f.yaml", relay),
    }


def test_a_kept_namespace_holds_what_the_agent_saw_inside_it() -> None:
    seen = _objects(("s.yaml", "Namespace", "", "north"), ("s.yaml", "ConfigMap", "north", "c"))
    fixed = _objects(
        ("f.yaml", "Namespace", "", "north"), ("f.yaml", "NetworkPolicy", "north", "deny-all")
    )
    north = ResourceRef("Namespace", "", "north")
    built = leave_one_in_sourced(seen, fixed, [north], north)
    assert {identity(o) for _, o in built} == {north, ResourceRef("ConfigMap", "north", "c")}


def test_the_built_folder_holds_the_compliant_objects_and_the_kept_one(tmp_path: Path) -> None:
    scenario = SCENARIO
    kept = ResourceRef.parse("CronJob/shop/nightly-report")
    built = leave_one_in_copy(
        scenario.violating, scenario.compliant, scenario.violating_resources, kept, tmp_path / "e"
    )
    objects = {identity(o): o for o in load_manifests(built)}
    compliant = {identity(o): o for o in load_manifests(scenario.compliant)}
    violating = {identity(o): o for o in load_manifests(scenario.violating)}
    assert set(objects) == set(compliant) | {kept}
    assert objects[kept] == violating[kept]
    assert ResourceRef("ServiceAccount", "shop", "api-client") not in objects


def test_without_a_compliant_environment_the_others_are_cut_out() -> None:
    seen = [
        o
        for _, o in _objects(
            ("a", "Pod", "e", "one"), ("a", "Pod", "e", "two"), ("a", "Pod", "e", "calm")
        )
    ]
    one, two = ResourceRef("Pod", "e", "one"), ResourceRef("Pod", "e", "two")
    assert [identity(o) for o in leave_one_in(seen, None, [one, two], one)] == [
        one,
        ResourceRef("Pod", "e", "calm"),
    ]
