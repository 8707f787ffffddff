"""A metadata key every object of a kind must carry: "every ConfigMap must have the label K",
"each Deployment must be annotated with K". The key the text names (a DNS prefix, a slash, a
name) is read under labels or annotations by the word the text uses, objects missing it or
leaving it empty are findings, and an object the text exempts by namespace/name is not judged.
Every requirement and object here is written for this test; the rendered policies are judged by
the real engines (Kyverno scanner, Rego)."""

from __future__ import annotations

from typing import Any

from ciso.agents.baseline.intent import FieldValueCheck
from tests._support.ciso_baseline import intent_of, kyverno_flags, rego_flags


def _object(kind: str, name: str, *, labels: Any = None, annotations: Any = None) -> dict:
    meta: dict[str, Any] = {"name": name, "namespace": "billing"}
    if labels is not None:
        meta["labels"] = labels
    if annotations is not None:
        meta["annotations"] = annotations
    return {"apiVersion": "v1", "kind": kind, "metadata": meta, "data": {"k": "v"}}


def test_a_label_key_every_configmap_must_have() -> None:
    intent = intent_of(
        "Cost tracking: every ConfigMap must have the label finance.example.org/cost-centre "
        "with a value that is not blank. An annotation of that name is not enough."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck)
    assert check.kinds == ("ConfigMap",)
    assert check.paths == (("metadata", "labels", "finance.example.org/cost-centre"),)
    assert check.must_be_set
    key = "finance.example.org/cost-centre"
    objects = [
        _object("ConfigMap", "tagged", labels={key: "cc-12"}),
        _object("ConfigMap", "untagged"),
        _object("ConfigMap", "blank", labels={key: ""}),
        _object("ConfigMap", "annotated-only", annotations={key: "cc-12"}),
        _object("ConfigMap", "other-key", labels={"finance.example.org/owner": "x"}),
        # another kind is not judged
        _object("Secret", "secret-untagged"),
    ]
    names = {o["metadata"]["name"] for o in objects}
    expected = {"untagged", "blank", "annotated-only", "other-key"}
    assert kyverno_flags(intent, objects) & names == expected
    assert rego_flags(intent, objects, "opa-static") == expected


def test_an_annotation_stated_as_annotated_with_and_one_object_exempt() -> None:
    intent = intent_of(
        "Each ServiceAccount must be annotated with docs.example.net/runbook so on-call staff "
        "can find its runbook. The platform's own account tools/bootstrap is exempt."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck)
    assert check.kinds == ("ServiceAccount",)
    assert check.paths == (("metadata", "annotations", "docs.example.net/runbook"),)
    assert check.exempt_names == ("bootstrap",)
    key = "docs.example.net/runbook"
    objects = [
        _object("ServiceAccount", "with-book", annotations={key: "https://wiki/x"}),
        _object("ServiceAccount", "without-book"),
        _object("ServiceAccount", "labelled-only", labels={"team": "a"}),
        _object("ServiceAccount", "bootstrap"),
    ]
    names = {o["metadata"]["name"] for o in objects}
    expected = {"without-book", "labelled-only"}
    assert kyverno_flags(intent, objects) & names == expected
    assert rego_flags(intent, objects, "opa-static") == expected
