"""The engine's fast paths (remembered operator and leaf outcomes, the kind prefilter deciding a
match, the direct call of plain pattern rules, ``kyverno apply``'s worker pool) must never change
an outcome: each is checked against the same engine with it turned off, result by result, over
the pod-security policies and resources of many shapes. The pattern interpreter (compiled
closures, the only one) is checked against the verdicts the pattern walk it replaced gave on the
same patterns and resources (``fixtures/pattern-verdicts.json``, recorded from that walk)."""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from ciso.cli import kyverno_cmd
from ciso.engines.kyverno import bulk, conditions, engine
from ciso.engines.kyverno.conditions.operators import OPERATORS
from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.pattern import check, compiled, values
from ciso.engines.kyverno.pattern.check import validate
from ciso.engines.kyverno.pattern.errors import MAX_DEPTH, Mismatch, PatternSyntaxError
from itbench.errors import ItbenchError
from itbench.exitcodes import ExitCode
from tests._support.cli import SHARED

POD_SECURITY = SHARED / "corpora" / "kyverno-policies" / "pod-security"
needs_shared = pytest.mark.skipif(
    not POD_SECURITY.exists(), reason=f"{POD_SECURITY} not found: ../shared is needed"
)


def _policy_files() -> list[Path]:
    """The 18 baseline and restricted policies (as benchmarks/kyverno_apply_large.py)."""
    return [
        folder / f"{folder.name}.yaml"
        for level in ("baseline", "restricted")
        for folder in sorted((POD_SECURITY / level).iterdir())
        if (folder / f"{folder.name}.yaml").is_file()
    ]


def _policies() -> list[dict[str, Any]]:
    found = []
    for path in _policy_files():
        found += [
            d
            for d in yaml.safe_load_all(path.read_text())
            if d and d.get("kind") in ("ClusterPolicy", "Policy")
        ]
    return found


# values that meet the pattern leaves in every way: right and wrong types, empty, null
ODD = [None, "", True, False, 0, 1, "true", "false", "0", [], {}, ["ALL"], {"a": 1}, 1.5, "x*"]


def _odd(rng: random.Random, good: Any) -> Any:
    return good if rng.random() < 0.6 else rng.choice(ODD)


def _container(rng: random.Random, i: int) -> dict[str, Any]:
    context = {
        "privileged": _odd(rng, rng.random() < 0.2),
        "allowPrivilegeEscalation": _odd(rng, rng.random() < 0.3),
        "runAsNonRoot": _odd(rng, rng.random() < 0.7),
        "runAsUser": _odd(rng, rng.choice([0, 1000])),
        "procMount": _odd(rng, rng.choice(["Default", "Unmasked"])),
        "capabilities": _odd(
            rng, rng.choice([{"drop": ["ALL"]}, {"add": ["NET_ADMIN"]}, {"add": ["CHOWN"]}])
        ),
        "seccompProfile": _odd(rng, {"type": rng.choice(["RuntimeDefault", "Unconfined"])}),
        "seLinuxOptions": _odd(rng, {"type": rng.choice(["container_t", "spc_t"])}),
        "windowsOptions": _odd(rng, {"hostProcess": rng.random() < 0.2}),
    }
    container: dict[str, Any] = {
        "name": f"c{i}",
        "image": "nginx",
        "securityContext": {k: v for k, v in context.items() if rng.random() < 0.5},
    }
    if rng.random() < 0.3:
        container["ports"] = [{"containerPort": 80, "hostPort": _odd(rng, rng.choice([0, 80]))}]
    if rng.random() < 0.1:
        container["securityContext"] = rng.choice(ODD)
    return container


