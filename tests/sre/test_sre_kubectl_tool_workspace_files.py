"""The SRE/FinOps kubectl tool reads the agent's own files by relative path (``-f``,
``--from-file``, an inline ``--template``) and still refuses every file past its workspace:
absolute paths, ``..`` or a link that leads out, URLs, kustomize, and flags that write."""

from __future__ import annotations

from pathlib import Path

import pytest

from sre.agents.kubectl_tool import refusal


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace with a subfolder, next to a folder of the host's the agent must not read."""
    folder = tmp_path / "agent"
    (folder / "deploy" / "base").mkdir(parents=True)
    (folder / "settings").mkdir()
    (folder / "settings" / "cache.ini").write_text("size=3\n")
    host = tmp_path / "host-only"
    host.mkdir()
    (host / "private.yaml").write_text("kind: Secret\n")
    return folder


@pytest.mark.parametrize(
    "args",
    [
        ["apply", "-f", "cart.yaml"],
        ["apply", "-f", "deploy/base/cart.yaml", "-n", "shop"],
        ["replace", "--filename=./deploy/svc.yaml"],
        ["create", "-f", "deploy/base/../svc.yaml"],
        ["delete", "-f", "cart.yaml", "--wait=false"],
        ["apply", "-f", "deploy/", "-R"],
        ["create", "configmap", "cache", "--from-file=settings/cache.ini"],
        ["create", "configmap", "cache", "--from-file", "conf=settings/cache.ini"],
        ["create", "configmap", "cache", "--from-env-file=settings/cache.ini"],
        ["patch", "deploy/cart", "--patch-file=deploy/patch.yaml"],
        ["get", "deploy", "cart", "-o", "go-template", "--template={{.spec.replicas}}"],
        ["get", "pods", "--template", "{{range .items}}{{.metadata.name}} {{end}}"],
        # a template, columns or jsonpath file of the workspace, in every spelling
        ["get", "ns", "-o", "go-template-file", "--template=deploy/view.tmpl"],
        ["get", "pods", "-o", "custom-columns-file=settings/cols.txt"],
        ["get", "svc", "--output=jsonpath-file=./deploy/ports.jsonpath"],
        ["get", "pods", "-oGo-Template-File=view.tmpl"],
        # one letter with its file attached, as pflag reads it
        ["apply", "-fdeploy/base/cart.yaml"],
        ["delete", "-f=cart.yaml"],
    ],
)
def test_a_relative_file_of_the_workspace_is_read(workspace: Path, args: list[str]):
    assert refusal(args, workspace) == ""


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["apply", "-f", "/srv/cart.yaml"], "absolute"),
        (["apply", "--filename=/srv/cart.yaml"], "absolute"),
        (["apply", "-f", "../host-only/private.yaml"], "leaves your workspace"),
        (["apply", "-f", "./deploy/../../host-only/private.yaml"], "leaves your workspace"),
        (["apply", "-f", "cart.yaml", "-f", "../host-only/private.yaml"], "leaves"),
        (["apply", "-f", "https://example.org/cart.yaml"], "URL"),
        (["delete", "-f", "http://192.0.2.5/all.yaml"], "URL"),
        (["create", "configmap", "c", "--from-file=../host-only/private.yaml"], "leaves"),
        (["create", "configmap", "c", "--from-file", "k=/etc/hostname"], "absolute"),
        (["create", "secret", "generic", "s", "--from-env-file=/proc/self/environ"], "absolute"),
        (["create", "secret", "tls", "t", "--cert=tls.crt", "--key=../tls.key"], "leaves"),
        (["apply", "-k", "deploy/base"], "-k is not allowed"),
        (["apply", "--kustomize=https://github.com/example/base"], "--kustomize is not allowed"),
        (["get", "ns", "--profile=cpu", "--profile-output=cpu.prof"], "--profile"),
        (["get", "ns", "-o", "go-template-file", "--template=/srv/view.tmpl"], "template file"),
        (["get", "ns", "-o", "Go-Template-File=../view.tmpl"], "template file"),
        (["get", "ns", "-ojsonpath-file=/etc/shadow"], "template file"),
        (["apply", "-f/srv/cart.yaml"], "one by one"),
        (["apply", "-f=../host-only/private.yaml"], "one by one"),
        (["apply", "-Rfdeploy"], "one by one"),  # a value closing a cluster: one by one
    ],
)
def test_a_file_past_the_workspace_is_refused(workspace: Path, args: list[str], said: str):
    assert said in refusal(args, workspace)


def test_a_link_out_of_the_workspace_is_refused(workspace: Path, tmp_path: Path):
    (workspace / "shortcut").symlink_to(tmp_path / "host-only")
    (workspace / "private.yaml").symlink_to(tmp_path / "host-only" / "private.yaml")
    (workspace / "settings.ini").symlink_to(workspace / "settings" / "cache.ini")
    for args in (
        ["apply", "-f", "shortcut/private.yaml"],
        ["apply", "-f", "private.yaml"],
        # '..' after a linked folder is the parent of where the link points
        ["apply", "-f", "shortcut/../host-only/private.yaml"],
        ["create", "configmap", "c", "--from-file=shortcut"],
    ):
        assert "leaves your workspace" in refusal(args, workspace), args
    # a link that stays inside is the agent's own file
    assert refusal(["create", "configmap", "c", "--from-file=settings.ini"], workspace) == ""


@pytest.mark.parametrize(
    "args",
    [
        ["apply", "-f", "cart.yaml"],
        ["create", "configmap", "c", "--from-file=settings/cache.ini"],
    ],
)
def test_without_a_workspace_files_are_refused_and_stdin_named(args: list[str]):
    said = refusal(args)
    assert "no workspace" in said, said
    if "-f" in args:
        assert "stdin" in said, said


def test_a_path_no_file_can_have_is_refused_not_raised(workspace: Path):
    (workspace / "loop-a").symlink_to(workspace / "loop-b")
    (workspace / "loop-b").symlink_to(workspace / "loop-a")
    assert "not a path" in refusal(["apply", "-f", "loop-a/x.yaml"], workspace)
    assert "not a path" in refusal(["apply", "-f", "cart\x00.yaml"], workspace)
