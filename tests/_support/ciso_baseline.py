"""Shared pieces of the CISO baseline's reading tests: a requirement parsed into its intent, the
objects the rendered policy flags through the real engines (the Kyverno scanner, Rego), and the
verdicts of RHEL 9 hosts judged through the real class. No tests here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ciso.agents.baseline.intent import Intent
from ciso.agents.baseline.parser import parse
from ciso.agents.baseline.render import render
from ciso.evaluation.kyverno_engines import select_scanner
from ciso.evaluation.kyverno_migrate import _flagged
from ciso.evaluation.rego import evaluate_source
from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.loader import load_directory


def intent_of(text: str, platform: str = "kubernetes") -> Intent:
    """The intent the baseline reads from ``text`` (the test fails when it reads none)."""
    parsed = parse(text, platform)
    assert isinstance(parsed, Intent), parsed
    return parsed


def kyverno_flags(intent: Intent, objects: list[dict[str, Any]]) -> set[str]:
    """The names of the objects (and the pods their controllers would make) the rendered
    ClusterPolicy flags in a background scan."""
    policy = [
        d for d in yaml.safe_load_all(render(intent, "kyverno").files["kyverno-policy.yaml"]) if d
    ]
    return {r.name for r in _flagged(select_scanner("itbench"), policy, objects)}


def rego_flags(intent: Intent, objects: list[dict[str, Any]], ciso_class: str) -> set[str]:
    """The names of the objects the Rego policy rendered for ``ciso_class`` (kubectl-opa or
    opa-static) counts as violations."""
    policy = render(intent, ciso_class).files["policy.rego"]
    result = evaluate_source({"policy.rego": policy}, "data.check.violations", {"items": objects})
    return {v.rsplit("/", 1)[-1] for v in result.value}


#: the three Kubernetes classes a rendered policy is judged in
CLASSES = ("kyverno", "kubectl-opa", "opa-static")


def flagged(intent: Intent, objects: list[dict[str, Any]], ciso_class: str) -> set[str]:
    """The names among ``objects`` themselves that the class's rendered policy flags (Kyverno's
    scanner also judges the pods a controller would create: only the objects count)."""
    names = {o["metadata"]["name"] for o in objects}
    if ciso_class == "kyverno":
        return kyverno_flags(intent, objects) & names
    return rego_flags(intent, objects, ciso_class) & names


def assert_every_class(intent: Intent, objects: list[dict[str, Any]], expected: set[str]) -> None:
    """Each class flags exactly ``expected`` among ``objects``."""
    for ciso_class in CLASSES:
        assert flagged(intent, objects, ciso_class) == expected, ciso_class


def role(kind: str, name: str, rules: list[dict[str, Any]], namespace: str = "") -> dict[str, Any]:
    """A Role or ClusterRole with ``rules``."""
    metadata = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": metadata,
            "rules": rules}  # fmt: skip


def api_object(api: str, kind: str, name: str, namespace: str = "team", **body: Any) -> dict:
    """An object of ``kind`` (``namespace=""`` for a cluster-scoped one) with ``body`` beside
    its metadata (``spec=...``, ``data=...``)."""
    meta = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": api, "kind": kind, "metadata": meta, **body}


def labelled_namespace(name: str, **labels: str) -> dict[str, Any]:
    """A Namespace carrying ``labels``."""
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": labels}}


def pod_carrier(
    kind: str, name: str, spec: dict[str, Any], namespace: str = "team"
) -> dict[str, Any]:
    """A Pod, or a workload of ``kind`` whose pod template carries ``spec`` (a CronJob through its
    job template; ``namespace=""`` for none)."""
    meta = {"name": name, **({"namespace": namespace} if namespace else {})}
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
    template = {"metadata": {"labels": {"app": name}}, "spec": spec}
    if kind == "CronJob":
        return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta,
                "spec": {"schedule": "15 2 * * *", "jobTemplate": {"spec": {"template": template}}}}  # fmt: skip
    if kind == "Job":
        return {
            "apiVersion": "batch/v1",
            "kind": "Job",
            "metadata": meta,
            "spec": {"template": template},
        }
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": meta,
            "spec": {"selector": {"matchLabels": {"app": name}}, "template": template}}  # fmt: skip


def names_of(objects: list[dict[str, Any]]) -> set[str]:
    """The names of ``objects``."""
    return {o["metadata"]["name"] for o in objects}


def judged_names(objects: list[dict[str, Any]]) -> set[str]:
    """The names of ``objects`` but their Namespaces: a case lists a Namespace for its labels, and
    a policy on workloads judges what runs in it, not the Namespace itself."""
    return {o["metadata"]["name"] for o in objects if o["kind"] != "Namespace"}


#: a requirement text, the objects that violate it and those that comply (each list with the
#: Namespaces its objects need)
Case = tuple[str, list[dict[str, Any]], list[dict[str, Any]]]


def assert_flags_exactly_the_violations(case: Case, ciso_class: str) -> None:
    """The class's policy rendered from the case's text flags its violating objects, no other."""
    text, violating, compliant = case
    assert flagged(intent_of(text), violating + compliant, ciso_class) == judged_names(violating)


def app_container(**fields: Any) -> dict[str, Any]:
    """A container named ``app`` with ``fields`` beside its name and image."""
    return {"name": "app", "image": "registry.test/app:3", **fields}


def secured_container(**security: Any) -> dict[str, Any]:
    """A container whose securityContext is ``security``."""
    return {"name": "main", "image": "registry.example/svc:4.1", "securityContext": security}


def privileged_spec(flag: bool) -> dict[str, Any]:
    """A pod spec whose one container sets ``privileged`` to ``flag``."""
    return {"containers": [secured_container(privileged=flag)]}


def images_spec(*images: str) -> dict[str, Any]:
    """A pod spec with one container for each of ``images``."""
    return {"containers": [{"name": f"c{i}", "image": image} for i, image in enumerate(images)]}


def judged_hosts(
    tmp_path: Path,
    requirement: str,
    violating: dict[str, str],
    compliant: dict[str, str],
    attributes: dict[str, str] | None = None,
) -> dict[str, str]:
    """The verdict of each host (its files by path below ``/``) under the baseline's answer to a
    RHEL 9 ``requirement``: the rendered playbook and policy through the real class
    (ansible-playbook in the sandbox, then Rego). ``attributes``: a side's host-attributes.yaml."""
    folder = tmp_path / "scenario"
    for side, files in (("violating", violating), ("compliant", compliant)):
        (folder / side / "host").mkdir(parents=True)
        for relative, text in files.items():
            path = folder / side / "host" / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        if attributes and side in attributes:
            (folder / side / "host-attributes.yaml").write_text(attributes[side])
    (folder / "scenario.yaml").write_text(
        "id: reading\n"
        'cis_id: "0.0"\n'
        "platform: rhel9\n"
        f"requirement: {requirement!r}\n"
        "classes: [rhel9-ansible-opa]\n"
        "violating_resources: []\n"
    )
    (scenario,) = load_directory(folder).scenarios
    trial = tmp_path / "trial"
    trial.mkdir()
    for name, text in render(intent_of(requirement, "rhel9"), "rhel9-ansible-opa").files.items():
        (trial / name).write_text(text)
    result = evaluate_trial(scenario, trial)
    return {k: v["result"] for k, v in result.details["environments"].items()}


#: what ``judged_hosts`` gives when the answer tells the hosts apart
JUDGED = {"violating": "false", "compliant": "true"}
