"""The worker process behind pool.py: reads one JSON request per line, answers one per line.

Neither embedded engine can be interrupted in-process, so untrusted policies are evaluated here,
where the pool can kill us at the time limit; an address-space limit caps memory.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ciso.engines.rego.model import RegoError
from ciso.engines.rego.select import select_engine
from ciso.engines.rego.testing import run_tests


def handle(request: dict[str, Any]) -> dict[str, Any]:
    backend = select_engine(request.get("engine"), request.get("v0", False))
    modules = request.get("modules", {})
    op = request["op"]
    try:
        if op == "check":
            return {
                "ok": True,
                "diagnostics": [d.__dict__ for d in backend.check(modules)],
                "engine": backend.name,
                "version": backend.version,
                "not_checked": list(backend.not_checked),
            }
        if op == "eval":
            result = backend.evaluate(
                modules, request["query"], request.get("input"), request.get("data")
            )
            return {
                "ok": True,
                "defined": result.defined,
                "value": result.value if result.defined else None,
                "results": result.results,
                "engine": result.engine,
                "version": result.version,
                "not_checked": list(backend.not_checked),
            }
        if op == "test":
            native = getattr(backend, "test", None)
            if native is not None:  # the opa CLI: `opa test`, and `opa test --coverage`
                run = native(
                    modules, request.get("data"), request.get("run"), request.get("coverage")
                )
            else:
                run = run_tests(backend, modules, request.get("data"), request.get("run"))
            reply = {
                "ok": True,
                "engine": run.engine,
                "cases": [c.__dict__ for c in run.cases],
                "not_checked": list(backend.not_checked),
            }
            if request.get("coverage"):
                reply["coverage"] = run.coverage or _coverage(modules, run, request.get("data"))
            return reply
    except RegoError as exc:
        return {
            "ok": False,
            "diagnostics": [d.__dict__ for d in exc.diagnostics],
            "engine": backend.name,
        }
    return {
        "ok": False,
        "diagnostics": [
            {
                "file": "",
                "line": None,
                "column": None,
                "code": "worker_error",
                "message": f"unknown op {op!r}",
            }
        ],
    }


def _coverage(modules: dict[str, str], run, data: dict[str, Any] | None) -> dict[str, Any] | None:
    """Line coverage where the embedded OPA is available (regorus reports none here)."""
    from ciso.engines.rego.backends import opa_golib

    if not opa_golib.available():
        return None
    queries = [f"data.{c.package}.{c.name}" for c in run.cases if c.status != "skip"]
    return opa_golib.coverage(modules, queries, data)


def main() -> None:
    for line in sys.stdin:
        try:
            reply = handle(json.loads(line))
        except Exception as exc:  # a bug here must answer, not hang the caller
            reply = {
                "ok": False,
                "diagnostics": [
                    {
                        "file": "",
                        "line": None,
                        "column": None,
                        "code": "worker_error",
                        "message": f"{type(exc).__name__}: {exc}",
                    }
                ],
            }
        sys.stdout.write(json.dumps(reply, default=str) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
