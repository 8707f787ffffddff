"""Kubernetes bounds written the way people say them: a duration in words ("a quarter of a
minute", "two minutes"), and kinds a sentence leaves out ("Deployments are not judged"), read
through the rendered policies of all three classes. Every text and object here is written for
this test."""

from __future__ import annotations

from typing import Any

import pytest

from ciso.agents.baseline.knowledge.number_words import as_digits
from tests._support.ciso_baseline import assert_every_class, intent_of


def _controller(kind: str, name: str, **spec: Any) -> dict[str, Any]:
    pod = {
        "metadata": {"labels": {"app": name}},
        "spec": {"containers": [{"name": "app", "image": "registry.example/app:4.1"}]},
    }
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": {"name": name, "namespace": "ops"},
            "spec": {"selector": {"matchLabels": {"app": name}}, "template": pod, **spec}}  # fmt: skip


@pytest.mark.parametrize(
    ("words", "digits"),
    [
        ("at least half a minute", "at least 30 seconds"),
        ("within a quarter of an hour", "within 15 minutes"),
        ("no more than three quarters of an hour", "no more than 45 minutes"),
        ("at most twenty-two replicas", "at most 22 replicas"),
        ("within a day", "within 1 day"),
        ("three hundred and five", "305"),
    ],
)
def test_numbers_in_words_become_digits(words: str, digits: str) -> None:
    assert as_digits(words) == digits


def test_a_dwell_in_words_bounds_only_the_kinds_the_text_judges() -> None:
    intent = intent_of(
        "Before a rolling DaemonSet or StatefulSet moves on, each replacement pod has to be "
        "ready for at least a quarter of a minute without interruption. Unset means no wait "
        "at all. Deployments are not judged."
    )
    objects = [
        _controller("DaemonSet", "unset"),
        _controller("StatefulSet", "short", minReadySeconds=14),
        _controller("StatefulSet", "exact", minReadySeconds=15),
        _controller("DaemonSet", "long", minReadySeconds=90),
        _controller("Deployment", "not-judged"),
    ]
    assert_every_class(intent, objects, {"unset", "short"})


def test_a_deadline_in_words_is_read_in_seconds() -> None:
    intent = intent_of(
        "A Deployment whose rollout makes no progress must be reported as stalled after no more "
        "than two minutes."
    )
    objects = [
        _controller("Deployment", "default"),
        _controller("Deployment", "late", progressDeadlineSeconds=121),
        _controller("Deployment", "on-time", progressDeadlineSeconds=120),
    ]
    assert_every_class(intent, objects, {"default", "late"})


def _job(kind: str, name: str, **job: Any) -> dict[str, Any]:
    pod = {"spec": {"containers": [{"name": "w", "image": "registry.example/w:2"}],
                    "restartPolicy": "Never"}}  # fmt: skip
    body = {**job, "template": pod}
    spec = body if kind == "Job" else {"schedule": "0 * * * *", "jobTemplate": {"spec": body}}
    return {"apiVersion": "batch/v1", "kind": kind,
            "metadata": {"name": name, "namespace": "ops"}, "spec": spec}  # fmt: skip


def test_pods_of_one_job_at_once_is_its_parallelism_not_a_cron_overlap() -> None:
    intent = intent_of(
        "A batch Job may keep at most twelve worker pods going simultaneously, Jobs made from a "
        "CronJob's template included; leaving it unsaid means a single pod."
    )
    objects = [
        _job("Job", "wide", parallelism=13),
        _job("Job", "twelve", parallelism=12),
        _job("Job", "unsaid", completions=40),
        _job("CronJob", "cron-wide", parallelism=30),
        _job("CronJob", "cron-narrow", parallelism=2),
    ]
    assert_every_class(intent, objects, {"wide", "cron-wide"})
