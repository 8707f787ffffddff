"""A setting changed on a dependency's own workload (a datastore's server argument, a cache's
memory cap) shows on its clients, not on itself: their error lines name the server or the
setting. The baseline reads those lines: the change acts on the clients whose errors name it,
and outranks a routine rollout of a client made just before. Also: logs written in the Elastic
Common Schema (Filebeat) keep their service's name and level."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from sre.agents.baseline.dependency_clients import clients_naming, setting_names
from sre.agents.baseline.evidence import CallPath, Change, Evidence, Symptom
from sre.agents.baseline.rank import rank
from sre.snapshot import SourceKind, open_source

START = datetime(2026, 5, 6, 14, 0)
ROLLOUT = START + timedelta(minutes=10)
EDIT = START + timedelta(minutes=12)
ERRORS = START + timedelta(minutes=14)


def _rollout(app: str) -> Change:
    path = "spec.template.spec.containers[0].image"
    return Change(namespace="store", kind="Deployment", name=app, time=ROLLOUT,
                  change="modified", paths=(path,), spec={},
                  values=((path, f"registry/{app}:1.4.0", f"registry/{app}:1.4.1"),))  # fmt: skip


def _setting(app: str, path: str, new: object, spec: dict | None = None) -> Change:
    return Change(namespace="store", kind="Deployment", name=app, time=EDIT, change="modified",
                  paths=(path,), spec=spec or {}, values=((path, None, new),))  # fmt: skip


#: (datastore's change, the error line its client wrote after it): the client's line names the
#: server it reaches, or only the setting that refused it
CASES = (
    (
        _setting(
            "orders-db", "spec.template.spec.containers[0].args", ["-c", "statement_timeout=20ms"]
        ),  # fmt: skip
        "lookup failed: could not reach host orders-db:5432: canceling statement",
    ),
    (
        _setting(
            "session-cache", "spec.template.spec.containers[0].args", ["--maxclients", "2"]
        ),  # fmt: skip
        "ERR max number of clients reached (maxclients)",
    ),
    (
        _setting(
            "orders-db",
            "spec.template.spec.containers[0].env[1].value",
            "3",
            spec={
                "template": {
                    "spec": {
                        "containers": [
                            {
                                "name": "db",
                                "env": [
                                    {"name": "DB_USER", "value": "app"},
                                    {"name": "DB_MAX_CONNECTIONS", "value": "3"},
                                ],
                            }
                        ]
                    }
                }
            },
        ),  # fmt: skip
        "pool exhausted: server refused, DB_MAX_CONNECTIONS reached",
    ),
)


def _evidence(change: Change, client: str, line: str) -> Evidence:
    lines = [
        (client, START + timedelta(minutes=1), "timeout talking to orders-db while warming up"),
        (client, ERRORS, line),
        (change.name, ERRORS, f"{client} disconnected"),  # the dependency's own line
    ]
    failing = CallPath(services=("web", "api-gateway", client), severity="CRITICAL",
                       suspect=client, reason="error rate 0.0% -> 60.0%",
                       sample_errors=())  # fmt: skip
    return Evidence(
        changes=(_rollout(client), change), warnings=(), alerts=(),
        onset=ERRORS + timedelta(minutes=2), paths=(failing,),
        symptoms=(Symptom(client, ERRORS, "ERROR log lines 0% -> 80%", logs=True),),
        named_by=clients_naming((_rollout(client), change), lines),
    )  # fmt: skip


def test_a_dependency_setting_named_by_its_clients_errors_outranks_a_client_rollout():
    for change, line in CASES:
        evidence = _evidence(change, "checkout", line)
        assert evidence.named_by == {change.entity: frozenset({"checkout"})}, line
        assert rank(evidence)[0].change.entity == change.entity, line
    # errors that name neither the dependency nor its setting leave the client's rollout first
    for change, _ in CASES:
        evidence = _evidence(change, "checkout", "index out of range in ReviewRenderer")
        assert evidence.named_by == {}
        assert rank(evidence)[0].change.entity == "store/Deployment/checkout"


def test_only_lines_after_the_change_and_only_setting_changes_count():
    change, line = CASES[0]
    before = [("checkout", EDIT - timedelta(minutes=5), line)]
    assert clients_naming([change], before) == {}
    # an image bump of the datastore is a rollout: its clients' errors say nothing of a setting
    assert clients_naming([_rollout("orders-db")], [("checkout", ERRORS, line)]) == {}


def test_the_settings_a_change_set_are_its_option_and_variable_names():
    assert setting_names(CASES[0][0]) == {"statement_timeout"}
    assert setting_names(CASES[1][0]) == {"maxclients"}
    assert setting_names(CASES[2][0]) == {"DB_MAX_CONNECTIONS"}


def _verbosity_edit(namespace: str) -> Change:
    """A ConfigMap whose only edit re-values its server's log verbosity."""
    old = "listen:\n  port: 8443\nlogging:\n  level: warn\n"
    return Change(namespace=namespace, kind="ConfigMap", name="reports-ui-config", time=EDIT,
                  change="modified", paths=("data.server.yaml",), spec={},
                  values=(("data.server.yaml", old, old.replace("warn", "trace")),))  # fmt: skip


