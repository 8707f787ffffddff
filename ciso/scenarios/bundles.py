"""ITBench's live scenario bundles, read unchanged: ``info.json`` (``scenario_type``, ``goal``),
``manifests/``, ``eval_config.yaml`` (update class) and ``examples/``.

A bundle that lacks an environment gets one built from its fault injection
(:mod:`ciso.scenarios.injections`) into the cache, never into the bundle's folder; the scenario's
metadata says which file and which injection it was built from.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from ciso.engines.rego.v0 import rewrite_v0
from ciso.scenarios.format import SAFE_ID, did_you_mean, read_text
from ciso.scenarios.injections import Injection, find_injection
from ciso.scenarios.model import (
    CLASS_PLATFORM,
    CisoScenario,
    Platform,
    ResourceRef,
    ScenarioClass,
    UpdateSpec,
)
from ciso.scenarios.reference import control_solution
from itbench import jsonsafe
from itbench.errors import InputError, parse_problem
from itbench.yamlsafe import load_all

BUNDLE_FILE = "info.json"

#: ITBench's scenario_type values (compared case-insensitively) and the class each one is.
SCENARIO_TYPES: Mapping[str, ScenarioClass] = {
    "gen-cis-b-k8s-kyverno": ScenarioClass.KYVERNO,
    "gen-cis-b-k8s-kubectl-opa": ScenarioClass.KUBECTL_OPA,
    "gen-cis-b-rhel9-ansible-opa": ScenarioClass.RHEL9_ANSIBLE_OPA,
    "upd-cis-b-k8s-kyverno": ScenarioClass.KYVERNO_UPDATE,
}
#: Bumped when a derivation changes, so stale cached environments are not reused.
DERIVATION_VERSION = "1"
_CIS_ID = re.compile(r"\b(\d+(?:\.\d+)+)\b")


def cache_root() -> Path:
    base = os.environ.get("ITBENCH_CACHE_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "itbench"


def is_bundle(directory: Path) -> bool:
    return (directory / BUNDLE_FILE).is_file()


def read_info(path: Path) -> dict[str, Any]:
    text = read_text(path)
    try:
        info = jsonsafe.loads(text, str(path))
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    if not isinstance(info, dict):
        raise InputError(f"{path}: expected a JSON object, got {type(info).__name__}")
    for key in ("scenario_type", "goal"):
        value = info.get(key)
        if value is None:
            raise InputError(f"{path}: {key}: required field is missing")
        if not isinstance(value, str) or not value.strip():
            raise InputError(f"{path}: {key}: expected a non-empty string")
    return info


def bundle_class(path: Path, scenario_type: str) -> ScenarioClass:
    cls = SCENARIO_TYPES.get(scenario_type.lower())
    if cls is None:
        known = ["Gen-CIS-b-K8s-Kyverno", "Gen-CIS-b-K8s-Kubectl-OPA"]
        known += ["Gen-CIS-b-RHEL9-Ansible-OPA", "Upd-CIS-b-K8s-Kyverno"]
        raise InputError(
            f"{path}: scenario_type: {scenario_type!r} is not an ITBench CISO scenario type"
            f"{did_you_mean(scenario_type, known)}; known: {', '.join(known)}"
        )
    return cls


def _yaml_documents(path: Path) -> list[dict[str, Any]]:
    try:
        documents = load_all(read_text(path))
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: invalid YAML: {parse_problem(exc)}") from None
    return [d for d in documents if isinstance(d, dict)]


def _digest(injection: Injection, *paths: Path) -> str:
    """Names a built environment by everything it is built from."""
    digest = hashlib.sha256(DERIVATION_VERSION.encode() + repr(injection).encode())
    for path in paths:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _build_once(target: Path, write: Any) -> Path:
    """Build an environment directory once (atomically: a crash leaves no half-built one)."""
    if target.is_dir():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        write(staging)
        os.replace(staging, target)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        if not target.is_dir():  # another process may have won the race
            raise
    return target


def _set_path(obj: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        obj = obj.setdefault(key, {})
    obj[path[-1]] = value


def _kubernetes_environments(
    directory: Path, injection: Injection, manifests: list[dict[str, Any]] | None
) -> tuple[Path, Path, str]:
    """(violating, compliant, what they were built from) for a Kubernetes injection."""
    if manifests:
        objects = copy.deepcopy(manifests)
    elif injection.injected is not None:
        objects = [copy.deepcopy(dict(injection.injected))]
    else:
        raise InputError(f"{directory}: no manifests/ and no injected object to build from")
    namespace = injection.namespace
    for obj in objects:
        if namespace and not (obj.get("metadata") or {}).get("namespace"):
            obj.setdefault("metadata", {})["namespace"] = namespace
    compliant = copy.deepcopy(objects)
    for obj in compliant:
        for path, value in injection.remedy:
            _set_path(obj, path, value)
    declared = (
        [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}}]
        if namespace
        else []
    )
    app = directory / "manifests" / "application.yaml"
    key = _digest(injection, directory / BUNDLE_FILE, app)
    root = cache_root() / "ciso" / "bundles" / f"{directory.name}-{key}"

    def writer(documents: list[dict[str, Any]]) -> Any:
        def write(staging: Path) -> None:
            text = yaml.safe_dump_all(declared + documents, sort_keys=False)
            (staging / "application.yaml").write_text(text, encoding="utf-8")

        return write

    violating = _build_once(root / "violating", writer(objects))
    compliant_dir = _build_once(root / "compliant", writer(compliant))
    source = "manifests/application.yaml" if manifests else BUNDLE_FILE
    built = f"{directory.name}/{source}: injection description ({injection.description})"
    return violating, compliant_dir, built


def _rhel_environments(directory: Path, injection: Injection) -> tuple[Path, Path, str]:
    key = _digest(injection, directory / BUNDLE_FILE)
    root = cache_root() / "ciso" / "bundles" / f"{directory.name}-{key}"

    def writer(index: int) -> Any:
        def write(staging: Path) -> None:
            for absolute, texts in injection.host_files.items():
                target = staging / "host" / absolute.lstrip("/")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(texts[index], encoding="utf-8")

        return write

    violating = _build_once(root / "violating", writer(0))
    compliant = _build_once(root / "compliant", writer(1))
    built = f"{directory.name}/{BUNDLE_FILE}: injection description ({injection.description})"
    return violating, compliant, built


def _example_reference(directory: Path, cls: ScenarioClass) -> tuple[dict[str, Path], str | None]:
    """The bundle's examples/ as a reference answer when usable, else why not."""
    examples = directory / "examples"
    if cls is ScenarioClass.KYVERNO:
        policy = examples / "example_policy.yaml"
        if policy.is_file():
            return {"kyverno-policy.yaml": policy}, None
    elif cls is ScenarioClass.KYVERNO_UPDATE:
        policy = examples / "example-fix-policy.yaml"
        if policy.is_file():
            return {"kyverno-policy.yaml": policy}, None
    elif cls is ScenarioClass.RHEL9_ANSIBLE_OPA:
        policy, playbook = examples / "example_policy.rego", examples / "example_playbook.yml"
        if policy.is_file() and playbook.is_file():
            if rewrite_v0(read_text(policy)) != read_text(policy):
                return {}, "examples/example_policy.rego is Rego v0, which OPA 1.x rejects"
            if "collected_data.json" not in read_text(playbook):
                return {}, "examples/example_playbook.yml does not write collected_data.json"
            return {"playbook.yml": playbook, "policy.rego": policy}, None
    return {}, "the bundle has no usable example answer"


