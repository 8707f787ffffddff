"""The runner's own kubeconfig (the user's, trusted) is resolved outside the sandbox: its exec
plugin run by the runner (the ExecCredential protocol, re-run once expired), its files read; the
confined kubectl gets a checked kubeconfig holding only inline credentials. An agent's
kubeconfig never takes this path."""

from __future__ import annotations

import base64
import datetime as dt
import json
import sys
from pathlib import Path

import pytest
import yaml

from itbench.cluster.kubeconfig import AgentKubeconfig, UnsafeKubeconfig
from itbench.errors import InputError

_SERVER = "https://api.cluster.example:6443"


def _kubeconfig(user: dict, cluster: dict | None = None) -> str:
    return yaml.safe_dump({
        "apiVersion": "v1", "kind": "Config", "current-context": "live",
        "clusters": [{"name": "c", "cluster": {"server": _SERVER, **(cluster or {})}}],
        "users": [{"name": "u", "user": user}],
        "contexts": [{"name": "live", "context": {"cluster": "c", "user": "u",
                                                  "namespace": "shop"}}],
    })  # fmt: skip


def _plugin(folder: Path, expires_in_s: float | None) -> tuple[Path, Path]:
    """An exec credential plugin (a real program) answering token ``issued-<n>`` on its n-th
    run, valid ``expires_in_s`` from now; the file counting its runs."""
    runs = folder / "runs"
    stamp = ""
    if expires_in_s is not None:
        moment = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=expires_in_s)
        stamp = moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    script = folder / "issue-token"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, os, pathlib\n"
        f"runs = pathlib.Path({str(runs)!r})\n"
        "n = int(runs.read_text()) + 1 if runs.exists() else 1\n"
        "runs.write_text(str(n))\n"
        "asked = json.loads(os.environ['KUBERNETES_EXEC_INFO'])\n"
        "status = {'token': f'issued-{n}'}\n"
        f"if {stamp!r}: status['expirationTimestamp'] = {stamp!r}\n"
        "print(json.dumps({'apiVersion': asked['apiVersion'], 'kind': 'ExecCredential',"
        " 'status': status}))\n"
    )
    script.chmod(0o755)
    return script, runs


def _exec_user(command: Path | str) -> dict:
    return {"exec": {"apiVersion": "client.authentication.k8s.io/v1", "command": str(command),
                     "interactiveMode": "Never"}}  # fmt: skip


def _pinned(workspace: Path, text: str) -> AgentKubeconfig:
    (workspace / "kubeconfig.yaml").write_text(text)
    return AgentKubeconfig(workspace / "kubeconfig.yaml")  # made before the agent acts


def _user(text: str) -> dict:
    doc = yaml.safe_load(text)
    return doc["users"][0]["user"]


def test_the_exec_plugin_runs_in_the_runner_and_only_its_token_is_handed_on(tmp_path: Path):
    script, runs = _plugin(tmp_path, expires_in_s=3600)
    config = _pinned(tmp_path, _kubeconfig(_exec_user(script)))
    first, second = config.text(), config.text()
    assert _user(first) == {"token": "issued-1"}
    assert "exec" not in first and str(script) not in first
    doc = yaml.safe_load(first)
    assert doc["clusters"][0]["cluster"]["server"] == _SERVER
    assert doc["contexts"][0]["context"]["namespace"] == "shop"
    # still valid: not asked for again
    assert second == first and runs.read_text() == "1"


def test_an_expired_credential_is_asked_for_again(tmp_path: Path):
    # within the margin kept before expiry counts as expired
    script, runs = _plugin(tmp_path, expires_in_s=20)
    config = _pinned(tmp_path, _kubeconfig(_exec_user(script)))
    assert _user(config.text())["token"] == "issued-1"
    assert _user(config.text())["token"] == "issued-2"
    assert runs.read_text() == "2"


def test_a_plugin_named_without_a_path_is_found_on_the_runners_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    script, _runs = _plugin(tmp_path, expires_in_s=None)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    config = _pinned(tmp_path, _kubeconfig(_exec_user(script.name)))
    assert _user(config.text()) == {"token": "issued-1"}


def test_a_failing_plugin_is_named(tmp_path: Path):
    broken = tmp_path / "broken-plugin"
    broken.write_text("#!/bin/sh\necho 'no session: log in first' >&2\nexit 1\n")
    broken.chmod(0o755)
    config = _pinned(tmp_path, _kubeconfig(_exec_user(broken)))
    with pytest.raises(InputError, match="broken-plugin.*log in first"):
        config.text()


