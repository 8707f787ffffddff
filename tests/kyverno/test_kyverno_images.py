"""The ``images`` variable: built for Pods and their controllers, from a rule's imageExtractors
for other kinds, absent when there are no images (as in Kyverno)."""

from __future__ import annotations

import pytest

from ciso.engines.kyverno.engine import Context, apply
from ciso.engines.kyverno.rule_context import _images

POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "p", "namespace": "d"},
    "spec": {
        "imagePullSecrets": [{"name": "regcred"}],
        "initContainers": [{"name": "init", "image": "busybox"}],
        "containers": [{"name": "app", "image": "ghcr.io/org/app:1.2"}],
    },
}
TASK = {
    "apiVersion": "tekton.dev/v1beta1",
    "kind": "Task",
    "metadata": {"name": "t", "namespace": "d"},
    "spec": {
        "steps": [{"name": "build", "image": "golang:1.22"}, {"name": "push", "image": "crane"}]
    },
}
EXTRACTORS = {"Task": [{"path": "/spec/steps/*/image", "name": "steps", "key": "name"}]}


def test_pod_images_by_group_and_name():
    images = _images(POD, {})
    assert set(images) == {"initContainers", "containers"}
    app = images["containers"]["app"]
    assert (app["registry"], app["path"], app["tag"]) == ("ghcr.io", "org/app", "1.2")
    assert app["jsonPointer"] == "/spec/containers/0/image"
    assert app["imagePullSecrets"] == ["regcred"]
    assert images["initContainers"]["init"]["reference"] == "docker.io/busybox:latest"


@pytest.mark.parametrize(
    ("resource", "expected"),
    [
        (
            {
                "kind": "Deployment",
                "spec": {"template": {"spec": {"containers": [{"name": "a", "image": "x"}]}}},
            },
            {"containers": ["a"]},
        ),
        (
            {
                "kind": "CronJob",
                "spec": {
                    "jobTemplate": {
                        "spec": {
                            "template": {"spec": {"containers": [{"name": "a", "image": "x"}]}}
                        }
                    }
                },
            },
            {"containers": ["a"]},
        ),
        # a kind Kyverno has no extractor for has no images, even with a pod template inside
        (
            {
                "kind": "Rollout",
                "spec": {"template": {"spec": {"containers": [{"name": "a", "image": "x"}]}}},
            },
            {},
        ),
        # one unreadable image drops the variable
        ({"kind": "Pod", "spec": {"containers": [{"name": "a", "image": "Bad Image"}]}}, {}),
    ],
)
def test_which_kinds_have_images(resource, expected):
    assert {group: sorted(found) for group, found in _images(resource, {}).items()} == expected


def test_image_extractors_for_a_custom_kind():
    images = _images(TASK, {"imageExtractors": EXTRACTORS})
    assert sorted(images["steps"]) == ["build", "push"]
    assert images["steps"]["build"]["jsonPointer"] == "/spec/steps/0/image"


def test_rules_read_images_and_fail_without_them():
    def policy(kinds, extractors=None):
        rule = {
            "name": "registry",
            "match": {"any": [{"resources": {"kinds": kinds}}]},
            "validate": {
                "message": "only ghcr.io",
                "deny": {
                    "conditions": {
                        "any": [
                            {
                                "key": "{{ images.*.*.registry[] }}",
                                "operator": "AnyNotIn",
                                "value": ["ghcr.io"],
                            }
                        ]
                    }
                },
            },
        }
        if extractors:
            rule["imageExtractors"] = extractors
        return {
            "apiVersion": "kyverno.io/v1",
            "kind": "ClusterPolicy",
            "metadata": {"name": "p"},
            "spec": {"rules": [rule]},
        }

    (pod,) = apply([policy(["Pod"])], [POD], Context())
    assert pod.status == "fail"  # busybox is from docker.io
    (task,) = apply([policy(["Task"], EXTRACTORS)], [TASK], Context())
    assert task.status == "fail"
    # without extractors a Task has no images: a projection over them is empty (go-jmespath
    # absorbs the absent key there), a direct path is an Unknown key error
    (bare,) = apply([policy(["Task"])], [TASK], Context())
    assert bare.status == "pass"
    direct = policy(["Task"])
    condition = direct["spec"]["rules"][0]["validate"]["deny"]["conditions"]["any"][0]
    condition["key"] = "{{ images.steps.build.registry }}"
    (missing,) = apply([direct], [TASK], Context())
    assert missing.status == "error" and 'Unknown key "images"' in missing.message