def _check_violations(path: Path) -> UpdateSpec:
    documents = _yaml_documents(path)
    if len(documents) != 1:
        raise InputError(f"{path}: expected one mapping with check_violations")
    config = documents[0]
    checks = config.get("check_violations")
    if not isinstance(checks, list) or not checks:
        raise InputError(f"{path}: check_violations: expected a non-empty list")
    for index, check in enumerate(checks):
        where = f"{path}: check_violations[{index}]"
        if not isinstance(check, dict):
            raise InputError(f"{where}: expected a mapping")
        for key in ("policy_name", "resource", "expected_result"):
            if key not in check:
                raise InputError(f"{where}.{key}: required field is missing")
        resource = check["resource"]
        if not isinstance(resource, dict):
            raise InputError(f"{where}.resource: expected a mapping")
        for key in ("kind", "name"):
            if not isinstance(resource.get(key), str):
                raise InputError(f"{where}.resource.{key}: required string is missing")
        if check["expected_result"] not in ("pass", "fail"):
            raise InputError(
                f"{where}.expected_result: {check['expected_result']!r} is not 'pass' or 'fail'"
            )
    unchanged = config.get("check_unchanged_policies") or []
    if not isinstance(unchanged, list):
        raise InputError(f"{path}: check_unchanged_policies: expected a list")
    names = []
    for index, entry in enumerate(unchanged):
        if not isinstance(entry, dict) or not isinstance(entry.get("policy_name"), str):
            raise InputError(f"{path}: check_unchanged_policies[{index}].policy_name: missing")
        names.append(entry["policy_name"])
    existing = path.parent / "manifests" / "existing-policy.yaml"
    if not existing.is_file():
        raise InputError(f"{path.parent}: manifests/existing-policy.yaml: file is missing")
    return UpdateSpec(
        existing_policies=(existing,),
        check_violations=tuple(checks),
        unchanged_policies=tuple(names),
    )