def _pod_spec(rng: random.Random) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "containers": [_container(rng, i) for i in range(rng.randint(0, 3))],
    }
    for key in ("initContainers", "ephemeralContainers"):
        if rng.random() < 0.3:
            spec[key] = [_container(rng, 9)]
    for key in ("hostNetwork", "hostPID", "hostIPC"):
        if rng.random() < 0.2:
            spec[key] = _odd(rng, True)
    if rng.random() < 0.3:
        spec["volumes"] = [
            rng.choice([{"name": "h", "hostPath": {"path": "/var"}}, {"name": "e", "emptyDir": {}}])
        ]
    if rng.random() < 0.3:
        spec["securityContext"] = {
            "sysctls": [{"name": rng.choice(["kernel.shm_rmid_forced", "net.core.x"])}],
            "seccompProfile": {"type": rng.choice(["RuntimeDefault", "Localhost", "Unconfined"])},
            "runAsNonRoot": _odd(rng, True),
        }
    if rng.random() < 0.05:
        spec["containers"] = rng.choice(ODD)
    return spec


def _resources(count: int, seed: int = 7) -> list[dict[str, Any]]:
    """Pods (some with AppArmor annotations: wildcard pattern keys), Deployments and CronJobs
    (autogen rules) and a ConfigMap (no rule matches), in every shape."""
    rng = random.Random(seed)
    made = []
    for i in range(count):
        meta: dict[str, Any] = {"name": f"r{i}", "namespace": f"ns{i % 3}"}
        if rng.random() < 0.3:
            meta["annotations"] = {
                "container.apparmor.security.beta.kubernetes.io/c0": rng.choice(
                    ["runtime/default", "unconfined", "localhost/x"]
                )
            }
        spec = _pod_spec(rng)
        shape = i % 4
        if shape in (0, 1):
            made.append({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec})
        elif shape == 2:
            made.append(
                {
                    "apiVersion": "apps/v1",
                    "kind": "Deployment",
                    "metadata": meta,
                    "spec": {"template": {"metadata": {}, "spec": spec}},
                }
            )
        else:
            made.append(
                {
                    "apiVersion": "batch/v1",
                    "kind": "CronJob",
                    "metadata": meta,
                    "spec": {"jobTemplate": {"spec": {"template": {"spec": spec}}}},
                }
            )
    made.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}})
    return json.loads(json.dumps(made))  # no shared sub-objects (YAML would write aliases)


