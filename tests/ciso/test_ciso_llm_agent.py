"""The llm agent on a built-in CISO scenario, through real litellm over HTTP against a scripted
local server, the real validator (lint, compile, dry run on the live trial cluster) and the real
evaluator: a model whose first policy has a Rego syntax error and a wrong field path passes after
the validator's feedback with 3 rounds, and fails with 0."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from tests._support.ciso import kubectl_missing, needs_sandbox
from tests._support.cli import REPO, run_cli
from tests._support.fake_openai import ScriptedServer, Step, chat_reply

pytestmark = [
    pytest.mark.slow,
    needs_sandbox,
    pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing())),
]

SCENARIO = "cis-k8s-5.2.2-privileged.kubectl-opa"
REFERENCE = REPO / "policies" / "rego" / "cis-k8s-5.2.2-privileged"
FIELD = "container.securityContext.privileged == true"
# the model's mistakes: a misspelt field (never true on any input) and Rego v0 syntax (no `if`)
WRONG_PATH = (
    REFERENCE.joinpath("policy.rego")
    .read_text()
    .replace(FIELD, FIELD.replace("securityContext", "security_context"))
)
BROKEN = WRONG_PATH.replace("result := false if {", "result := false {")


def _call(name: str, **arguments: str) -> Step:
    return Step(chat_reply(tool_calls=[{"name": name, "arguments": json.dumps(arguments)}]))


def _script() -> list[Step]:
    return [
        _call("kubectl", command="get deployments,pods -A"),
        _call(
            "write_file", path="fetcher.sh", content=REFERENCE.joinpath("fetcher.sh").read_text()
        ),
        _call("write_file", path="policy.rego", content=BROKEN),
        Step(chat_reply("written fetcher.sh and policy.rego")),
        # after the compile error: the syntax is fixed, the field path is still wrong
        _call("write_file", path="policy.rego", content=WRONG_PATH),
        Step(chat_reply("fixed the syntax")),
        # after the dry run said nothing was detected: the path is fixed
        _call("read_file", path=".itbench/dry-run/collected_data.json"),
        _call(
            "write_file", path="policy.rego", content=REFERENCE.joinpath("policy.rego").read_text()
        ),
        Step(chat_reply("fixed the field path")),
    ]


def _run(
    tmp_path: Path, server: ScriptedServer, rounds: int, *extra: str
) -> tuple[dict, list[dict]]:
    out = tmp_path / f"rounds-{rounds}"
    env = {
        "OPENAI_API_KEY": "sk-ciso-test-0123456789",
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
    }
    proc = run_cli(
        [
            "ciso",
            "run",
            "--scenarios",
            SCENARIO,
            "--agent",
            "llm",
            "--model",
            "openai/scripted",
            "--api-base",
            server.api_base,
            "--reflection-rounds",
            str(rounds),
            "--output",
            str(out),
            "--format",
            "json",
            "--no-progress",
            *extra,
        ],
        env=env,
        timeout=400,
    )
    assert proc.returncode == 0, proc.stderr
    (entry,) = json.loads(proc.stdout)["raw_results"]
    transcript = out / SCENARIO / "1" / "transcript.jsonl"
    events = [json.loads(line) for line in transcript.read_text().splitlines()]
    return entry, events


def _score(entry: dict, metric: str) -> float:
    value = entry["scores"][metric]
    return value["calculation"] if isinstance(value, dict) else value


def test_three_rounds_fix_syntax_error_then_wrong_field_path(tmp_path: Path) -> None:
    with ScriptedServer(_script()) as server:
        entry, events = _run(tmp_path, server, 3)
    assert _score(entry, "strict_pass") == 1.0
    assert _score(entry, "itbench_pass") == 1.0

    rounds = [e for e in events if e["event"] == "reflection_round"]
    assert [(r["round"], r["clean"]) for r in rounds] == [(1, False), (2, False), (3, True)]
    feedback = [e["content"] for e in events if e["event"] == "feedback"]
    assert len(feedback) == 2
    # round 1: the compile step names the file, the line and the parser's complaint
    assert "[compile] policy.rego:" in feedback[0] and "rego_parse_error" in feedback[0]
    assert "dry-run" not in feedback[0]  # the dry run cannot run on a policy that does not parse
    # round 2: the dry run on the live cluster says nothing is detected, never what should be
    assert "data.check.result is true on the cluster you were given" in feedback[1]
    assert "privileged" not in feedback[1]
    # the model was told exactly that: the feedback is the last user message it received
    told = [m["content"] for r in server.requests for m in r["messages"] if m["role"] == "user"]
    assert feedback[0] in told and feedback[1] in told
    # the kubectl tool ran against the trial's cluster; the dry run left the data it read
    tool_results = [e for e in events if e["event"] == "tool_result"]
    assert tool_results[0]["name"] == "kubectl" and "deployment" in tool_results[0]["result"]
    # what the model read back is its own fetcher's output on the live cluster
    tool_messages = [m["content"] for m in server.requests[-1]["messages"] if m["role"] == "tool"]
    collected = json.loads(next(t for t in tool_messages if t.startswith('{\n "apiVersion"')))
    assert collected["kind"] == "List"
    assert {i["kind"] for i in collected["items"]} >= {"Deployment", "Pod", "CronJob"}
    first = server.requests[0]
    assert {"kubectl", "validate", "write_file"} <= {t["function"]["name"] for t in first["tools"]}
    assert "kubectl-opa" in first["messages"][0]["content"]  # the CISO prompt template


def test_zero_rounds_keep_the_broken_policy(tmp_path: Path) -> None:
    template = tmp_path / "prompt.j2"
    template.write_text("Custom prompt for {{ scenario.id }} with {{ tools | join(',') }}")
    with ScriptedServer(_script()) as server:
        entry, events = _run(tmp_path, server, 0, "--prompt-template", str(template))
    system = server.requests[0]["messages"][0]
    assert system["role"] == "system"
    assert system["content"].startswith(f"Custom prompt for {SCENARIO} with ")
    assert "kubectl" in system["content"].split(" with ")[1]
    assert _score(entry, "strict_pass") == 0.0
    assert _score(entry, "itbench_pass") == 0.0
    assert not [e for e in events if e["event"] == "feedback"]
    assert len(server.requests) == 4  # one generation: the script's first round only
    evaluation = (tmp_path / "rounds-0" / SCENARIO / "1" / "evaluation.json").read_text()
    assert "policy.rego does not evaluate" in evaluation and "rego_parse_error" in evaluation


def test_broken_prompt_template_is_a_usage_error_before_any_trial(tmp_path: Path) -> None:
    template = tmp_path / "bad.j2"
    template.write_text("line one\n{% if scenario.id %}never closed")
    out = tmp_path / "bad"
    proc = run_cli(
        ["ciso", "run", "--scenarios", SCENARIO, "--agent", "llm", "--model", "openai/x",
         "--api-base", "http://127.0.0.1:9/v1", "--prompt-template", str(template),
         "--output", str(out)],
        env={"OPENAI_API_KEY": "sk-x", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert str(template) in proc.stderr and "line 2" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (out / SCENARIO).exists()


@pytest.mark.parametrize(
    ("command", "cls", "refusal"),
    [
        ("get pods --kubeconfig=/etc/other", "kubectl-opa", "flag --kubeconfig is not allowed"),
        ("get pods -s https://10.0.0.1", "kyverno", "flag -s is not allowed"),
        ("get pods --token abc", "kyverno", "flag --token is not allowed"),
        ("get pods -w", "kyverno", "flag -w is not allowed"),
        ("delete pod x", "kyverno", "verb 'delete' is not allowed"),
        ("apply -f policy.yaml", "kubectl-opa", "apply is only for Kyverno policies"),
        ("apply -f pod.yaml", "kyverno", "apply takes Kyverno ClusterPolicy/Policy documents"),
        ("apply -f ../outside.yaml", "kyverno", "is not a file in your workspace"),
        ("apply", "kyverno", "apply needs -f"),
        ("get pods -o go-template-file=/etc/shadow", "kyverno", "read a template file"),
        ("get pods -o jsonpath-file /etc/passwd", "kubectl-opa", "read a template file"),
        ("get pods --log-file=/tmp/x", "kubectl-opa", "flag --log-file is not allowed"),
        ("get -k /etc", "kyverno", "flag -k is not allowed"),
        # a flag hidden in a one-letter cluster: kubectl reads -f=X and -fX as -f X
        ("apply -f policy.yaml -f=/srv/answer.yaml", "kyverno", "write one-letter flags"),
        ("apply -f policy.yaml -f/srv/answer.yaml", "kyverno", "write one-letter flags"),
        ("get pods -shttps://10.0.0.1", "kyverno", "write one-letter flags"),
        ("get pods -ogo-template-file=/etc/shadow", "kubectl-opa", "read a template file"),
        ("get ns --profile=cpu --profile-output=/etc/passwd", "kyverno", "--profile-output"),
    ],
)
def test_kubectl_tool_refuses_what_escapes_or_writes(
    tmp_path: Path, command: str, cls: str, refusal: str
) -> None:
    from ciso.agents.llm_tools import run_kubectl
    from ciso.scenarios.model import ScenarioClass

    (tmp_path / "pod.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")
    (tmp_path / "policy.yaml").write_text("apiVersion: kyverno.io/v1\nkind: ClusterPolicy\n")
    result = run_kubectl(command, tmp_path, ScenarioClass(cls))
    assert result.startswith("refused:") and refusal in result, result


@pytest.mark.parametrize(
    ("command", "refusal"),
    [
        # kubectl reads every file of a folder, following a link the shell tool planted there
        ("get -f manifests", "not a folder"),
        ("get -f manifests/hidden.yaml", "not a file in your workspace"),
        ("describe --filename manifests", "not a folder"),
        # and fetches a URL from the runner's network, whatever the agent's sandbox allows
        ("get -f http://127.0.0.1:9/objects.yaml", "no such file"),
    ],
)
def test_kubectl_tool_reads_only_regular_workspace_files(
    tmp_path: Path, command: str, refusal: str
) -> None:
    from ciso.agents.llm_tools import run_kubectl
    from ciso.scenarios.model import ScenarioClass

    elsewhere = tmp_path / "elsewhere.yaml"
    elsewhere.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: hidden-name}\n")
    workspace = tmp_path / "workspace"
    (workspace / "manifests").mkdir(parents=True)
    (workspace / "manifests" / "hidden.yaml").symlink_to(elsewhere)
    result = run_kubectl(command, workspace, ScenarioClass.KYVERNO)
    assert result.startswith("refused:") and refusal in result, result


def test_kubectl_tool_writes_its_cache_nowhere_the_agent_can_point(tmp_path: Path) -> None:
    # kubectl writes its discovery cache as the runner's user: a cache inside the workspace lets
    # a link the agent planted below it (discovery -> any folder) take those writes anywhere
    from ciso.agents.llm_tools import run_kubectl
    from ciso.environments import trial_environment
    from ciso.scenarios.loader import load_benchmark_scenarios
    from ciso.scenarios.model import ScenarioClass

    (scenario,) = load_benchmark_scenarios("cis-k8s-5.2.2-privileged.kyverno")
    outside = tmp_path / "outside"
    outside.mkdir()
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    with trial_environment(scenario, workspace):
        (workspace / ".itbench" / "kube-cache").mkdir(parents=True, exist_ok=True)
        for name in ("discovery", "http"):
            planted = workspace / ".itbench" / "kube-cache" / name
            if planted.is_dir():
                shutil.rmtree(planted)
            planted.symlink_to(outside)
        listed = run_kubectl("get deployments -A", workspace, ScenarioClass.KYVERNO)
    assert "NAMESPACE" in listed, listed
    assert list(outside.iterdir()) == []


def test_kubectl_tool_applies_a_policy_to_the_trial_cluster(tmp_path: Path) -> None:
    from ciso.agents.llm_tools import run_kubectl
    from ciso.environments import read_applied, trial_environment
    from ciso.scenarios.loader import load_benchmark_scenarios
    from ciso.scenarios.model import ScenarioClass

    (scenario,) = load_benchmark_scenarios("cis-k8s-5.2.2-privileged.kyverno")
    reference = REPO / "policies" / "kyverno" / "cis-k8s-5.2.2-privileged" / "policy.yaml"
    (tmp_path / "kyverno-policy.yaml").write_text(reference.read_text())
    with trial_environment(scenario, tmp_path):
        listed = run_kubectl("get deployments -A", tmp_path, ScenarioClass.KYVERNO)
        applied = run_kubectl("apply -f kyverno-policy.yaml", tmp_path, ScenarioClass.KYVERNO)
    assert "NAMESPACE" in listed and "exit code" not in listed
    assert "created" in applied or "configured" in applied, applied
    names = [o["metadata"]["name"] for o in read_applied(tmp_path)["applied"]]
    assert names == [yaml.safe_load(reference.read_text())["metadata"]["name"]]


def test_validator_runs_the_playbook_on_the_agents_host(tmp_path: Path) -> None:
    """RHEL: the dry run executes the playbook against the trial's host tree; a playbook that
    does not load stops at the compile step with ansible-playbook's message."""
    from ciso.environments import trial_environment
    from ciso.scenarios.loader import load_benchmark_scenarios
    from ciso.validation import Level, Step, validate

    (scenario,) = load_benchmark_scenarios("cis-rhel9-5.2.16-max-auth-tries.rhel9-ansible-opa")
    answer = REPO / "playbooks" / "cis-rhel9-5.2.16-max-auth-tries"
    (tmp_path / "policy.rego").write_text(answer.joinpath("policy.rego").read_text())
    (tmp_path / "playbook.yml").write_text(answer.joinpath("playbook.yml").read_text())
    with trial_environment(scenario, tmp_path):
        good = validate(scenario.public_view(), tmp_path)
        (tmp_path / "playbook.yml").write_text(
            "- hosts: rhel9_servers\n  tasks:\n    - bogus_module_x: {}\n"
        )
        broken = validate(scenario.public_view(), tmp_path)
    assert not [d for d in good if d.is_problem], good
    assert any(d.step is Step.DRY_RUN and "data.check.result is false" in d.message for d in good)
    assert [d.step for d in broken if d.is_problem] == [Step.COMPILE]
    (problem,) = [d for d in broken if d.is_problem]
    assert problem.level is Level.ERROR and problem.rule == "syntax-check"
    assert "bogus_module_x" in problem.message


