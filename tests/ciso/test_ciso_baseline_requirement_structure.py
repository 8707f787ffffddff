"""The structure of a Kubernetes requirement rather than its vocabulary: a sentence that hands a
topic to another control ("checked elsewhere", "is not this rule") does not choose the concept,
and a required value listed with its other spellings ("X (written as X or Y)") allows each.
Every text and object here is written for this test."""

from __future__ import annotations

from typing import Any

import pytest

from ciso.agents.baseline.intent import FieldValueCheck
from ciso.agents.baseline.knowledge import OTHER_CONTROL
from tests._support.ciso_baseline import assert_every_class, intent_of


def _cron(name: str, **spec: Any) -> dict[str, Any]:
    pod = {"spec": {"containers": [{"name": "job", "image": "registry.example/tool:7"}],
                    "restartPolicy": "Never"}}  # fmt: skip
    return {"apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": name, "namespace": "finance"},
            "spec": {"schedule": "15 1 * * *", **spec,
                     "jobTemplate": {"spec": {"template": pod}}}}  # fmt: skip


@pytest.mark.parametrize(
    "sentence",
    [
        "Retry limits are audited elsewhere.",
        "Buffer sizes are not this rule.",
        "How a Service is exposed is handled separately.",
    ],
)
def test_a_sentence_handing_a_topic_elsewhere_names_another_control(sentence: str) -> None:
    assert OTHER_CONTROL.search(sentence)


def test_a_zone_with_its_alias_must_be_stated_and_the_history_aside_is_not_the_concept() -> None:
    intent = intent_of(
        "Finance rule FIN-12: each CronJob has to state the time zone of its schedule, and that "
        "zone must be Europe/London (written as Europe/London or GB). How many successful Jobs "
        "a CronJob keeps in its history is checked elsewhere."
    )
    (check,) = intent.checks
    assert isinstance(check, FieldValueCheck)
    assert set(check.allowed) == {"Europe/London", "GB"} and check.must_be_set
    objects = [
        _cron("no-zone"),
        _cron("berlin", timeZone="Europe/Berlin"),
        _cron("london", timeZone="Europe/London"),
        _cron("alias", timeZone="GB"),
        _cron("history-only", timeZone="GB", successfulJobsHistoryLimit=50),
    ]
    assert_every_class(intent, objects, {"no-zone", "berlin"})


def _pod(name: str, **spec: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "batch"},
            "spec": {"containers": [{"name": "c", "image": "registry.example/c:1"}], **spec}}  # fmt: skip


def test_a_quoted_lowercase_value_is_the_value_the_field_must_hold() -> None:
    intent = intent_of("Every pod has to set `spec.schedulerName` to `bin-packer`.")
    objects = [
        _pod("default-scheduler"),
        _pod("other", schedulerName="spread-out"),
        _pod("packed", schedulerName="bin-packer"),
    ]
    assert_every_class(intent, objects, {"default-scheduler", "other"})