def _patterns(policies: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    found = []
    for policy in policies:
        for rule in engine.all_rules(policy):
            spec = rule.get("validate") or {}
            if "pattern" in spec:
                found.append((rule["name"], spec["pattern"]))
            for i, pattern in enumerate(spec.get("anyPattern") or []):
                found.append((f"{rule['name']}[{i}]", pattern))
    return found


def _verdict(check: Any) -> tuple[str, ...]:
    try:
        check()
    except Mismatch as exc:
        return ("mismatch", exc.path, exc.message, exc.kind, str(exc.direct))
    except PatternSyntaxError as exc:
        return ("syntax", str(exc))
    return ("ok",)


RECORDED = json.loads((Path(__file__).parent / "fixtures" / "pattern-verdicts.json").read_text())


def _deep(levels: int) -> Any:
    deep: Any = 1
    for _ in range(levels):
        deep = {"a": deep}
    return deep


@needs_shared
def test_compiled_patterns_give_the_recorded_verdicts_on_every_resource():
    """Per pattern of the pod-security policies, the verdicts (outcome, path, message, kind) on
    301 resources of every shape hash to what the replaced walk gave."""
    patterns = _patterns(_policies())
    assert [name for name, _ in patterns] == [r["pattern"] for r in RECORDED["corpus"]]
    resources = _resources(300)
    kinds_seen: set[str] = set()
    for (name, pattern), recorded in zip(patterns, RECORDED["corpus"], strict=True):
        eager = compiled.compile_pattern(pattern)
        # made lazily, anew for each resource: as a pattern substituted for one resource is
        lazy = [compiled.compile_pattern(pattern, lazy=True) for _ in resources]
        for made in ("eager", "lazy"):
            verdicts = [
                list(_verdict(lambda r=r, c=eager if made == "eager" else lazy[i]: c(r, "/", 0)))
                for i, r in enumerate(resources)
            ]
            outcomes: dict[str, int] = {}
            for verdict in verdicts:
                kind = verdict[0] if verdict[0] != "mismatch" else verdict[3]
                outcomes[kind] = outcomes.get(kind, 0) + 1
            assert outcomes == recorded["outcomes"], (name, made)
            digest = hashlib.sha256(json.dumps(verdicts).encode()).hexdigest()
            assert digest == recorded["sha256"], (name, made)
            kinds_seen |= set(outcomes)
    # the resources reach the patterns' outcomes: pass, failure and a negation anchor's failure
    assert {"ok", "fail", "negation"} <= kinds_seen, kinds_seen


@pytest.mark.parametrize("case", RECORDED["cases"], ids=lambda c: json.dumps(c["pattern"])[:40])
def test_malformed_deep_and_wildcard_patterns_give_the_recorded_verdicts(case):
    pattern = resource = case["pattern"]
    if pattern == "deep":
        pattern = resource = _deep(MAX_DEPTH + 5)
    else:
        resource = case["resource"]
    for lazy in (False, True):
        check = compiled.compile_pattern(pattern, lazy=lazy)
        assert list(_verdict(lambda c=check: c(resource, "/", 0))) == case["verdict"], lazy
    # and through the entry point, twice (made lazily the first time, whole the second)
    for _ in range(2):
        assert list(_verdict(lambda: validate(resource, pattern))) == case["verdict"]


def test_a_wildcard_map_meets_each_key_set_anew():
    """The split of a wildcard map is remembered per key set: another resource's keys must not
    reuse the first one's."""
    pattern = {"m*": {"x": 1}}
    check = compiled.compile_pattern(pattern)
    check({"mk": {"x": 1}}, "/", 0)
    with pytest.raises(Mismatch, match="/mj/x/"):
        check({"mj": {"x": 2}}, "/", 0)
    for i in range(100):  # more key sets than remembered: still right
        check({f"m{i}": {"x": 1}}, "/", 0)
    with pytest.raises(Mismatch, match="/m5/x/"):
        check({"m5": {"x": 3}}, "/", 0)


def test_a_pattern_nested_thousands_deep_is_an_error_not_a_crash():
    """Past MAX_DEPTH the pattern is compiled only where a resource reaches: no recursion limit."""
    pattern = _deep(5000)
    check = compiled.compile_pattern(pattern)
    with pytest.raises(PatternSyntaxError, match="nested deeper than"):
        check(_deep(5000), "/", 0)
    with pytest.raises(Mismatch):  # a shallow resource stops before the depth is reached
        check({"a": 1}, "/", 0)


def test_remembered_leaf_outcomes_keep_types_apart():
    # True, 1 and 1.0 are one dictionary key; as pattern operands they differ
    pairs = [(True, 1), (1, 1), (1.0, 1), (True, "true"), (1, "1"), ("1", 1), (None, 0), (0, None)]
    for _ in range(2):  # the second round answers from what was remembered
        for value, pattern in pairs:
            assert values.value_matches(value, pattern) == values._value_matches(value, pattern)


def test_remembered_operator_outcomes_keep_types_apart():
    cases = [
        ("Equals", True, 1),
        ("Equals", 1, 1),
        ("Equals", 1.0, "1"),
        ("AnyNotIn", ["CHOWN"], ["CHOWN", "KILL"]),
        ("AnyNotIn", ["NET_ADMIN"], ["CHOWN", "KILL"]),
        ("AnyIn", [True], [1]),
        ("AnyIn", [1], [1]),
        ("NotEquals", "CREATE", "DELETE"),
        ("GreaterThan", "2h", "90m"),
    ]
    for _ in range(2):
        for operator, key, value in cases:
            expected = OPERATORS[operator.lower()](key, value)
            assert conditions.check(operator, key, value) == expected, (operator, key, value)


def _without_fast_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "_prefilter_decides", lambda rule, kinds: False)
    monkeypatch.setattr(engine, "_plain_validate_rule", lambda rule: False)
    monkeypatch.setattr(engine, "_fixed_operation", lambda ctx: None)
    monkeypatch.setattr(conditions, "_frozen", lambda value: None)
    monkeypatch.setattr(values, "_SCALARS", frozenset())
    monkeypatch.setattr(check, "_COMPILED", {})  # each pattern compiled anew


def _rows(results: list) -> list[tuple]:
    return [
        (r.policy, r.rule, r.kind, r.namespace, r.name, r.status, r.message, r.rule_type)
        for r in results
    ]