def test_files_the_runners_kubeconfig_names_are_read_by_the_runner(tmp_path: Path):
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    (secrets / "token").write_text("from-a-file\n")
    (secrets / "ca.pem").write_bytes(b"AUTHORITY")
    (secrets / "client.pem").write_bytes(b"CERT")
    (secrets / "client.key").write_bytes(b"KEY")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    by_file = _pinned(workspace, _kubeconfig(
        {"tokenFile": str(secrets / "token")},
        {"certificate-authority": str(secrets / "ca.pem")},
    )).text()  # fmt: skip
    assert _user(by_file) == {"token": "from-a-file"}
    cluster = yaml.safe_load(by_file)["clusters"][0]["cluster"]
    assert base64.b64decode(cluster["certificate-authority-data"]) == b"AUTHORITY"
    assert "certificate-authority" not in cluster
    pair = _pinned(workspace, _kubeconfig(
        {"client-certificate": str(secrets / "client.pem"),
         "client-key": str(secrets / "client.key")},
    )).text()  # fmt: skip
    assert {k: base64.b64decode(v) for k, v in _user(pair).items()} == {
        "client-certificate-data": b"CERT",
        "client-key-data": b"KEY",
    }


def test_a_relative_file_would_be_the_agents_and_is_refused(tmp_path: Path):
    # the runner reads its kubeconfig's copy in the workspace: a relative path leads to a file
    # the agent can write
    (tmp_path / "token").write_text("planted by the agent")
    config = _pinned(tmp_path, _kubeconfig({"tokenFile": "token"}))
    with pytest.raises(InputError, match="relative path"):
        config.text()
    relative_plugin = _pinned(tmp_path, _kubeconfig(_exec_user("./bin/issue-token")))
    with pytest.raises(InputError, match="relative path"):
        relative_plugin.text()


def test_an_oidc_id_token_is_handed_on_and_a_provider_without_one_refused(tmp_path: Path):
    oidc = {"auth-provider": {"name": "oidc", "config": {
        "id-token": "id.jwt.sig", "idp-issuer-url": "https://issuer.example",
        "refresh-token": "r"}}}  # fmt: skip
    assert _user(_pinned(tmp_path, _kubeconfig(oidc)).text()) == {"token": "id.jwt.sig"}
    empty = {"auth-provider": {"name": "gcp", "config": {"cmd-path": "/usr/bin/gcloud"}}}
    with pytest.raises(InputError, match="exec credential plugin"):
        _pinned(tmp_path, _kubeconfig(empty)).text()


def test_an_agents_kubeconfig_never_has_its_plugin_run(tmp_path: Path):
    script, runs = _plugin(tmp_path, expires_in_s=3600)
    # the runner wrote an inline-token kubeconfig; the agent replaces it with an exec one
    config = _pinned(tmp_path, _kubeconfig({"token": "given"}))
    (tmp_path / "kubeconfig.yaml").write_text(_kubeconfig(_exec_user(script)))
    with pytest.raises(UnsafeKubeconfig, match="exec"):
        config.text()
    # nor with the runner's own plugin kubeconfig, rewritten to run another command
    runner = _pinned(tmp_path, _kubeconfig(_exec_user(script)))
    (tmp_path / "kubeconfig.yaml").write_text(_kubeconfig(_exec_user("/bin/true")))
    with pytest.raises(UnsafeKubeconfig, match="exec"):
        runner.text()
    # and without a pinned text (the dry run's way), an exec kubeconfig is refused unrun
    (tmp_path / "kubeconfig.yaml").write_text(_kubeconfig(_exec_user(script)))
    with pytest.raises(UnsafeKubeconfig, match="exec"):
        AgentKubeconfig(tmp_path / "kubeconfig.yaml", pin=False).text()
    assert not runs.exists()


def test_a_runners_kubeconfig_without_a_program_or_file_is_used_as_written(tmp_path: Path):
    text = _kubeconfig({"token": "inline"}) + "# the runner's own comment\n"
    assert _pinned(tmp_path, text).text() == text


def test_the_plugin_asked_for_cluster_info_gets_it(tmp_path: Path):
    seen = tmp_path / "seen.json"
    script = tmp_path / "curious-plugin"
    script.write_text(
        f"#!{sys.executable}\nimport json, os, pathlib\n"
        f"pathlib.Path({str(seen)!r}).write_text(os.environ['KUBERNETES_EXEC_INFO'])\n"
        "print(json.dumps({'apiVersion': 'client.authentication.k8s.io/v1',"
        " 'kind': 'ExecCredential', 'status': {'token': 't'}}))\n"
    )
    script.chmod(0o755)
    user = _exec_user(script)
    user["exec"]["provideClusterInfo"] = True
    _pinned(tmp_path, _kubeconfig(user, {"tls-server-name": "api.internal"})).text()
    asked = json.loads(seen.read_text())
    assert asked["spec"]["cluster"] == {"server": _SERVER, "tls-server-name": "api.internal"}
    assert asked["spec"]["interactive"] is False
