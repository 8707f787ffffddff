"""The kubectl-opa fetch driver builds its cluster's extensions from the domains' named hooks
(handed in from outside the sandbox) instead of loading every domain plugin: the same cluster per
environment, for less start-up.

Run for real: bubblewrap, the driver, its API server and kubectl, in a fixed order of
environments (the evaluation shuffles them), once with the named hooks and once loading every
domain in the sandbox (``extension_hooks: null``, the earlier path)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ciso.evaluation.fetch_driver import OUTCOME
from itbench.cluster.extensions import (
    domain_extensions,
    extension_hooks,
    extensions_from_hooks,
)
from itbench.sandbox import run_sandboxed
from tests._support.ciso import kubectl_missing, needs_sandbox

POLICY = Path(__file__).resolve().parents[2] / "policies/kyverno/cis-k8s-5.2.2-privileged"

#: pods (core), a Kyverno ClusterPolicy (the ciso extension, whose background scan writes
#: PolicyReports) and an Istio PeerAuthentication (the sre extension)
FETCHER = """set -euo pipefail
kubectl get pods,clusterpolicies,policyreports,peerauthentications -A -o json >collected_data.json
"""

PRIVILEGED_POD = """apiVersion: v1
kind: Pod
metadata: {name: tuner, namespace: ops}
spec:
  containers:
    - {name: c, image: busybox, securityContext: {privileged: true}}
"""
PLAIN_POD = """apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  containers: [{name: c, image: nginx}]
"""
PEER_AUTHENTICATION = """apiVersion: security.istio.io/v1
kind: PeerAuthentication
metadata: {name: strict, namespace: shop}
spec: {mtls: {mode: STRICT}}
"""


def _environments(tmp_path: Path) -> dict[str, Path]:
    with_policy = tmp_path / "manifests-policy"
    with_policy.mkdir()
    (with_policy / "pod.yaml").write_text(PRIVILEGED_POD)
    shutil.copyfile(POLICY / "policy.yaml", with_policy / "policy.yaml")
    with_mesh = tmp_path / "manifests-mesh"
    with_mesh.mkdir()
    (with_mesh / "pod.yaml").write_text(PLAIN_POD)
    (with_mesh / "mesh.yaml").write_text(PEER_AUTHENTICATION)
    return {"policy": with_policy, "mesh": with_mesh}


def _drive(
    root: Path,
    environments: dict[str, Path],
    hooks: Any,
    fetcher: str = FETCHER,
    parse: bool = True,
) -> dict[str, Any]:
    """One sandboxed driver over the environments in the given order; name -> (outcome, the
    kinds and names it collected)."""
    root.mkdir()
    runs = []
    for name, manifests in environments.items():
        shutil.copytree(manifests, root / f"env-{name}")
        workdir = root / f"run-{name}"
        workdir.mkdir()
        (workdir / "fetcher.sh").write_text(fetcher)
        runs.append(
            {
                "manifests": str(root / f"env-{name}"),
                "workdir": str(workdir),
                "script": "fetcher.sh",
                "timeout_s": 60,
            }
        )
    spec = root / "spec.json"
    spec.write_text(json.dumps({"runs": runs, "extension_hooks": hooks}))
    result = run_sandboxed(
        [sys.executable, "-m", "ciso.evaluation.fetch_driver", str(spec)],
        out_dir=root,
        timeout_s=120,
    )
    assert result.exit_code == 0, result.stderr
    found = {}
    for name in environments:
        outcome = json.loads((root / f"run-{name}" / OUTCOME).read_text())
        assert outcome["exit_code"] == 0, outcome
        if not parse:
            continue
        items = json.loads((root / f"run-{name}" / "collected_data.json").read_text())["items"]
        found[name] = sorted(
            (
                item["kind"],
                item["metadata"].get("namespace", ""),
                # a report is named by its resource's uid (random): its scope names it here
                str((item.get("scope") or {}).get("name", item["metadata"]["name"])),
                # a report's verdicts: what the ciso extension's background scan decided
                json.dumps(
                    sorted(
                        (r.get("policy"), r.get("rule"), r.get("result")) for r in item["results"]
                    )
                )
                if "results" in item
                else "",
            )
            for item in items
        )
    return found


def _fetcher_runs(tmp_path: Path, folder: str, fetcher: str) -> dict[str, Path]:
    """``fetcher`` run by one sandboxed driver with the named hooks over every environment, its
    output left unparsed: the folder each environment's run left, by environment."""
    environments = _environments(tmp_path)
    hooks = extension_hooks()
    assert hooks is not None
    root = tmp_path / folder
    _drive(root, environments, [list(h) for h in hooks], fetcher, parse=False)
    return {name: root / f"run-{name}" for name in environments}


def _collected(run: Path) -> Any:
    """What a fetcher's run wrote to collected_data.json, read as JSON."""
    return json.loads((run / "collected_data.json").read_text())


