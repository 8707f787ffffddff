"""itbench.cluster.kubectl_guard: what an agent's kubectl arguments may not ask for, in every
spelling kubectl's flag parser accepts."""

from __future__ import annotations

import pytest

from itbench.cluster.kubectl_guard import host_reach


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["apply", "-f=/srv/answer.yaml"], "one by one"),
        (["apply", "-f/srv/answer.yaml"], "one by one"),
        (["apply", "-Rf", "/srv"], "one by one"),
        (["get", "ns", "-shttps://elsewhere"], "one by one"),
        (["get", "ns", "-o", "go-template-file=/etc/shadow"], "template file"),
        (["get", "ns", "--output=jsonpath-file=/etc/shadow"], "template file"),
        (["get", "ns", "-ogo-template-file=/etc/shadow"], "template file"),
        (["get", "ns", "-o=custom-columns-file=/etc/shadow"], "template file"),
        (["get", "ns", "--profile=cpu", "--profile-output=/etc/passwd"], "--profile"),
        (["get", "ns", "--log-file", "/etc/passwd"], "--log-file"),
        # --template is inline text unless -o names a format read from a file
        (["get", "ns", "-o", "go-template-file", "--template=/etc/shadow"], "template file"),
        (["get", "ns", "-o", "templatefile", "--template", "/etc/shadow"], "template file"),
        (["kustomize", "-k", "/etc"], "-k"),
        # a command's own flags that read a host file into an object, or write the cluster out
        (["create", "configmap", "c", "--from-file=/etc/shadow"], "--from-file"),
        (["create", "configmap", "c", "--from-file", "k=/root/.ssh/id_rsa"], "--from-file"),
        (["create", "secret", "generic", "s", "--from-env-file=/proc/1/environ"], "--from-env"),
        (["create", "secret", "tls", "t", "--cert=/etc/a.pem", "--key", "/etc/a.key"], "--cert"),
        (["patch", "deploy/web", "--patch-file=/srv/answer.yaml"], "--patch-file"),
        (["cluster-info", "dump", "--output-directory=/etc/cron.d"], "--output-directory"),
    ],
)
def test_what_reaches_the_host_is_refused(args, said):
    assert said in host_reach(args)


@pytest.mark.parametrize(
    "args",
    [
        ["get", "pods", "-A", "-ojson"],
        ["get", "pods", "-lapp=web", "-nshop", "-o", "wide"],
        ["get", "pods", "-o", "jsonpath={.items[0].metadata.name}"],
        ["apply", "-f", "-"],
        ["-n", "shop", "patch", "deploy/web", '-p{"spec":{}}'],
        ["logs", "web-0", "-cmain", "-f"],
        ["get", "pods", "-v4"],
    ],
)
def test_ordinary_calls_pass(args):
    assert host_reach(args) == ""


# --- what kubectl runs besides itself -----------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["whoami"],  # a plugin: kubectl-whoami from PATH
        ["-n", "shop", "tree", "deploy/web"],
        ["--namespace=shop", "neat", "get", "pod"],
    ],
)
def test_a_word_kubectl_does_not_know_is_a_plugin_and_refused(args):
    assert "not a kubectl command" in host_reach(args)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["diff", "-f", "-"], "diff program"),
        (["-n", "shop", "edit", "deploy/web"], "editor"),
        (["plugin", "list"], "PATH"),
        (["create", "--edit", "-f", "-"], "editor"),
        (["create", "-f-", "--edit=true"], "editor"),
        (["apply", "edit-last-applied", "deploy/web"], "editor"),
    ],
)
def test_a_command_that_runs_another_program_is_refused(args, said):
    assert said in host_reach(args)


# --- flags read per command, as kubectl's parser reads them ----------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["logs", "-f", "deploy/api"],  # follow, not a file
        ["logs", "pod/web-1", "-fp", "--since=5m"],  # follow and previous, packed
        ["get", "svc", "-Ao", "yaml"],  # all namespaces, then output
        ["get", "svc", "-Aoyaml"],
        ["create", "-f-"],  # stdin
        ["replace", "-f=-", "-nteam"],
        ["logs", "web-1", "--tail", "-1"],  # a negative number is a value
        ["create", "-f-", "--edit=false"],
    ],
)
def test_packed_and_per_command_flags_read_as_kubectl_reads_them(args):
    assert host_reach(args) == ""


@pytest.mark.parametrize(
    "args",
    [
        ["get", "svc", "-Af", "/srv/held.yaml"],  # a file behind a switch
        ["get", "svc", "-Af/srv/held.yaml"],
        ["get", "svc", "-Z"],  # a letter kubectl does not know
        ["get", "svc", "-A=yes"],  # a value given to a switch
        ["proxy", "-w", "/srv"],  # proxy serves that folder
    ],
)
def test_what_hides_behind_a_switch_is_refused(args):
    assert host_reach(args)


@pytest.mark.parametrize(
    ("args", "read"),
    [
        (["logs", "-f", "pod/x"], []),
        (["apply", "-Rf", "dir"], ["dir"]),
        (["apply", "--filename", "a.yaml", "-f=b.yaml", "-fc.yaml", "--filename=d.yaml"],
         ["a.yaml", "b.yaml", "c.yaml", "d.yaml"]),
        (["create", "-f-"], ["-"]),
    ],
)  # fmt: skip
def test_filenames_are_what_kubectl_reads(args, read):
    from itbench.cluster.kubectl_guard import filenames

    assert filenames(args) == read


# --- what the confined call may read: the caller's workspace, by relative path ------------------
def test_an_inline_template_and_a_workspace_file_pass(tmp_path):
    (tmp_path / "conf").mkdir()
    assert host_reach(["get", "svc", "-o", "go-template", "--template={{.spec.type}}"]) == ""
    assert host_reach(["get", "svc", "--template", "{{.kind}}"]) == ""
    reads = ["create", "configmap", "c", "--from-file=conf/app.env"]
    assert host_reach(reads, tmp_path) == ""
    assert (
        host_reach(["create", "secret", "tls", "t", "--cert=a.crt", "--key=a.key"], tmp_path) == ""
    )
    # without a workspace there is nothing of the caller's to read
    assert "no workspace" in host_reach(reads)
    assert "leaves your workspace" in host_reach(
        ["create", "configmap", "c", "--from-file", "conf/../../x"], tmp_path
    )