def load_bundle(directory: Path) -> list[CisoScenario]:
    """One ITBench bundle as one CisoScenario (a bundle is one class)."""
    info_path = directory / BUNDLE_FILE
    info = read_info(info_path)
    cls = bundle_class(info_path, info["scenario_type"])
    platform = CLASS_PLATFORM[cls]
    base_id = directory.name
    if not SAFE_ID.match(base_id):
        raise InputError(f"{directory}: the directory name is not usable as a scenario id")
    goal = info["goal"].strip()
    description = str(info.get("description") or "")
    found = _CIS_ID.search(description)
    cis_id = found.group(1) if found and cls is not ScenarioClass.KYVERNO_UPDATE else None
    metadata: dict[str, Any] = {"itbench_name": str(info.get("name") or base_id)}
    solution, why_not = _example_reference(directory, cls)
    update = None
    if cls is ScenarioClass.KYVERNO_UPDATE:
        update = _check_violations(directory / "eval_config.yaml")
        if not (directory / "manifests" / "application.yaml").is_file():
            raise InputError(f"{directory}: manifests/application.yaml: file is missing")
        violating, compliant = directory / "manifests", None
        refs = tuple(
            ResourceRef(
                c["resource"]["kind"], c["resource"].get("namespace") or "", c["resource"]["name"]
            )
            for c in update.check_violations
            if c["expected_result"] == "fail"
        )
        if description:
            metadata["title"] = description
    else:
        violating, compliant, refs, built = _generation_environments(
            directory, goal, platform, metadata
        )
        if built:
            metadata["environment_built_from"] = built
    if not solution and cis_id:
        prefix = "cis-rhel9" if platform is Platform.RHEL9 else "cis-k8s"
        folder, solution = control_solution(prefix, cis_id, cls)
        if solution:
            metadata["reference_from"] = f"built-in reference {folder} ({why_not})"
    if not solution:
        metadata["reference_note"] = why_not
    return [
        CisoScenario(
            id=f"{base_id}.{cls.value}",
            base_id=base_id,
            scenario_class=cls,
            platform=platform,
            requirement=goal,
            violating=violating,
            compliant=compliant,
            violating_resources=refs,
            cis_id=cis_id,
            solution=solution,
            source=directory,
            origin="itbench-bundle",
            metadata=metadata,
            update=update,
        )
    ]


def _generation_environments(
    directory: Path, goal: str, platform: Platform, metadata: dict[str, Any]
) -> tuple[Path, Path | None, tuple[ResourceRef, ...], str | None]:
    injection = find_injection(goal, platform)
    app = directory / "manifests" / "application.yaml"
    manifests = _yaml_documents(app) if app.is_file() else None
    if injection is None:
        if manifests is None:
            raise InputError(
                f"{directory / BUNDLE_FILE}: goal: the bundle ships no environment "
                "(manifests/application.yaml) and no injection is known for this requirement"
            )
        # a bundle for another control: its manifests are the violating environment as is
        refs = tuple(
            ResourceRef(
                str(o.get("kind")),
                str((o.get("metadata") or {}).get("namespace") or "default"),
                str((o.get("metadata") or {}).get("name")),
            )
            for o in manifests
        )
        metadata["compliant_note"] = "no injection is known for this requirement"
        return directory / "manifests", None, refs, None
    refs = tuple(ResourceRef.parse(r) for r in injection.violating_resources)
    if platform is Platform.RHEL9:
        violating, compliant, built = _rhel_environments(directory, injection)
    else:
        violating, compliant, built = _kubernetes_environments(directory, injection, manifests)
    return violating, compliant, refs, built