def test_validator_names_the_task_that_failed_on_the_host(tmp_path: Path) -> None:
    """RHEL reflection: a playbook that loads but fails at run time gets feedback naming the task,
    its line, the host and Ansible's reason (ansible-runner's events), not an output tail."""
    from ciso.environments import trial_environment
    from ciso.scenarios.loader import load_benchmark_scenarios
    from ciso.validation import Step, validate

    (scenario,) = load_benchmark_scenarios("cis-rhel9-5.2.16-max-auth-tries.rhel9-ansible-opa")
    answer = REPO / "playbooks" / "cis-rhel9-5.2.16-max-auth-tries"
    (tmp_path / "policy.rego").write_text(answer.joinpath("policy.rego").read_text())
    (tmp_path / "playbook.yml").write_text(
        "- hosts: rhel9_servers\n  gather_facts: false\n  tasks:\n"
        "    - name: Read the SSH daemon settings\n"
        "      command: cat /etc/ssh/sshd_config.d/does-not-exist.conf\n"
    )
    with trial_environment(scenario, tmp_path):
        diagnostics = validate(scenario.public_view(), tmp_path)
    (problem,) = [d for d in diagnostics if d.is_problem]
    assert problem.step is Step.DRY_RUN
    assert (
        "the playbook failed: task 'Read the SSH daemon settings' (playbook.yml:4) failed on "
        "localhost: non-zero return code (rc 1) stderr: cat: "
        "/etc/ssh/sshd_config.d/does-not-exist.conf: No such file or directory"
    ) in problem.message, problem.message
