"""The library API (``itbench.run_benchmark``, ``itbench.evaluate_outputs``, ``RunRequest``): a
run from Python writes what the command line writes, and ``docs/library.md``'s example runs."""

from __future__ import annotations

import dataclasses
import json
import pickle
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import itbench
from itbench.errors import UsageError
from itbench.plugins.spec import AgentOptions, Domain, SessionSettings
from itbench.scoring.document import ResultsDocument
from tests._support.cli import REPO, TOY_DIST, run_cli, run_example


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Domain]:
    """The toy third-party domain, imported in this process from its distribution."""
    monkeypatch.syspath_prepend(str(TOY_DIST))
    monkeypatch.setenv("TOY_SUITE_DIR", str(tmp_path / "toy-suite"))
    monkeypatch.delenv("ITBENCH_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    from itbench_toy import domain

    yield domain


def _scores(document: ResultsDocument) -> dict[tuple[str, str], object]:
    return {
        (r["incident_id"], r.get("trial_id", "")): r.get("scores") for r in document.raw_results
    }


def test_run_benchmark_writes_the_run_directory_the_cli_writes(toy, tmp_path, toy_env):
    request = itbench.RunRequest(domain="toy", trials=2, output_dir=tmp_path / "lib")
    document = itbench.run_benchmark(toy, request)

    # per trial: every scenario of the suite, both trials, the baseline's correct answer
    assert _scores(document) == {
        (f"add-{i}", str(n)): {"correct": 1.0} for i in (1, 2, 3) for n in (1, 2)
    }
    written = json.loads((tmp_path / "lib" / "results.json").read_text())
    assert written == json.loads(document.to_json_bytes())
    for i in (1, 2, 3):
        for n in (1, 2):
            assert (tmp_path / "lib" / f"add-{i}" / str(n) / "evaluation.json").is_file()

    # the CLI over the same request: the same document but for durations
    proc = run_cli(
        ["toy", "run", "--trials", "2", "--output", str(tmp_path / "cli"), "--format", "json"],
        env=toy_env,
    )
    assert proc.returncode == 0, proc.stderr
    cli = json.loads(proc.stdout)
    for doc in (cli, written):
        for row in doc["raw_results"]:
            row.pop("duration_s", None)
    assert cli["raw_results"] == written["raw_results"]
    assert cli["config"] == written["config"]
    assert cli["statistics"] == written["statistics"]


def test_run_benchmark_by_name_and_a_request_for_another_domain(toy, tmp_path):
    request = itbench.RunRequest(domain="toy", select=("add-2",), output_dir=tmp_path / "o")
    document = itbench.run_benchmark("toy", request)  # found through its entry point
    assert _scores(document) == {("add-2", "1"): {"correct": 1.0}}
    with pytest.raises(UsageError, match="the request is for domain 'toy', not 'finops'"):
        itbench.run_benchmark("finops", request)


def test_bad_requests_raise_before_any_trial(toy, tmp_path):
    out = tmp_path / "o"
    base = itbench.RunRequest(domain="toy", output_dir=out)
    with pytest.raises(UsageError, match="unknown agent 'nobody'"):
        itbench.run_benchmark(toy, dataclasses.replace(base, agent="nobody"))
    with pytest.raises(UsageError, match="--agent-cmd runs the 'command' agent"):
        itbench.run_benchmark(
            toy,
            dataclasses.replace(base, agent="oracle", agent_options=AgentOptions(agent_cmd="true")),
        )
    with pytest.raises(UsageError, match="the toy domain defines no metric for it"):
        itbench.run_benchmark(toy, dataclasses.replace(base, protocol="itbench-aa"))
    assert not out.exists()


def test_a_failed_trial_is_an_entry_with_its_error_not_an_exception(toy, tmp_path):
    request = itbench.RunRequest(
        domain="toy",
        select=("add-1",),
        agent_options=AgentOptions(agent_cmd="exit 7"),
        output_dir=tmp_path / "o",
    )
    document = itbench.run_benchmark(toy, request)
    (row,) = document.raw_results
    assert row["incident_id"] == "add-1"
    assert "exited with 7" in row["error"]
    assert not row.get("scores")


def test_run_request_is_frozen_and_pickles(tmp_path):
    request = itbench.RunRequest(
        domain="toy",
        select=("add-*",),
        agent_options=AgentOptions(model="m", agent_env=("KEY",)),
        output_dir=tmp_path,
        domain_options={"live_kubeconfig": tmp_path / "kc"},
    )
    assert pickle.loads(pickle.dumps(request)) == request
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.trials = 3  # type: ignore[misc]  # the point: it must refuse
    assert request.run_directory() == tmp_path.resolve()
    assert itbench.RunRequest(domain="toy").run_directory() == (Path("outputs") / "toy").resolve()


def test_evaluate_outputs_scores_a_run_directory(toy, tmp_path):
    run = itbench.run_benchmark(
        toy, itbench.RunRequest(domain="toy", agent="oracle", output_dir=tmp_path / "o")
    )
    # spoil one answer: eval must score what is on disk, not what the run recorded
    (tmp_path / "o" / "add-3" / "1" / "answer.json").write_text('{"sum": 0}')
    document = itbench.evaluate_outputs(toy, tmp_path / "o")
    assert _scores(run)[("add-3", "1")] == {"correct": 1.0}
    assert _scores(document) == {
        ("add-1", "1"): {"correct": 1.0},
        ("add-2", "1"): {"correct": 1.0},
        ("add-3", "1"): {"correct": 0.0},
    }
    assert (tmp_path / "o" / "eval-results.json").is_file()
    with pytest.raises(UsageError, match="eval does not replace a results document"):
        itbench.evaluate_outputs(toy, tmp_path / "o")


def _page_code(page: Path) -> str:
    blocks = re.findall(r"^```python\n(.*?)^```$", page.read_text(), re.DOTALL | re.MULTILINE)
    assert len(blocks) == 1, "docs/library.md shows one Python example"
    return blocks[0]


def _page_output(page: Path) -> str:
    text = page.read_text()
    after = text[text.index("It prints:") :]
    return re.search(r"```text\n(.*?)```", after, re.DOTALL).group(1)  # type: ignore[union-attr]  # the page has it


def test_the_library_page_example_runs_and_prints_what_the_page_shows(tmp_path):
    page = REPO / "docs" / "library.md"
    proc, work = run_example(_page_code(page), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == _page_output(page)
    assert (work / "runs" / "rescored.json").is_file()


def test_a_domain_without_a_session_factory_serves_runs_with_its_own_hooks(tmp_path):
    """The default session: the domain's evaluator and environment serve every run as they are;
    its settings still carry the options and, for a run (not on a Ray worker, not for eval),
    the run directory."""

    def evaluate(scenario: object, path: Path) -> dict[str, float]:
        return {}

    plain = Domain(name="plain", evaluate=evaluate)
    request = itbench.RunRequest(domain="plain", output_dir=tmp_path, domain_options={"k": 1})
    run = plain.open_run(request)
    assert run.evaluate is evaluate and run.trial_environment is None
    assert run.settings == SessionSettings({"k": 1}, tmp_path.resolve())
    assert plain.open_run(request, worker=True).settings == SessionSettings({"k": 1})
    assert plain.open_eval({"k": 2}).settings == SessionSettings({"k": 2})


def test_the_domain_has_no_configure_hook_left():
    """Run settings travel in the session only: ``Domain`` takes no ``configure`` callable that
    would keep them in module state."""
    with pytest.raises(TypeError, match="configure"):
        Domain(name="plain", configure=lambda options: None)  # type: ignore[call-arg]  # the removed field


def test_before_trials_runs_once_in_the_runner_before_its_workers(toy, tmp_path):
    """A session's ``before_trials`` is called once, in the runner's own process, with the
    selected scenarios, before any trial: what it builds there (a cache) the forked workers
    inherit instead of each building its own."""
    import os

    calls: list[tuple[int, list[str]]] = []

    def before(scenarios) -> None:
        calls.append((os.getpid(), sorted(s.id for s in scenarios)))

    session_of = toy.session

    def with_hook(domain: Domain, settings: SessionSettings):
        return dataclasses.replace(session_of(domain, settings), before_trials=before)

    hooked = dataclasses.replace(toy, session=with_hook)
    request = itbench.RunRequest(domain="toy", select=("add-2",), jobs=2, output_dir=tmp_path / "o")
    document = itbench.run_benchmark(hooked, request)
    assert calls == [(os.getpid(), ["add-2"])]
    assert document.raw_results and all(r.get("scores") for r in document.raw_results)
    # a resumed run with nothing left to do builds nothing
    itbench.run_benchmark(hooked, request)
    assert len(calls) == 1
