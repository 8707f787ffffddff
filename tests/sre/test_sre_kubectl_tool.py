"""The llm agent's guarded kubectl tool: it reaches the trial's cluster and nothing else."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from itbench.llm.tools import ToolCall, invoke
from sre.agents.kubectl_tool import kubectl_tool, refusal
from sre.twin.scenario import build_case, serve_case


@pytest.mark.parametrize(
    "args",
    [
        ["--kubeconfig", "/etc/other", "get", "pods"],
        ["get", "pods", "--server=https://10.0.0.1"],
        ["--context", "prod", "get", "pods"],
        ["apply", "-f", "/etc/passwd"],
        ["apply", "--filename=manifest.yaml"],
        ["config", "view", "--raw"],
        ["port-forward", "svc/cart", "8080"],
        ["-n", "otel-demo", "exec", "cart-x", "--", "sh"],
        ["cp", "otel-demo/cart-x:/etc/passwd", "x"],
        # what kubectl reads as -f, --server or a file read or written on the host
        ["create", "--dry-run=client", "-o", "yaml", "-f/srv/ground_truth.yaml"],
        ["create", "--dry-run=client", "-o", "yaml", "-f=/srv/ground_truth.yaml"],
        ["get", "ns", "-shttps://10.0.0.1"],
        ["get", "ns", "-o", "go-template-file=/etc/shadow"],
        ["get", "ns", "-ogo-template-file=/etc/shadow"],
        ["get", "ns", "--profile=cpu", "--profile-output=/etc/passwd"],
        [],
    ],
)
def test_refused(args):
    assert refusal(args)


def test_allowed():
    assert refusal(["-n", "otel-demo", "rollout", "undo", "deployment/cart"]) == ""
    assert refusal(["apply", "-f", "-"]) == ""


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
def test_the_tool_reaches_the_trials_cluster(tmp_path: Path):
    case = build_case("scaled-to-zero", 5)
    cluster, _twin = serve_case(case, tmp_path / "kubeconfig.yaml")
    try:
        tools = {"kubectl": kubectl_tool(tmp_path)}
        call = ToolCall("1", "kubectl", json.dumps(
            {"args": ["-n", "otel-demo", "scale", f"deployment/{case.target}", "--replicas=1"]}
        ))  # fmt: skip
        answer = json.loads(invoke(tools, call))
        assert answer["exit_code"] == 0, answer
        assert cluster.state.overlay()["applied"][0]["spec"]["replicas"] == 1
        refused = json.loads(
            invoke(tools, ToolCall("2", "kubectl", '{"args": ["config", "view"]}'))
        )
        assert "not allowed" in refused["error"]
    finally:
        cluster.stop()


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
def test_the_tool_does_not_run_a_command_the_agent_wrote_into_its_kubeconfig(tmp_path: Path):
    # kubectl runs here as the runner's user, outside any sandbox: an exec credential plugin the
    # agent writes into its kubeconfig (run by kubectl for an https server) must not run
    from itbench.cluster.kubeconfig import kubeconfig_text

    (tmp_path / "kubeconfig.yaml").write_text(kubeconfig_text("http://127.0.0.1:1"))
    tools = {"kubectl": kubectl_tool(tmp_path)}  # made before the agent acts
    marker = tmp_path / "ran"
    (tmp_path / "kubeconfig.yaml").write_text(
        "apiVersion: v1\nkind: Config\n"
        "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\n"
        "users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, "
        f"command: /bin/sh, args: ['-c', 'touch {marker}; echo {{}}']}}}}}}]\n"
        "contexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n"
    )
    answer = json.loads(invoke(tools, ToolCall("1", "kubectl", '{"args": ["get", "pods"]}')))
    assert "refused" in answer["error"] and "exec" in answer["error"], answer
    assert not marker.exists()


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
def test_a_host_file_is_not_read_into_an_object_nor_the_cluster_written_to_the_host(
    tmp_path: Path,
):
    # kubectl runs as the runner's user: a ConfigMap made --from-file a host file hands that
    # file back to the agent on the next get; cluster-info dump writes wherever it is told
    secret = tmp_path / "host-only.txt"
    secret.write_text("a line only the host holds\n")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    case = build_case("scaled-to-zero", 5)
    cluster, _twin = serve_case(case, workspace / "kubeconfig.yaml")
    try:
        tools = {"kubectl": kubectl_tool(workspace)}

        def call(*args: str) -> dict:
            return json.loads(invoke(tools, ToolCall("1", "kubectl", json.dumps({"args": args}))))

        made = call("-n", "otel-demo", "create", "configmap", "c", f"--from-file={secret}")
        got = call("-n", "otel-demo", "get", "configmap", "c", "-o", "yaml")
        dumped = call("cluster-info", "dump", f"--output-directory={tmp_path / 'dump'}")
    finally:
        cluster.stop()
    assert "--from-file" in made.get("error", ""), made
    assert "absolute path" in made["error"], made
    assert "only the host holds" not in json.dumps(got)
    assert "--output-directory is not allowed" in dumped.get("error", ""), dumped
    assert not (tmp_path / "dump").exists()


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
def test_kubectl_writes_its_cache_nowhere_the_agent_can_point(tmp_path: Path):
    # kubectl writes its discovery cache as the runner's user: a home inside the workspace lets
    # a link the agent planted below it (.kube -> any folder) take those writes anywhere
    outside = tmp_path / "outside"
    outside.mkdir()
    workspace = tmp_path / "workspace"
    (workspace / ".itbench" / "kubectl-home").mkdir(parents=True)
    (workspace / ".itbench" / "kubectl-home" / ".kube").symlink_to(outside)
    cluster, _twin = serve_case(build_case("scaled-to-zero", 5), workspace / "kubeconfig.yaml")
    try:
        tools = {"kubectl": kubectl_tool(workspace)}
        call = ToolCall("1", "kubectl", json.dumps({"args": ["get", "pods", "-A"]}))
        answer = json.loads(invoke(tools, call))
    finally:
        cluster.stop()
    assert answer["exit_code"] == 0, answer
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ["-n", "otel-demo", "logs", "-f", "deploy/cart", "--tail=20"],
        ["get", "pods", "-Ao", "wide"],
        ["apply", "-f-", "-notel-demo"],
    ],
)
def test_per_command_flags_pass(args):
    assert refusal(args) == ""


@pytest.mark.parametrize(
    "args",
    [
        ["cart-inspect", "all"],  # kubectl-cart-inspect from PATH
        ["diff", "-f", "-"],
        ["apply", "-Rf", "manifests/"],
        ["get", "pods", "-As", "https://10.0.0.1"],
    ],
)
def test_plugins_diff_and_packed_files_are_refused(args):
    assert refusal(args)
