"""A CronJob made to run every minute with its runs allowed to overlap: its jobs pile up on the
database a service shares with them, and that service's queries begin to time out minutes later.
Nothing but time ties the CronJob to the failing service (no selector, no Service, no name): its
jobs' pods (``<cronjob>-<run>-<suffix>``) log while the service's errors begin. The CronJob acts
on the applications whose symptoms began after its change while its jobs ran (``batch_load``),
and outranks a rollout of another service made just before the errors began."""

from __future__ import annotations

from datetime import datetime

from sre.agents.baseline import diagnose
from sre.agents.baseline.evidence import Change, Symptom
from tests._support.sre_incident_files import clock, deployment, stamp, write_incident, write_rows

T0 = datetime(2026, 9, 10, 2, 0)
NS = "books"
LOG_HEADER = "Timestamp\tSeverityText\tSeverityNumber\tServiceName\tBody\tResourceAttributes\n"
_at = clock(T0)


def _cronjob(schedule: str, overlap: str, written: float) -> dict:
    return {"apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": "ledger-compaction", "namespace": NS,
                         "managedFields": [{"manager": "kubectl",
                                            "time": stamp(_at(written))}]},
            "spec": {"schedule": schedule, "concurrencyPolicy": overlap,
                     "jobTemplate": {"spec": {"template": {"spec": {
                         "restartPolicy": "Never",
                         "containers": [{"name": "compact", "image": "registry.example/ledger:9",
                                         "env": [{"name": "DB_HOST", "value": "ledger-db"}]}]}}}}},
            }  # fmt: skip


def _deployment(name: str, image: str) -> dict:
    return deployment(NS, name, {"containers": [{"name": name, "image": image}]})


def _objects() -> list[tuple[datetime, dict]]:
    out = []
    for minute in range(0, 41, 5):
        moved = minute >= 15
        out.append(
            (
                _at(minute),
                _cronjob(
                    "*/1 * * * *" if moved else "0 3 * * *",
                    "Allow" if moved else "Forbid",
                    12 if moved else -900,
                ),
            )
        )
        out.append((_at(minute), _deployment("payments", "registry.example/payments:5")))
        # a routine rollout of another service, observed just before the errors began
        search = "registry.example/search:12" if minute >= 20 else "registry.example/search:11"
        out.append((_at(minute), _deployment("search", search)))
    return out  # fmt: skip


def _line(at: datetime, level: str, service: str, body: str, pod: str) -> str:
    number = {"INFO": 9, "ERROR": 17}[level]
    resource = f"{{'k8s.pod.name': '{pod}', 'k8s.namespace.name': '{NS}'}}"
    return f"{at:%Y-%m-%dT%H:%M:%S}Z\t{level}\t{number}\t{service}\t{body}\t{resource}\n"


def _logs() -> str:
    lines = []
    for tick in range(0, 40 * 6):  # every ten seconds for forty minutes
        at = _at(tick / 6)
        failing = at >= _at(21) and tick % 5 != 0
        lines.append(_line(at, "ERROR" if failing else "INFO", "payments",
                           "settle batch: canceling statement due to lock timeout" if failing
                           else "settled batch", "payments-5f6d7c8b9-x2k4q"))  # fmt: skip
    for minute in range(13, 40):  # a compaction job each minute once the schedule changed
        pod = f"ledger-compaction-{29100000 + minute}-{'abcde'[minute % 5]}{minute:02d}zz"
        lines.append(_line(_at(minute + 0.05), "INFO", "ledger",
                           "compacting ledger partitions", pod))  # fmt: skip
    lines.sort()
    return LOG_HEADER + "".join(lines)


def test_a_cronjob_whose_jobs_pile_up_is_the_cause_of_the_errors_that_begin_while_they_run(
    tmp_path,
):
    snapshot = write_incident(tmp_path / "incident", _objects(), [], [], _at(40))
    (snapshot / "otel_logs_raw.tsv").write_text(_logs())
    diagnosis = diagnose(snapshot)
    named = [e["name"] for e in diagnosis.entities if e["contributing_factor"]]
    assert named == [f"{NS}/CronJob/ledger-compaction"], diagnosis.entities
    assert "payments" in diagnosis.entities[0]["reasoning"]


def _change(paths: tuple[str, ...], change: str = "modified") -> Change:
    return Change(namespace=NS, kind="CronJob", name="ledger-compaction", time=_at(15),
                  change=change, paths=paths, spec={}, since=_at(10))  # fmt: skip


def test_only_a_change_of_how_much_it_runs_acts_through_its_jobs():
    from sre.agents.baseline import batch_load

    runs = {f"{NS}/CronJob/ledger-compaction": (_at(16), _at(39))}
    began = [Symptom("payments", _at(21), "ERROR log lines 0% -> 80%", logs=True),
             Symptom("search", _at(5), "latency", logs=False)]  # fmt: skip
    assert batch_load.hit(_change(("spec.schedule",)), runs, began) == {"payments"}
    assert batch_load.hit(_change((), "created"), runs, began) == {"payments"}
    # a new image for its jobs changes nothing of how much they run at once
    image = ("spec.jobTemplate.spec.template.spec.containers[0].image",)
    assert batch_load.hit(_change(image), runs, began) == frozenset()
    # no job seen after the change: nothing ties it to the errors
    assert batch_load.hit(_change(("spec.schedule",)), {}, began) == frozenset()


def test_its_runs_are_read_off_its_jobs_pod_names(tmp_path):
    from sre.agents.baseline import batch_load

    logs = tmp_path / "otel_logs_raw.tsv"
    logs.write_text(_logs())
    objects = write_rows(tmp_path / "k8s_objects_raw.tsv", _objects())
    got = batch_load.runs(logs, objects, [_change(("spec.schedule",))])
    first, last = got[f"{NS}/CronJob/ledger-compaction"]
    assert (first, last) == (_at(13.05), _at(39.05))


def test_an_object_of_another_kind_named_like_a_run_is_no_run(tmp_path):
    """Only the CronJob's Jobs and their pods date its runs: a ConfigMap whose name has the
    run's shape (``<cronjob>-<number>``), observed long after, does not stretch them."""
    from sre.agents.baseline import batch_load

    def obj(kind: str, name: str) -> dict:
        return {"apiVersion": "v1", "kind": kind, "metadata": {"name": name, "namespace": NS}}

    rows = [
        (_at(16), obj("Job", "ledger-compaction-29100016")),
        (_at(17), obj("Pod", "ledger-compaction-29100016-q7w2e")),
        (_at(22), obj("Job", "ledger-compaction-29100016")),
        (_at(18), obj("ConfigMap", "ledger-compaction-2")),
        (_at(38), obj("ConfigMap", "ledger-compaction-2")),
    ]
    objects = write_rows(tmp_path / "k8s_objects_raw.tsv", sorted(rows, key=lambda r: r[0]))
    got = batch_load.runs(tmp_path / "no_logs.tsv", objects, [_change(("spec.schedule",))])
    assert got == {f"{NS}/CronJob/ledger-compaction": (_at(16), _at(22))}
