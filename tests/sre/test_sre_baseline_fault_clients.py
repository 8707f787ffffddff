"""A fault injected on a dependency (a Chaos Mesh experiment picking a datastore's pods) shows on
the datastore's own error lines and on its clients', whose lines need not name it. The clients
are found by the datastore's host in their workload's environment or by the datastore's error
text repeated in their lines; the experiment then acts on them and outranks a routine rollout
of one client made just before it."""

from __future__ import annotations

from datetime import datetime, timedelta

from sre.agents.baseline.evidence import CallPath, Change, Evidence, PodLabels, Symptom
from sre.agents.baseline.fault_clients import clients_of_faults, dependencies
from sre.agents.baseline.rank import rank
from sre.agents.baseline.report import build
from sre.agents.baseline.states.objects import ObjectView

START = datetime(2026, 6, 2, 9, 0)
ROLLOUT = START + timedelta(minutes=10)
FAULT = START + timedelta(minutes=12)
ERRORS = START + timedelta(minutes=14)
DB_POD = "ledger-db-5f6c7d8b9-q2wxz"


def _rollout(app: str) -> Change:
    path = "spec.template.spec.containers[0].image"
    return Change(namespace="bank", kind="Deployment", name=app, time=ROLLOUT,
                  change="modified", paths=(path,), spec={},
                  values=((path, f"registry/{app}:2.0.0", f"registry/{app}:2.0.1"),))  # fmt: skip


#: a Schedule creating a disk fault on the datastore's one pod, every five minutes
SCHEDULE = Change(namespace="chaos-testing", kind="Schedule", name="ledger-disk-drill",
                  time=FAULT, change="created", paths=(), values=(),
                  spec={"schedule": "*/5 * * * *", "type": "IOChaos",
                        "ioChaos": {"action": "fault", "errno": 5, "percent": 50,
                                    "selector": {"pods": {"bank": [DB_POD]}}}})  # fmt: skip
PODS = (PodLabels("bank", DB_POD, "ledger-db", {"app": "ledger-db"}, "node-a"),
        PodLabels("bank", "transfers-6b7c8-kkq9d", "transfers", {"app": "transfers"}, "node-b"))  # fmt: skip


def _picks(change: Change) -> frozenset[str]:
    return frozenset({"ledger-db"}) if change.kind == "Schedule" else frozenset()


def _workload(name: str, env: dict[str, str]) -> tuple[datetime, dict]:
    container = {"name": name, "env": [{"name": k, "value": v} for k, v in env.items()]}
    return START, {"kind": "Deployment", "metadata": {"namespace": "bank", "name": name},
                   "spec": {"template": {"spec": {"containers": [container]}}}}  # fmt: skip


DB_ERROR = "ERROR: could not read block 7 in file base/16384/2619: Input/output error"
#: (client's environment, the error line it writes after the fault): it names the datastore as
#: its host, or repeats the datastore's own error, and never names it in the line
CASES = (
    ({"LEDGER_DSN": "postgres://app@ledger-db:5432/ledger"}, "transfer 8812 aborted: I/O error"),
    ({"STORE_URL": "http://cache:6379"}, "Npgsql: could not read block 7 in file base/16384/2619"),
)


def _lines(client_line: str) -> list[tuple[str, datetime, str]]:
    return [
        ("transfers", START + timedelta(minutes=1), "slow request while warming up"),
        ("ledger-db", ERRORS, DB_ERROR),
        ("transfers", ERRORS, client_line),
    ]


def _evidence(env: dict[str, str], client_line: str) -> Evidence:
    view = ObjectView.of([_workload("transfers", env), _workload("ledger-db", {})])
    depends_on = dependencies(view, {"transfers", "ledger-db", "cache"})
    failing = CallPath(services=("web", "transfers"), severity="CRITICAL", suspect="transfers",
                       reason="error rate 0.0% -> 40.0%", sample_errors=())  # fmt: skip
    changes = (_rollout("transfers"), SCHEDULE)
    return Evidence(
        changes=changes, warnings=(), alerts=(), onset=ERRORS + timedelta(minutes=2),
        paths=(failing,), pods=PODS,
        symptoms=(Symptom("transfers", ERRORS, "ERROR log lines 0% -> 70%", logs=True),),
        fault_clients=clients_of_faults(changes, _picks, depends_on, _lines(client_line)),
    )  # fmt: skip


def test_a_fault_on_a_failing_dependency_outranks_a_client_rollout():
    for env, line in CASES:
        evidence = _evidence(env, line)
        assert evidence.fault_clients == {SCHEDULE.entity: frozenset({"transfers"})}, line
        assert rank(evidence)[0].change.entity == SCHEDULE.entity, line
    # a client that neither names the datastore nor repeats its error: its rollout stays first
    evidence = _evidence({"STORE_URL": "http://cache:6379"}, "transfer 8812 aborted")
    assert evidence.fault_clients == {}
    assert rank(evidence)[0].change.entity == "bank/Deployment/transfers"


def test_the_chain_starts_at_the_faulted_dependency_not_at_its_clients():
    """The clients fail through the dependency: the experiment's first hop is the dependency it
    picks, even where the trace tree blames only a client."""
    for env, line in CASES:
        evidence = _evidence(env, line)
        first = build(evidence, rank(evidence)).propagations[0]
        assert first["source"] == SCHEDULE.entity, line
        assert first["target"].endswith("/Service/ledger-db"), line


def test_the_dependency_must_fail_under_the_fault():
    env, line = CASES[0]
    depends_on = {"transfers": frozenset({"ledger-db"})}
    # the datastore wrote its error lines before the fault as much as after: not its doing
    steady = _lines(line) + [("ledger-db", START + timedelta(minutes=2), DB_ERROR)]
    assert clients_of_faults([SCHEDULE], _picks, depends_on, steady) == {}
    # a routine rollout of the datastore is no fault injected on it
    assert clients_of_faults([_rollout("ledger-db")], _picks, depends_on, _lines(line)) == {}


def test_a_client_names_its_dependency_as_a_whole_host():
    view = ObjectView.of([
        _workload("transfers", {"LEDGER_DSN": "postgres://app@ledger-db:5432/ledger"}),
        _workload("reports", {"UI": "http://ledger-db-ui:8080"}),
    ])  # fmt: skip
    assert dependencies(view, {"ledger-db", "transfers", "reports"}) == {
        "transfers": frozenset({"ledger-db"})
    }
