"""What an agent uses of a domain comes from the run's session: the output validator, the llm
agent's tools, the oracle's references, and the agent factories receive that session. Two
sessions in one process, opened with different settings, each keep their own."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import itbench
from itbench.agents.llm import LLMAgent
from itbench.agents.oracle import OracleAgent, oracle_factory
from itbench.cluster import domain_extensions
from itbench.errors import UsageError
from itbench.plugins.spec import AgentOptions, Domain, DomainRun
from itbench.runner.trial import RunContext
from tests._support.cli import REPO, TOY_DIST, run_example


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Domain]:
    """The toy third-party domain, imported in this process from its distribution."""
    monkeypatch.syspath_prepend(str(TOY_DIST))
    monkeypatch.setenv("TOY_SUITE_DIR", str(tmp_path / "toy-suite"))
    monkeypatch.delenv("ITBENCH_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    from itbench_toy import domain

    yield domain


def _session(toy: Domain, tmp_path: Path, answer_file: str) -> DomainRun:
    request = itbench.RunRequest(
        domain="toy",
        output_dir=tmp_path / answer_file,
        domain_options={"toy_answer_file": answer_file},
    )
    return toy.open_run(request)


def test_two_sessions_in_one_process_keep_their_own_validator_tools_and_references(toy, tmp_path):
    first = _session(toy, tmp_path, "first.json")
    second = _session(toy, tmp_path, "second.json")
    scenario = first.scenarios("add-2")[0]
    public = scenario.public_view()
    workspace = tmp_path / "ws"
    workspace.mkdir()

    assert first.write_reference is not None and second.write_reference is not None
    first.write_reference(scenario, workspace)
    assert json.loads((workspace / "first.json").read_text()) == {"sum": 22}
    assert not (workspace / "second.json").exists()

    assert first.validate_output is not None and second.validate_output is not None
    assert first.validate_output(public, workspace) == []
    assert second.validate_output(public, workspace) == [f"{workspace / 'second.json'}: missing"]

    assert first.llm_tools is not None and second.llm_tools is not None
    (tool_1,) = first.llm_tools(public, workspace)
    (tool_2,) = second.llm_tools(public, workspace)
    assert tool_1.function() == "write your answer to first.json"
    assert tool_2.function() == "write your answer to second.json"
    # and the first session is unchanged by the second one's opening
    assert first.validate_output(public, workspace) == []


def test_agent_factories_build_their_agents_from_the_run_session(toy, tmp_path):
    run = _session(toy, tmp_path, "mine.json")
    options = AgentOptions(model="openai/none")
    oracle = oracle_factory(options, run)
    assert isinstance(oracle, OracleAgent) and oracle.run is run
    baseline = toy.agents["baseline"](options, run)
    assert baseline.answer_file == "mine.json"  # type: ignore[attr-defined]  # the toy's agent
    # the llm agent holds the session whose tools and validator it uses
    assert "run" in LLMAgent.__dataclass_fields__ and "domain" not in LLMAgent.__dataclass_fields__


def test_the_oracle_cannot_run_on_a_session_without_references(tmp_path):
    plain = Domain(name="plain", evaluate=lambda scenario, path: {})
    run = plain.open_run(itbench.RunRequest(domain="plain", output_dir=tmp_path))
    with pytest.raises(UsageError, match="domain 'plain' has no reference answers"):
        oracle_factory(AgentOptions(), run)


@pytest.mark.parametrize("agent", ["baseline", "oracle"])
def test_two_runs_in_one_process_each_answer_where_their_session_says(toy, tmp_path, agent):
    documents = {}
    for answer_file in ("left.json", "right.json"):
        request = itbench.RunRequest(
            domain="toy",
            agent=agent,
            select=("add-1", "add-3"),
            output_dir=tmp_path / answer_file,
            domain_options={"toy_answer_file": answer_file},
        )
        documents[answer_file] = itbench.run_benchmark(toy, request)
    for answer_file, document in documents.items():
        scores = {row["incident_id"]: row["scores"] for row in document.raw_results}
        assert scores == {"add-1": {"correct": 1.0}, "add-3": {"correct": 1.0}}, answer_file
        for scenario in ("add-1", "add-3"):
            trial = tmp_path / answer_file / scenario / "1"
            written = {p.name for p in trial.glob("*.json")} - {"evaluation.json", "task.json"}
            assert written == {answer_file}, (answer_file, scenario)


def test_a_worker_context_rebuilds_its_agent_with_its_own_session(toy, tmp_path):
    """What a Ray worker does with the context the driver sent: the agent is built again from
    the session the worker opened, never kept bound to the driver's."""
    driver = _session(toy, tmp_path, "driver.json")
    factory = toy.agents["baseline"]
    options = AgentOptions()
    ctx = RunContext(
        toy,
        factory(options, driver),
        "baseline",
        None,
        10.0,
        session=driver,
        build_agent=lambda run: factory(options, run),
    )
    worker = _session(toy, tmp_path, "worker.json")
    rebound = ctx.for_session(worker)
    assert rebound.session is worker and rebound.run is worker
    assert rebound.agent.answer_file == "worker.json"  # type: ignore[attr-defined]  # the toy's agent
    assert ctx.agent.answer_file == "driver.json"  # type: ignore[attr-defined]  # the toy's agent
    # a context without a factory (built by hand) keeps its agent
    fixed = RunContext(toy, ctx.agent, "baseline", None, 10.0).for_session(worker)
    assert fixed.agent is ctx.agent and fixed.session is worker


def test_cluster_types_are_served_without_opening_any_session(monkeypatch):
    """``itbench cluster serve`` (and any cluster started without explicit extensions) serves the
    installed domains' API types from the domain-level ``cluster_extension``: no run, no
    session, nothing a session would check (a live cluster) or generate."""

    def refuse(*args: object, **kwargs: object) -> DomainRun:
        raise AssertionError("serving opened a session")

    monkeypatch.setattr(Domain, "open_run", refuse)
    monkeypatch.setattr(Domain, "open_eval", refuse)
    served = {extension.name for extension in domain_extensions()}
    assert {"ciso", "sre"} <= served


def _section(page: Path, heading: str) -> str:
    text = page.read_text(encoding="utf-8")
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start : end if end != -1 else len(text)]


def test_the_plugins_page_domain_runs_and_prints_what_the_page_shows(tmp_path):
    """docs/plugins.md's domain in one file: a session binding a run setting into the
    evaluator, validator and references, an agent factory reading it; run through the library."""
    section = _section(REPO / "docs" / "plugins.md", "## A domain in one file")
    (code,) = re.findall(r"^```python\n(.*?)^```$", section, re.DOTALL | re.MULTILINE)
    shown = section[section.index("It prints:") :]
    expected = re.search(r"```text\n(.*?)```", shown, re.DOTALL)
    assert expected is not None, "the page shows what the example prints"
    proc, _ = run_example(code, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected.group(1)
