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
        (["get", "ns", "--template=/etc/shadow"], "--template"),
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
