"""Small snapshots of our own writing, each holding one way an exporter writes its rows that the
original tools read differently from a plain reading, and one call on each recorded with the
original ITBench-SRE-Agent tools (``cases/<name>.json``; made as ``README.md`` says, with
``python tests/sre/contract/cases.py --original DIR --original-python PY``). Only the recordings
are kept, never the original code. ``test_sre_tool_contract_cases.py`` makes the same calls on the
same snapshots with our tools."""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RECORDED = HERE / "cases"

_OBJECT_HEADER = "Timestamp\tBody"
_TRACE_HEADER = [
    "Timestamp", "TraceId", "SpanId", "ParentSpanId", "SpanName", "SpanKind", "ServiceName",
    "ResourceAttributes", "SpanAttributes", "Duration", "StatusCode", "StatusMessage",
]  # fmt: skip
_LOG_HEADER = [
    "Timestamp", "TraceId", "SpanId", "SeverityText", "SeverityNumber", "ServiceName", "Body",
    "ResourceAttributes", "LogAttributes",
]  # fmt: skip


def _manifest(kind: str, name: str, version: int, **meta: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "apiVersion": "apps/v1" if kind == "Deployment" else "v1",
        "kind": kind,
        "metadata": {"name": name, "namespace": "bank", "resourceVersion": str(version), **meta},
    }
    body["spec"] = {"replicas": 2} if kind == "Deployment" else {"ports": [{"port": 8080}]}
    return body


def _plain(body: dict[str, Any]) -> str:
    """A body as a ClickHouse export writes it: the JSON text, unquoted."""
    return json.dumps(body)


def _as_json_string(body: dict[str, Any]) -> str:
    """A body exported as a JSON string holding the object (``"{\\"kind\\": ...}"``) and then
    CSV-quoted, as some log pipelines write a body they received already encoded."""
    text = json.dumps(json.dumps(body))
    return '"' + text.replace('"', '""') + '"'


