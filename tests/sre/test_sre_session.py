"""The SRE domain's run session (``sre.session``): each run's settings (the task, ``--hide``, the
judge's namespace filter, live mode) stay with that run's session, so two sessions open in one
process keep their own, and a Ray worker's session, rebuilt from the run request, scores as the
driver's does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from itbench.errors import UsageError
from itbench.runner.benchmark import RunRequest
from sre.generator.ground_truth import parse_ground_truth
from sre.generator.snapshot import write_incident
from sre.judge.hooks import truth_scenario
from sre.plugin import domain
from sre.snapshot.hidden import MARKER, source_of
from tests._support.sre import flagd_truth

TRUTH = flagd_truth()
#: A diagnosis blaming the collector first, the real root cause second: the infrastructure
#: namespace filter (``--exclude-infra-namespaces``) drops the first.
BLAMES_THE_COLLECTOR = {
    "entities": [
        {"name": "opentelemetry-collectors/Deployment/otel-collector", "contributing_factor": True},
        {"name": "otel-demo/ConfigMap/flagd-config", "contributing_factor": True},
    ]
}


def _request(tmp_path: Path, name: str, **options: object) -> RunRequest:
    return RunRequest("sre", output_dir=tmp_path / name, domain_options=options)


def test_two_sessions_in_one_process_keep_their_own_task(tmp_path: Path) -> None:
    mitigate = domain.open_run(_request(tmp_path, "a", sre_task="mitigate"))
    diagnose = domain.open_run(_request(tmp_path, "b", sre_task="diagnose"))
    # each session's ground-truth loader answers for its own task, whichever was opened last
    with pytest.raises(UsageError, match="--task mitigate needs --ground-truth"):
        mitigate.ground_truth(None)
    with pytest.raises(UsageError, match="sre eval needs --ground-truth"):
        diagnose.ground_truth(None)


def test_two_sessions_in_one_process_keep_their_own_hidden_sources(tmp_path: Path) -> None:
    incidents = tmp_path / "incidents"
    write_incident(incidents / "Scenario-1", "nonexistent-image", 41)
    hiding = domain.open_run(_request(tmp_path, "a", hide=("logs",)))
    seeing = domain.open_run(_request(tmp_path, "b"))
    (hidden,) = hiding.scenarios(str(incidents))
    (whole,) = seeing.scenarios(str(incidents))
    assert MARKER in hidden.inputs and MARKER not in whole.inputs
    assert "logs" not in {source_of(name) for name in hidden.inputs}
    assert "logs" in {source_of(name) for name in whole.inputs}
    # the marker lies in the hiding run's own directory, nowhere else
    assert (tmp_path / "a" / MARKER).is_file() and not (tmp_path / "b" / MARKER).exists()


def _score(run, tmp_path: Path) -> dict:
    workspace = tmp_path / "trial"
    workspace.mkdir(exist_ok=True)
    (workspace / "agent_output.json").write_text(json.dumps(BLAMES_THE_COLLECTOR))
    scenario = truth_scenario("1", parse_ground_truth(TRUTH, "t"), "t")
    return dict(run.evaluate(scenario, workspace).scores)


def test_a_worker_session_scores_with_the_run_requests_settings(tmp_path: Path) -> None:
    request = _request(tmp_path, "a", exclude_infra_namespaces=True)
    driver = _score(domain.open_run(request), tmp_path)
    worker = _score(domain.open_run(request, worker=True), tmp_path)
    unfiltered = _score(domain.open_run(_request(tmp_path, "b")), tmp_path)
    assert worker["root_cause_entity"] == driver["root_cause_entity"]
    assert driver["root_cause_entity"]["namespace_filter"]["removed_entities"] == [
        "opentelemetry-collectors/Deployment/otel-collector"
    ]
    assert "namespace_filter" not in unfiltered["root_cause_entity"]
    assert unfiltered["root_cause_entity_k@1"] != driver["root_cause_entity_k@1"]


def test_live_mode_needs_the_run_directory(tmp_path: Path) -> None:
    """A worker (or eval) session is opened without the run directory, where the trials' common
    lock on the live cluster lies: live mode is refused there before any cluster is contacted."""
    kubeconfig = tmp_path / "kubeconfig.yaml"
    kubeconfig.write_text("apiVersion: v1\nkind: Config\n")
    request = _request(tmp_path, "a", sre_task="mitigate", live_kubeconfig=kubeconfig)
    with pytest.raises(UsageError, match="local executor only"):
        domain.open_run(request, worker=True)
    with pytest.raises(UsageError, match="local executor only"):
        domain.open_eval(dict(request.domain_options))


def test_bad_option_combinations_are_usage_errors_when_the_session_opens(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--judge-api-base needs --judge"):
        domain.open_run(_request(tmp_path, "a", judge_api_base="http://127.0.0.1:1"))
    with pytest.raises(UsageError, match="--prometheus needs --kubeconfig"):
        domain.open_run(_request(tmp_path, "b", live_prometheus="http://127.0.0.1:1"))