@needs_sandbox
@pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))
def test_named_hooks_serve_each_environment_as_loading_every_domain_does(tmp_path: Path) -> None:
    environments = _environments(tmp_path)
    hooks = extension_hooks()
    assert hooks is not None
    named = _drive(tmp_path / "named", environments, [list(h) for h in hooks])
    every_domain = _drive(tmp_path / "every-domain", environments, None)
    for name in environments:  # per environment: the same objects, the same report verdicts
        assert named[name] == every_domain[name], name
    kinds = {name: {entry[0] for entry in found} for name, found in named.items()}
    # each environment sees its own extension objects only
    assert kinds["policy"] == {"Pod", "ClusterPolicy", "PolicyReport"}
    assert kinds["mesh"] == {"Pod", "PeerAuthentication"}
    report = next(entry for entry in named["policy"] if entry[0] == "PolicyReport")
    assert '"fail"' in report[3]  # the privileged pod fails the policy's background scan


def test_named_hooks_build_the_extensions_every_domain_builds() -> None:
    hooks = extension_hooks()
    assert hooks is not None and hooks, "the installed domains name their extension hooks"
    built, loaded = extensions_from_hooks(hooks), domain_extensions()
    assert [e.name for e in built] == [e.name for e in loaded]
    assert [e.types for e in built] == [e.types for e in loaded]
    assert [sorted(e.columns) for e in built] == [sorted(e.columns) for e in loaded]


def test_the_driver_does_not_load_the_domain_plugins(tmp_path: Path) -> None:
    """The start-up it saves: no domain plugin module (nor what its top imports) in the driver's
    process, only the modules defining the extensions."""
    hooks = extension_hooks()
    assert hooks is not None
    probe = (
        "import sys, json\n"
        "from pathlib import Path\n"
        "import ciso.evaluation.fetch_driver as driver\n"
        f"driver.KUBECONFIG = Path({str(tmp_path / 'kubeconfig')!r})\n"
        f"cluster = driver.Cluster({[list(h) for h in hooks]!r})\n"
        "cluster.server.shutdown()\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.endswith('.plugin'))))\n"
    )
    loaded = json.loads(
        subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True
        ).stdout
    )
    assert loaded == []


def test_a_hook_that_fails_costs_its_domain_only(capsys: pytest.CaptureFixture[str]) -> None:
    hooks = extension_hooks()
    assert hooks is not None
    built = extensions_from_hooks([("broken", "no_such_module_anywhere:extension"), *hooks])
    assert [e.name for e in built] == [e.name for e in extensions_from_hooks(hooks)]
    assert "domain 'broken'" in capsys.readouterr().err


#: Leaves a process behind in a session of its own (out of its process group's reach) that keeps
#: listing the cluster's pods into the run's folder, then collects as usual.
#: the first run leaves a watcher writing what it lists where the second run will look (the
#: scratch folder is emptied between runs, so only a watcher still alive could fill it)
LEAVES_A_WATCHER = """set -euo pipefail
sleep 1
found=$(cat /tmp/watch.txt 2>/dev/null || true)
setsid bash -c 'for i in $(seq 100); do kubectl get pods -A -o name >>/tmp/watch.txt 2>/dev/null; sleep 0.1; done' \\
  </dev/null >/dev/null 2>&1 &
sleep 1.5
printf '%s' "$found" >collected_data.json
"""


@needs_sandbox
@pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))
def test_what_a_fetcher_leaves_running_never_sees_the_next_environment(tmp_path: Path) -> None:
    runs = _fetcher_runs(tmp_path, "watched", LEAVES_A_WATCHER)
    # neither run found anything a watcher of an earlier run wrote while it was served
    assert (runs["policy"] / "collected_data.json").read_text() == ""
    assert (runs["mesh"] / "collected_data.json").read_text() == ""


#: each run counts what earlier runs left in every place it can write (the scratch folders, the
#: output root, its own and the other runs' folders, System V shared memory), then leaves its own
LEAVES_TRACES = """set -uo pipefail
places="/tmp /var/tmp /run /dev/shm .. $(ls -d ../run-* 2>/dev/null)"
found=0
for p in $places; do
  n=$(ls -A "$p" 2>/dev/null | grep -c '^trace-')
  found=$((found + n))
done
segments=$(ipcs -m 2>/dev/null | grep -c '^0x')
printf '{"found": %s, "segments": %s}' "$found" "$segments" >collected_data.json
for p in $places; do echo "$PWD" >"$p/trace-$RANDOM" 2>/dev/null; done
ipcmk -M 4096 >/dev/null 2>&1
mkdir -p closed && touch closed/trace-inside && chmod 000 closed
exit 0
"""


@needs_sandbox
@pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))
def test_no_file_or_shared_memory_of_one_run_reaches_the_next(tmp_path: Path) -> None:
    runs = _fetcher_runs(tmp_path, "traced", LEAVES_TRACES)
    for name, run in runs.items():
        assert _collected(run) == {"found": 0, "segments": 0}, name
        # what the evaluator reads is all a run's folder keeps
        assert sorted(p.name for p in run.iterdir()) == [
            OUTCOME,
            "collected_data.json",
        ]