#: a client's structured error lines: ``level`` is each line's own field, not the edited setting
STRUCTURED = (
    'level=error msg="nil pointer in BasketTotals" trace_id=4f1c',
    '{"level":"error","msg":"nil pointer in BasketTotals"}',
    '{"ts": "2026-05-06T14:14:00Z", "level" : "error", "msg": "nil pointer in BasketTotals"}',
)


def test_a_log_field_key_does_not_name_a_setting_of_that_name():
    for namespace in ("store", "prometheus"):  # an application's and a platform namespace
        edit = _verbosity_edit(namespace)
        for line in STRUCTURED:
            changes = (_rollout("checkout"), edit)
            named = clients_naming(changes, [("checkout", ERRORS, line)], {"checkout"})
            assert named == {}, (namespace, line)
            failing = CallPath(services=("web", "checkout"), severity="CRITICAL", suspect="checkout",
                               reason="error rate 0.0% -> 55.0%", sample_errors=())  # fmt: skip
            evidence = Evidence(
                changes=changes, warnings=(), alerts=(), onset=ERRORS + timedelta(minutes=2),
                paths=(failing,), named_by=named,
                symptoms=(Symptom("checkout", ERRORS, "ERROR log lines 0% -> 70%", logs=True),),
            )  # fmt: skip
            assert rank(evidence)[0].change.entity == "store/Deployment/checkout", (namespace, line)
    # the same word quoted by the error's own text still names it
    quoted = [("checkout", ERRORS, 'level=error msg="config reload: unknown level trace"')]
    assert clients_naming((_verbosity_edit("store"),), quoted) == {
        "store/ConfigMap/reports-ui-config": {"checkout"}
    }


def test_elastic_common_schema_logs_keep_their_service_and_level(
    private_cache: Path, tmp_path: Path
):
    def record(second: int, service: str, level: str, message: str) -> str:
        return json.dumps({
            "@timestamp": f"2026-05-06T14:00:{second:02d}.000Z",
            "log": {"level": level, "logger": service}, "message": message,
            "service": {"name": service, "environment": "prod"},
            "kubernetes": {"namespace": "store", "pod": {"name": f"{service}-6d5f7-abcde"}},
        })  # fmt: skip

    logs = tmp_path / "filebeat_logs.ndjson"
    logs.write_text("\n".join([
        record(1, "checkout", "info", "order placed"),
        record(2, "checkout", "error", "could not reach host orders-db"),
        record(3, "payment", "warn", "retrying charge"),
    ]) + "\n")  # fmt: skip
    rows = (
        open_source(logs, SourceKind.LOGS)
        .con.execute("SELECT service_name, severity_text, severity_number FROM data ORDER BY ts")
        .fetchall()
    )
    assert [tuple(r) for r in rows] == [
        ("checkout", "INFO", 9), ("checkout", "ERROR", 17), ("payment", "WARN", 13),
    ]  # fmt: skip
