"""``ciso.engines.kyverno.bulk`` as a library: the batches of a bulk apply evaluated in worker
processes, without the command line, give what one process gives, in input order; an error in a
worker reaches the caller as itself; no worker outlives the call."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import pytest

from ciso.engines.kyverno import bulk
from ciso.engines.kyverno.engine import Context
from itbench.cluster.manifests import StderrProgress
from itbench.errors import InputError

POLICY: dict[str, Any] = {
    "apiVersion": "kyverno.io/v1",
    "kind": "ClusterPolicy",
    "metadata": {"name": "no-host-network"},
    "spec": {
        "rules": [
            {
                "name": "check",
                "match": {"any": [{"resources": {"kinds": ["Pod"]}}]},
                "validate": {
                    "message": "hostNetwork is not allowed",
                    "pattern": {"spec": {"=(hostNetwork)": "false"}},
                },
            }
        ]
    },
}


def _pods(count: int) -> list[dict[str, Any]]:
    return [
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": f"p{i}", "namespace": "default"},
            "spec": {"hostNetwork": i % 3 == 0, "containers": [{"name": "c", "image": "x"}]},
        }
        for i in range(count)
    ]


def _job(fmt: str = "table") -> bulk.BulkApply:
    return bulk.BulkApply([POLICY], Context(), {"ClusterPolicy/no-host-network": "p.yaml"}, fmt)


@pytest.mark.parametrize("fmt", ["table", "json", "yaml"])
def test_batches_in_workers_come_back_as_one_process_renders_them_in_order(
    monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    pods = _pods(50)
    pieces = list(bulk.batches(pods, 4))  # 13 batches, the last one short
    assert [len(p) for p in pieces] == [4] * 12 + [2]
    monkeypatch.setattr(bulk, "worker_count", lambda: 1)
    alone = list(bulk.evaluated(_job(fmt), pieces))
    monkeypatch.setattr(bulk, "worker_count", lambda: 3)
    pooled = list(bulk.evaluated(_job(fmt), pieces))
    assert pooled == alone
    # per batch: four pods each, p0, p3, ... fail
    for number, rendered in enumerate(pooled):
        names = [f"p{i}" for i in range(4 * number, min(4 * number + 4, 50))]
        assert rendered.resources == len(names) == rendered.results
        assert rendered.failing == sum(1 for n in names if int(n[1:]) % 3 == 0)
        for name in names:
            assert name in rendered.text
    assert not multiprocessing.active_children()  # the workers ended with the call


def test_a_range_error_in_a_worker_reaches_the_caller_as_an_input_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    good = "".join(
        f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\nspec: {{containers: []}}\n"
        for i in range(30)
    )
    manifest = tmp_path / "pods.yaml"
    manifest.write_text(good + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: [unclosed\n")
    monkeypatch.setattr(bulk, "worker_count", lambda: 2)
    monkeypatch.setattr(bulk, "BATCH", 10)
    monkeypatch.setattr(bulk, "SPLIT_BYTES", 1)  # cut even this small file
    ranges = bulk.file_ranges([manifest])
    assert ranges is not None and [r[3] for r in ranges] == [10, 10, 10, 1]
    tally = bulk.Tally()
    evaluated = bulk.evaluate_resources(_job(), [manifest], iter(()), tally, StderrProgress())
    with pytest.raises(InputError, match=r"pods\.yaml"):
        list(evaluated)
    assert tally.count == 30  # the three good ranges were read before the bad one
    assert not multiprocessing.active_children()


def test_a_caller_that_stops_reading_leaves_no_worker_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bulk, "worker_count", lambda: 2)
    evaluated = bulk.evaluated(_job(), list(bulk.batches(_pods(40), 2)))
    first = next(evaluated)
    assert first.resources == 2 and "p0" in first.text
    assert len(multiprocessing.active_children()) == 2
    evaluated.close()
    assert not multiprocessing.active_children()
