"""A claimed usage past any real spend never costs the run its results.

``usage.json`` counts had no upper bound and the results document's writer (orjson) holds at most
64-bit integers: one trial reporting 2**64 prompt tokens ended ``run`` with exit 3 and no
``results.json``, and every resume failed the same way. Now such a claim is refused as that
trial's usage error, and the writer itself never loses the document over one value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from itbench.scoring.document import ResultsDocument
from itbench.scoring.results import write_results_document
from tests._support.cli import run_cli

ANSWER = (
    "python3 -c \"import json; d=json.load(open('task.json')); "
    "json.dump({'sum': d['a']+d['b']}, open('answer.json','w'))\""
)


def _agent(second_trial_usage: str) -> str:
    """Answers right; trial 1 reports a plain usage, trial 2 ``second_trial_usage``."""
    return (
        f'{ANSWER}; case "$ITBENCH_WORKSPACE" in '
        f"*/2) echo '{second_trial_usage}' > usage.json;; "
        '*) echo \'{"prompt_tokens": 120, "cost_usd": 0.5}\' > usage.json;; esac'
    )


@pytest.mark.parametrize(
    ("claim", "words"),
    [
        (
            '{"prompt_tokens": 18446744073709551616}',
            "prompt_tokens must be an integer from 0 to 1,000,000,000,000, "
            "got 18446744073709551616",
        ),
        (
            '{"tool_calls": 1000000000001}',
            "tool_calls must be an integer from 0 to 1,000,000,000,000, got 1000000000001",
        ),
        ('{"cost_usd": 1e300}', "cost_usd must be a number from 0 to 1,000,000,000, got 1e+300"),
        (
            '{"completion_tokens": 1' + "0" * 300 + "}",
            "completion_tokens must be an integer from 0 to 1,000,000,000,000, got 1000",
        ),
    ],
    ids=["2**64-tokens", "a-trillion-and-one-tool-calls", "1e300-dollars", "301-digit-count"],
)
def test_a_claim_past_the_bound_is_that_trials_usage_error(
    toy_env: dict[str, str], tmp_path: Path, claim: str, words: str
) -> None:
    out = tmp_path / "run"
    args = ["toy", "run", "--scenarios", "add-1", "--trials", "2", "-j", "1", "--no-progress"]
    proc = run_cli([*args, "--agent-cmd", _agent(claim), "--output", str(out)], env=toy_env)
    assert proc.returncode == 0, proc.stderr
    assert f"add-1: usage.json: {words}" in proc.stderr
    first, second = json.loads((out / "results.json").read_text())["raw_results"]
    assert first["usage"]["prompt_tokens"] == 120 and first["usage"]["cost_usd"] == 0.5
    assert "usage" not in second  # refused, not recorded
    assert first["scores"] == second["scores"] == {"correct": 1.0}
    transcript = (out / "add-1" / "2" / "transcript.jsonl").read_text()
    assert "usage_rejected" in transcript


def test_the_writer_keeps_the_document_when_one_value_is_past_64_bits(tmp_path: Path) -> None:
    raw = [
        {"incident_id": "a", "trial_id": "1", "scores": {"correct": 1.0}},
        {
            "incident_id": "b",
            "trial_id": "1",
            "scores": {"correct": 0.0},
            "usage": {"prompt_tokens": 2**64 + 5, "completion_tokens": 7},
        },
    ]
    path = tmp_path / "results.json"
    write_results_document(ResultsDocument.build(raw, {"domain": "toy"}), path)
    written = json.loads(path.read_text())
    first, second = written["raw_results"]
    assert first["scores"] == {"correct": 1.0}
    # the value orjson cannot hold is kept as its decimal text; its neighbours as they were
    assert second["usage"] == {"prompt_tokens": str(2**64 + 5), "completion_tokens": 7}


def test_the_writer_keeps_the_document_when_a_detail_nests_past_its_limit(tmp_path: Path) -> None:
    deep: list = []
    inner = deep
    for _ in range(300):
        inner.append([])
        inner = inner[0]
    raw = [{"incident_id": "a", "trial_id": "1", "scores": {"correct": 1.0}, "trace": deep}]
    path = tmp_path / "results.json"
    write_results_document(ResultsDocument.build(raw, {"domain": "toy"}), path)
    (entry,) = json.loads(path.read_text())["raw_results"]
    assert entry["scores"] == {"correct": 1.0}
    assert "[[[" in json.dumps(entry["trace"])