@needs_shared
@pytest.mark.parametrize("operation", [None, "UPDATE", "DELETE"])
def test_apply_gives_the_same_results_with_and_without_the_fast_paths(monkeypatch, operation):
    policies = _policies()
    resources = _resources(200, seed=11)
    # twice with the fast paths: the second run uses what the first compiled and remembered
    fast = [_rows(apply(policies, resources, Context(operation=operation))) for _ in range(2)]
    with monkeypatch.context() as m:
        _without_fast_paths(m)
        slow = _rows(apply(policies, resources, Context(operation=operation)))
    assert fast[0] == fast[1]
    assert len(fast[0]) == len(slow)
    for got, expected in zip(fast[0], slow, strict=True):
        assert got == expected
    statuses = {row[5] for row in slow}
    # a DELETE skips every rule (the policies' preconditions); the others pass and fail
    assert statuses == {"skip"} if operation == "DELETE" else {"pass", "fail"} <= statuses


def test_a_patched_kind_is_matched_in_full(monkeypatch):
    """A mutate rule that changes the kind: the validate rule's prefilter must not decide."""
    policy = {
        "apiVersion": "kyverno.io/v1",
        "kind": "ClusterPolicy",
        "metadata": {"name": "p"},
        "spec": {
            "rules": [
                {
                    "name": "rename",
                    "match": {"any": [{"resources": {"kinds": ["ConfigMap"]}}]},
                    "mutate": {"patchStrategicMerge": {"kind": "Secret"}},
                },
                {
                    "name": "check",
                    "match": {"any": [{"resources": {"kinds": ["ConfigMap"]}}]},
                    "validate": {"message": "m", "pattern": {"data": {"a": "1"}}},
                },
            ]
        },
    }
    resource = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}
    fast = _rows(apply([policy], [resource]))
    with monkeypatch.context() as m:
        _without_fast_paths(m)
        slow = _rows(apply([policy], [resource]))
    assert fast == slow
    assert [row[1] for row in fast] == ["rename"], fast  # the patched Secret no longer matches


@needs_shared
@pytest.mark.parametrize("fmt", ["json", "table", "yaml"])
def test_apply_in_worker_processes_prints_what_one_process_prints(monkeypatch, tmp_path, fmt):
    manifest = tmp_path / "resources.yaml"
    manifest.write_text(yaml.safe_dump_all(_resources(60, seed=3), sort_keys=False))
    args = ["apply", *map(str, _policy_files()), "--resource", str(manifest), "--format", fmt]
    monkeypatch.setattr(bulk, "BATCH", 7)  # nine batches: the pool is used
    outputs = {}
    for workers in (1, 2):
        monkeypatch.setattr(bulk, "worker_count", lambda n=workers: n)
        result = CliRunner().invoke(kyverno_cmd.kyverno, args, catch_exceptions=False)
        outputs[workers] = result.stdout
    assert outputs[1] == outputs[2]
    if fmt == "json":
        printed = json.loads(outputs[2])
        assert len(printed) > 60 and {r["status"] for r in printed} >= {"pass", "fail"}
        # every batch, the last included, reached the output
        assert {r["name"] for r in printed} >= {"r0", "r58", "r59"}


def _die(job: object, batch: list) -> object:
    os._exit(9)  # a worker killed mid-batch (the OOM killer, a signal)


@needs_shared
def test_a_worker_that_dies_is_a_clear_tool_error(monkeypatch, tmp_path):
    manifest = tmp_path / "resources.yaml"
    manifest.write_text(yaml.safe_dump_all(_resources(30, seed=5), sort_keys=False))
    monkeypatch.setattr(bulk, "BATCH", 5)
    monkeypatch.setattr(bulk, "worker_count", lambda: 2)
    monkeypatch.setattr(bulk.BulkApply, "batch", _die)
    args = ["apply", *map(str, _policy_files()), "--resource", str(manifest)]
    result = CliRunner().invoke(kyverno_cmd.kyverno, args)
    assert isinstance(result.exception, ItbenchError), result.exception
    assert result.exception.exit_code == ExitCode.TOOL_ERROR
    assert "worker process" in str(result.exception) and "ended abruptly" in str(result.exception)