#: the driver holds every environment's objects in memory: a fetcher must not read it
READS_THE_DRIVER = """set -euo pipefail
python3 - >collected_data.json <<'PY'
import glob, json, sys
seen = {}
for d in glob.glob("/proc/[0-9]*"):
    try:
        command = open(d + "/cmdline", "rb").read()
    except OSError:
        continue
    if b"fetch_driver" not in command:
        continue
    for name in ("mem", "environ", "maps"):
        try:
            with open(d + "/" + name, "rb") as f:
                f.read(1)
            seen[name] = "read"
        except OSError as exc:
            seen[name] = type(exc).__name__
json.dump(seen, sys.stdout)
PY
"""


@needs_sandbox
@pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))
def test_a_fetcher_cannot_read_the_drivers_memory(tmp_path: Path) -> None:
    runs = _fetcher_runs(tmp_path, "reader", READS_THE_DRIVER)
    for name, run in runs.items():
        seen = _collected(run)
        assert seen == {"mem": "PermissionError", "environ": "PermissionError",
                        "maps": "PermissionError"}, name  # fmt: skip


#: every request kubectl makes, as paths without the query
LOGS_REQUESTS = """set -euo pipefail
kubectl get pods -A -o json -v=6 2>requests.log >/dev/null
python3 - >collected_data.json <<'PY'
import json, re, sys
text = open("requests.log").read()
json.dump([re.sub(r"^https?://[^/]+", "", u).split("?")[0] for u in re.findall(r"GET (\\S+)", text)], sys.stdout)
PY
"""


@needs_sandbox
@pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))
def test_kubectl_asks_each_cluster_for_the_objects_only(tmp_path: Path) -> None:
    """The driver writes kubectl's discovery cache for each environment: a kubectl call makes
    no discovery request (``/api``, ``/apis``, one per group version), only the object list."""
    runs = _fetcher_runs(tmp_path, "requests", LOGS_REQUESTS)
    for name, run in runs.items():
        requests = _collected(run)
        assert requests == ["/api/v1/pods"], name


#: lists the core types kubectl knows of, then plants one more in its discovery cache and lists
#: them again: the plant works within the run and must be gone in the next one
PLANTS_A_TYPE = """set -euo pipefail
kubectl api-resources --cached --api-group= -o name >before.txt
python3 - <<'PY'
import glob, json, os
for path in glob.glob(os.environ["KUBECACHEDIR"] + "/discovery/*/v1/serverresources.json"):
    document = json.load(open(path))
    document["resources"].append(
        {"name": "planteds", "singularName": "planted", "namespaced": True, "kind": "Planted",
         "verbs": ["get", "list"]}
    )
    json.dump(document, open(path, "w"))
PY
kubectl api-resources --cached --api-group= -o name >after.txt
python3 - >collected_data.json <<'PY'
import json, sys
json.dump([[t for t in open(f).read().split() if t.startswith("planted")]
           for f in ("before.txt", "after.txt")], sys.stdout)
PY
"""


@needs_sandbox
@pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))
def test_what_a_run_plants_in_kubectls_cache_never_reaches_the_next(tmp_path: Path) -> None:
    """Each run's discovery cache is written afresh from the state served: a type one run adds
    to it (seen by its own second kubectl call) is not there for the next run."""
    runs = _fetcher_runs(tmp_path, "planted", PLANTS_A_TYPE)
    for name, run in runs.items():
        seen = _collected(run)
        assert seen == [[], ["planteds"]], name


#: what the fetcher's programs see of Go's runtime settings, and the data limit they run under
#: (``ulimit -d``, in KiB)
REPORTS_GO_SETTINGS = """set -euo pipefail
printf '{"gogc": "%s", "memlimit": "%s", "data_kib": "%s"}' \\
  "${GOGC:-}" "${GOMEMLIMIT:-}" "$(ulimit -d)" >collected_data.json
"""


@needs_sandbox
@pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))
def test_kubectl_collects_garbage_lazily_below_half_the_data_limit(tmp_path: Path) -> None:
    """The fetcher's kubectl collects at four times its live heap (a fifth less CPU per call),
    with a soft memory limit of half the sandbox's data limit: near it the collector runs as
    often as it must, so a kubectl that fitted before still fits."""
    runs = _fetcher_runs(tmp_path, "go", REPORTS_GO_SETTINGS)
    for name, run in runs.items():
        seen = _collected(run)
        assert seen["gogc"] == "400", name
        assert seen["data_kib"] != "unlimited", name  # the sandbox limits its data
        assert int(seen["memlimit"]) == int(seen["data_kib"]) * 1024 // 2, name


def test_the_operators_go_settings_stand() -> None:
    """A GOGC or GOMEMLIMIT the evaluation runs with is left as it is."""
    from ciso.evaluation.fetch_driver import go_runtime

    assert go_runtime({"GOGC": "100"}) == {}
    assert go_runtime({"GOMEMLIMIT": "300MiB"}) == {}
    assert go_runtime({})["GOGC"] == "400"
