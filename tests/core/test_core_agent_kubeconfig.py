"""kubectl runs as the runner's user, outside any sandbox, for an agent's kubectl tool and the dry
run, on a kubeconfig in the agent's workspace the agent can rewrite: what makes kubectl run a
command, read a local file or go through a proxy is refused, and the runner's own text is used
as it was written."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from itbench.cluster.kubeconfig import (
    AgentKubeconfig,
    UnsafeKubeconfig,
    checked_kubeconfig,
    kubeconfig_text,
)


def _config(cluster: dict, user: dict, *, extra_context: bool = False) -> str:
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "c", "cluster": cluster}],
        "users": [{"name": "u", "user": user}],
        "contexts": [
            {"name": "x", "context": {"cluster": "c", "user": "u", "namespace": "team-a"}}
        ],
        "current-context": "x",
    }
    if extra_context:  # another context, not the current one: never part of what is kept
        doc["users"].append({"name": "other", "user": {"exec": {"command": "/bin/true"}}})
        doc["contexts"].append({"name": "y", "context": {"cluster": "c", "user": "other"}})
    return yaml.safe_dump(doc)


def _exec_user(marker: Path) -> dict:
    return {
        "exec": {
            "apiVersion": "client.authentication.k8s.io/v1beta1",
            "command": "/bin/sh",
            "args": ["-c", f"touch {marker}; echo '{{}}'"],
        }
    }


SERVER = {"server": "http://127.0.0.1:1"}


@pytest.mark.parametrize(
    ("cluster", "user", "named"),
    [
        (SERVER, {"exec": {"command": "/bin/sh"}}, "exec"),
        (SERVER, {"auth-provider": {"name": "gcp", "config": {"cmd-path": "/bin/sh"}}}, "auth"),
        (SERVER, {"tokenFile": "/etc/shadow"}, "tokenFile"),
        (SERVER, {"client-key": "/root/.ssh/id_rsa"}, "client-key"),
        ({**SERVER, "certificate-authority": "/etc/shadow"}, {}, "certificate-authority"),
        ({**SERVER, "proxy-url": "http://elsewhere:3128"}, {}, "proxy-url"),
        ({"server": "file:///etc/shadow"}, {}, "not a URL"),
    ],
)
def test_what_would_run_read_or_reroute_is_refused(cluster, user, named):
    with pytest.raises(UnsafeKubeconfig, match=named):
        checked_kubeconfig(_config(cluster, user), "kubeconfig.yaml")


def test_the_current_context_is_kept_with_inline_credentials_only():
    user = {"token": "t", "client-certificate-data": "Y2VydA==", "client-key-data": "a2V5"}
    cluster = {**SERVER, "certificate-authority-data": "Y2E=", "tls-server-name": "api"}
    kept = yaml.safe_load(checked_kubeconfig(_config(cluster, user, extra_context=True), "k"))
    assert [c["cluster"] for c in kept["clusters"]] == [cluster]
    assert [u["user"] for u in kept["users"]] == [user]
    (context,) = kept["contexts"]
    assert context["context"]["namespace"] == "team-a"
    assert kept["current-context"] == context["name"]


@pytest.mark.parametrize("text", ["[1, 2]", "a: [", "current-context: nowhere\n"])
def test_what_is_not_a_kubeconfig_is_refused(text):
    with pytest.raises(UnsafeKubeconfig):
        checked_kubeconfig(text, "kubeconfig.yaml")


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
def test_kubectl_never_runs_the_command_an_agent_wrote_in(tmp_path: Path):
    marker = tmp_path / "ran"
    path = tmp_path / "kubeconfig.yaml"
    path.write_text(kubeconfig_text("http://127.0.0.1:1"))
    config = AgentKubeconfig(path)  # the runner's text, read before the agent acts
    # the agent's rewrite (kubectl runs an exec plugin for an https server)
    path.write_text(_config({"server": "https://127.0.0.1:1"}, _exec_user(marker)))
    with pytest.raises(UnsafeKubeconfig, match="exec"), config.file() as checked:
        subprocess.run(["kubectl", "get", "pods"], env={"KUBECONFIG": str(checked)}, check=False)
    assert not marker.exists()
    # the control: kubectl does run it on the unchecked file (what the tools did before)
    subprocess.run(
        ["kubectl", "get", "pods", "--request-timeout=2s"],
        env={"KUBECONFIG": str(path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        capture_output=True,
        check=False,
    )
    assert marker.exists()


def test_the_runners_own_text_is_used_as_written(tmp_path: Path):
    # one whose credentials need no program and no file (an exec plugin's are resolved by the
    # runner: tests/core/test_core_runner_credentials.py)
    path = tmp_path / "kubeconfig.yaml"
    written = _config(SERVER, {"token": "handed-out"}, extra_context=True)
    path.write_text(written)  # e.g. a live cluster's context the runner handed out
    with AgentKubeconfig(path).file() as used:
        assert used.read_text() == written
        assert used.parent != tmp_path


def test_a_kubeconfig_that_is_a_link_is_not_read(tmp_path: Path):
    target = tmp_path / "elsewhere.yaml"
    target.write_text(kubeconfig_text("http://127.0.0.1:1"))
    (tmp_path / "kubeconfig.yaml").symlink_to(target)
    with (
        pytest.raises(Exception, match="symbolic link"),
        AgentKubeconfig(tmp_path / "kubeconfig.yaml").file(),
    ):
        pass


def test_extensions_are_data_and_kept():
    # kubectl hands extensions to an exec plugin only, and one is refused: they run nothing
    extension = [{"name": "example.org/labels", "extension": {"team": "a"}}]
    text = _config({**SERVER, "extensions": extension}, {"token": "t", "extensions": extension})
    kept = yaml.safe_load(checked_kubeconfig(text, "kubeconfig.yaml"))
    assert kept["clusters"][0]["cluster"]["extensions"] == extension
    assert kept["users"][0]["user"]["extensions"] == extension


def test_a_key_given_twice_is_refused():
    # PyYAML keeps the last value, another parser may keep the first: two readings of one file
    text = _config(SERVER, {"token": "t"}).replace(
        "server: http://127.0.0.1:1", "server: http://127.0.0.1:1\n    server: http://10.9.9.9:80"
    )
    assert text.count("server:") == 2
    with pytest.raises(UnsafeKubeconfig, match="twice"):
        checked_kubeconfig(text, "kubeconfig.yaml")


def test_a_second_server_is_refused():
    doc = yaml.safe_load(_config(SERVER, {"token": "t"}))
    doc["clusters"].append({"name": "spare", "cluster": {"server": "https://10.9.9.9:6443"}})
    with pytest.raises(UnsafeKubeconfig, match="more than one server"):
        checked_kubeconfig(yaml.safe_dump(doc), "kubeconfig.yaml")
    # a second entry for the same server reaches nothing more
    doc["clusters"][1]["cluster"]["server"] = SERVER["server"]
    assert checked_kubeconfig(yaml.safe_dump(doc), "kubeconfig.yaml")