def _objects(folder: Path, rows: list[tuple[str, str]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [_OBJECT_HEADER, *(f"{ts}\t{body}" for ts, body in rows)]
    (folder / "k8s_objects_raw.tsv").write_text("\n".join(lines) + "\n")


def one_readable_of_two(folder: Path) -> None:
    """The Deployment ``ledger`` written plainly, the Service ``ledger`` as a JSON string."""
    _objects(folder, [
        ("2026-04-02 10:00:00", _plain(_manifest("Deployment", "ledger", 11))),
        ("2026-04-02 10:00:00", _as_json_string(_manifest("Service", "ledger", 12))),
        ("2026-04-02 10:05:00", _plain(_manifest("Deployment", "ledger", 11))),
        ("2026-04-02 10:05:00", _as_json_string(_manifest("Service", "ledger", 12))),
    ])  # fmt: skip


def exact_one_unreadable(folder: Path) -> None:
    """The Service ``teller`` written as a JSON string, two Deployments whose names hold
    ``teller`` written plainly."""
    _objects(folder, [
        ("2026-04-02 10:00:00", _as_json_string(_manifest("Service", "teller", 21))),
        ("2026-04-02 10:00:00", _plain(_manifest("Deployment", "teller", 22))),
        ("2026-04-02 10:00:00", _plain(_manifest("Deployment", "teller-audit", 23))),
    ])  # fmt: skip


def deleted_once_before_window(folder: Path) -> None:
    """Two Pods still terminating inside the window, their deletionTimestamp before it: one
    observed once in the window, one twice; a Deployment observed before and in the window."""
    once = _manifest("Pod", "ledger-7c9d8-x2v4q", 31, deletionTimestamp="2026-04-02T10:20:00Z")
    twice = _manifest("Pod", "ledger-7c9d8-m5n6p", 33, deletionTimestamp="2026-04-02T10:20:00Z")
    _objects(folder, [
        ("2026-04-02 10:00:00", _plain(_manifest("Deployment", "ledger", 32))),
        ("2026-04-02 10:40:00", _plain(once)),
        ("2026-04-02 10:40:00", _plain(twice)),
        ("2026-04-02 10:50:00", _plain(twice)),
        ("2026-04-02 11:00:00", _plain(_manifest("Deployment", "ledger", 32))),
    ])  # fmt: skip


def watch_deleted_secret(folder: Path) -> None:
    """A pull export (plain objects) with the watch events of a Secret mixed in: ADDED, then
    DELETED inside the window."""
    secret = {"apiVersion": "v1", "kind": "Secret",
              "metadata": {"name": "ledger-registry", "namespace": "bank", "resourceVersion": "41"},
              "type": "kubernetes.io/dockerconfigjson"}  # fmt: skip
    _objects(folder, [
        ("2026-04-02 10:00:00", _plain(_manifest("Deployment", "ledger", 42))),
        ("2026-04-02 10:00:00", _plain({"type": "ADDED", "object": secret})),
        ("2026-04-02 10:20:00", _plain({"type": "DELETED", "object": secret})),
        ("2026-04-02 10:30:00", _plain(_manifest("Deployment", "ledger", 42))),
    ])  # fmt: skip


def stack_traces_in_quoted_cells(folder: Path) -> None:
    """Logs written by a CSV writer that quotes only the cells that need it: a stack trace's
    line breaks inside a quoted Body, a JSON body's quotes doubled."""
    folder.mkdir(parents=True, exist_ok=True)
    attrs = json.dumps({"service.name": "teller", "k8s.namespace.name": "bank",
                        "k8s.pod.name": "teller-5b6c7-q9w8e"})  # fmt: skip
    rows = []
    for minute in range(4):
        rows.append([f"2026-04-02 10:{minute:02d}:10.000000000", "", "", "INFO", "9", "teller",
                     json.dumps({"msg": "balance read", "ok": True}), attrs, "{}"])  # fmt: skip
        rows.append([f"2026-04-02 10:{minute:02d}:20.000000000", "", "", "ERROR", "17", "teller",
                     "LedgerTimeout: no answer in 5s\n  at Teller.Read()\n  at Teller.Serve()",
                     attrs, "{}"])  # fmt: skip
    with (folder / "otel_logs_raw.tsv").open("w", newline="") as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerows([_LOG_HEADER, *rows])


def every_body_a_json_string(folder: Path) -> None:
    """A Deployment and a Service both named ``vault``, every body exported as a JSON string (the
    original reads no row of the file)."""
    _objects(folder, [
        ("2026-04-02 10:00:00", _as_json_string(_manifest("Deployment", "vault", 51))),
        ("2026-04-02 10:00:00", _as_json_string(_manifest("Service", "vault", 52))),
        ("2026-04-02 10:10:00", _as_json_string(_manifest("Deployment", "vault", 53))),
    ])  # fmt: skip


def side_call_beside_a_deeper_chain(folder: Path) -> None:
    """Traces (no topology file) where ``teller`` calls ``ledger``, which calls its database
    ``ledgerdb`` (named only as the client span's peer: the database writes no spans), and, beside
    that deeper chain, ``audit``. The original's chain of a trace is its longest run of span
    services (teller -> ledger): ``audit`` and ``ledgerdb`` are on none."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = []

    def span(at: int, trace: str, sid: str, parent: str, name: str, kind: str, service: str,
             attrs: dict[str, Any], ms: int) -> None:  # fmt: skip
        stamp = f"2026-04-02 10:{at // 60:02d}:{at % 60:02d}.{int(sid, 16) % 1000:03d}000000"
        resource = json.dumps({"service.name": service, "k8s.namespace.name": "bank"})
        rows.append([stamp, trace, sid, parent, name, kind, service, resource,
                     json.dumps(attrs), str(ms * 1_000_000), "Unset", ""])  # fmt: skip

    for n in range(24):
        at, trace = 30 * n, f"{n + 1:032x}"
        ids = [f"{n:08x}{i:08x}" for i in range(6)]
        span(at, trace, ids[0], "", "POST /transfer", "Server", "teller", {}, 40)
        span(at, trace, ids[1], ids[0], "ledger.Post", "Client", "teller",
             {"peer.service": "ledger"}, 30)  # fmt: skip
        span(at, trace, ids[2], ids[1], "ledger.Post", "Server", "ledger", {}, 28)
        span(at, trace, ids[3], ids[2], "INSERT entries", "Client", "ledger",
             {"peer.service": "ledgerdb", "db.system": "postgresql"}, 9)  # fmt: skip
        span(at, trace, ids[4], ids[0], "audit.Record", "Client", "teller",
             {"peer.service": "audit"}, 5)  # fmt: skip
        span(at, trace, ids[5], ids[4], "audit.Record", "Server", "audit", {}, 4)
    with (folder / "otel_traces_raw.tsv").open("w", newline="") as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerows([_TRACE_HEADER, *rows])


def logs_without_deployment_attribute(folder: Path) -> None:
    """The logs of the Deployment ``vault``'s pod with the pod and service names in their resource
    attributes but no ``k8s.deployment.name`` (the only one the original matches a Deployment by)."""
    folder.mkdir(parents=True, exist_ok=True)
    attrs = json.dumps({"service.name": "vault", "k8s.namespace.name": "bank",
                        "k8s.pod.name": "vault-6d8f9c7b5-k2j4m"})  # fmt: skip
    rows = [
        [f"2026-04-02 10:{minute:02d}:05.000000000", "", "", "INFO", "9", "vault",
         f"sealed key {minute} rotated", attrs, "{}"]
        for minute in range(6)
    ]  # fmt: skip
    with (folder / "otel_logs_raw.tsv").open("w", newline="") as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerows([_LOG_HEADER, *rows])


@dataclass(frozen=True)
class Case:
    name: str
    write: Callable[[Path], None]
    tool: str
    #: ``{snapshot}`` stands for the folder the case was written to
    args: dict[str, Any]


CASES = [
    Case("one-readable-of-two", one_readable_of_two, "get_k8_spec",
         {"k8s_objects_file": "{snapshot}/k8s_objects_raw.tsv", "k8_object_name": "ledger",
          "return_all_observations": True}),
    Case("exact-one-unreadable", exact_one_unreadable, "get_k8_spec",
         {"k8s_objects_file": "{snapshot}/k8s_objects_raw.tsv",
          "k8_object_name": "bank/Service/teller", "include_metadata": False}),
    Case("deleted-once-before-window", deleted_once_before_window, "k8s_spec_change_analysis",
         {"k8s_objects_file": "{snapshot}/k8s_objects_raw.tsv",
          "start_time": "2026-04-02T10:30:00Z", "end_time": "2026-04-02T11:30:00Z"}),
    Case("watch-deleted-secret", watch_deleted_secret, "k8s_spec_change_analysis",
         {"k8s_objects_file": "{snapshot}/k8s_objects_raw.tsv",
          "start_time": "2026-04-02T10:10:00Z", "end_time": "2026-04-02T10:40:00Z"}),
    Case("stack-traces-in-quoted-cells", stack_traces_in_quoted_cells, "log_analysis",
         {"logs_file": "{snapshot}/otel_logs_raw.tsv", "pattern_analysis": False, "limit": 0,
          "severity_filter": "ERROR"}),
    Case("several-objects-none-readable", every_body_a_json_string, "get_k8_spec",
         {"k8s_objects_file": "{snapshot}/k8s_objects_raw.tsv", "k8_object_name": "vault",
          "return_all_observations": True, "include_metadata": False}),
    Case("one-history-none-readable", every_body_a_json_string, "get_k8_spec",
         {"k8s_objects_file": "{snapshot}/k8s_objects_raw.tsv", "k8_object_name": "Service/vault",
          "return_all_observations": True}),
    Case("side-call-off-the-chain", side_call_beside_a_deeper_chain, "get_context_contract",
         {"k8_object": "bank/Deployment/audit", "snapshot_dir": "{snapshot}"}),
    Case("callee-without-spans", side_call_beside_a_deeper_chain, "get_context_contract",
         {"k8_object": "bank/Deployment/ledgerdb", "snapshot_dir": "{snapshot}"}),
    Case("service-on-the-chain", side_call_beside_a_deeper_chain, "get_context_contract",
         {"k8_object": "bank/Deployment/ledger", "snapshot_dir": "{snapshot}"}),
    Case("dependencies-without-topology-file", side_call_beside_a_deeper_chain,
         "get_context_contract",
         {"k8_object": "bank/Deployment/teller", "snapshot_dir": "{snapshot}", "page": 2,
          "deps_per_page": 1}),
    Case("deployment-logs-by-pod-only", logs_without_deployment_attribute, "log_analysis",
         {"logs_file": "{snapshot}/otel_logs_raw.tsv", "k8_object": "bank/Deployment/vault"}),
]  # fmt: skip


def filled(args: dict[str, Any], snapshot: Path) -> dict[str, Any]:
    return {k: v.replace("{snapshot}", str(snapshot)) if isinstance(v, str) else v
            for k, v in args.items()}  # fmt: skip


def recording(case: Case) -> dict[str, Any]:
    return json.loads((RECORDED / f"{case.name}.json").read_text())


#: run by the original's interpreter: argv = original folder, tool, args as JSON
_CALL = r"""
import asyncio, json, sys
sys.path.insert(0, sys.argv[1])
import sre_tools.offline_incident_analysis.tools as T
res = asyncio.run(getattr(T, "_" + sys.argv[2])(json.loads(sys.argv[3])))
text = "".join(getattr(r, "text", "") for r in res)
try:
    print(json.dumps({"kind": "json", "answer": json.loads(text)}))
except ValueError:
    print(json.dumps({"kind": "text", "answer": text}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--original", required=True, help="the original's source folder")
    parser.add_argument("--original-python", required=True, help="an interpreter with its deps")
    opts = parser.parse_args()
    RECORDED.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        for case in CASES:
            folder = Path(scratch) / case.name
            case.write(folder)
            args = filled(case.args, folder)
            proc = subprocess.run(
                [opts.original_python, "-c", _CALL, opts.original, case.tool, json.dumps(args)],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            answer = json.loads(proc.stdout)
            doc = {"case": case.name, "tool": case.tool, "args": case.args, **answer}
            # the scratch folder's path is the recorder's, not part of the answer
            text = json.dumps(doc, indent=1, sort_keys=True).replace(str(folder), "{snapshot}")
            (RECORDED / f"{case.name}.json").write_text(text + "\n")
            print(case.name, answer["kind"])


if __name__ == "__main__":
    main()
