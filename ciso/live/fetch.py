"""``kubectl-opa`` on a live cluster: the agent's fetcher run once per environment (violating,
compliant, each leave-one-in), each deployed under the trial's names only while its fetcher runs,
so every run sees exactly one environment of this trial.

The fetcher runs in the same confinement as a command agent (``--agent-network allow``), with a
self-contained kubeconfig in its working directory: in bubblewrap with the host's network and the
scenario's folders and the itbench caches hidden; with ``--sandbox container`` in a container
with a network of its own (a cluster on the host's loopback reached at the engine's host
address), where only its working directory is bound.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from ciso.evaluation.fetch import COLLECTED, Collection
from ciso.evaluation.record import truncate
from ciso.evaluation.rego import load_collected
from ciso.live import LiveSettings
from ciso.live.client import LiveCluster, LiveError
from ciso.live.deploy import deployed
from ciso.live.kubeconfig import write_flattened
from ciso.scenarios.objects import is_policy
from itbench.cluster import load_manifests
from itbench.sandbox.agent import (
    PRIVATE_HOME,
    AgentConfinement,
    agent_bwrap_argv,
    agent_user,
    cache_dirs,
    run_agent_command,
)
from itbench.sandbox.agent_container import agent_spec, run_agent_container
from itbench.sandbox.backend import current as current_backend
from itbench.sandbox.identity import hand_over

KUBECONFIG_NAME = "kubeconfig.yaml"
MAX_PROCESSES = 256


def run_confined(
    script: Path, workdir: Path, kubeconfig: Path, timeout_s: float, hidden: Sequence[Path]
) -> Collection:
    """``bash <script>`` in ``workdir`` against the cluster of ``kubeconfig``."""
    workdir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(script, workdir / script.name)
    shutil.copyfile(kubeconfig, workdir / KUBECONFIG_NAME)
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "HOME": PRIVATE_HOME,
        "TMPDIR": "/tmp",
        "KUBECONFIG": str((workdir / KUBECONFIG_NAME).resolve()),
    }
    confinement = AgentConfinement(network="allow", max_processes=MAX_PROCESSES)
    # run as root, the sandbox drops to an unprivileged uid: the folder is handed over to it
    hand_over(workdir, agent_user(confinement))
    command = f"bash {script.name}"
    started = time.monotonic()
    try:
        if current_backend() == "container":
            spec = agent_spec(
                command,
                workspace=workdir,
                read_only_inputs=(),
                confinement=confinement,
                env=env,
            )
            outcome = run_agent_container(spec, timeout_s=timeout_s, confinement=confinement)
        else:
            argv = agent_bwrap_argv(
                command,
                workspace=workdir,
                read_only_inputs=(),
                hidden=hidden,
                confinement=confinement,
                env=env,
            )
            outcome = run_agent_command(
                argv, cwd=workdir, env=None, timeout_s=timeout_s, max_processes=MAX_PROCESSES
            )
    except subprocess.TimeoutExpired:
        return Collection(
            None, f"did not finish within {timeout_s:g} s", "", time.monotonic() - started
        )
    seconds = time.monotonic() - started
    output = truncate(
        (f"stdout:\n{outcome.stdout}\n" if outcome.stdout.strip() else "")
        + (f"stderr:\n{outcome.stderr}" if outcome.stderr.strip() else "")
    )
    if outcome.exit_code != 0:
        return Collection(None, f"exited with code {outcome.exit_code}", output, seconds)
    data, problem = load_collected(workdir / COLLECTED)
    return Collection(data, problem, output, seconds)


def live_fetcher_batch(
    settings: LiveSettings,
    suffix: str,
    script: Path,
    root: Path,
    environments: Sequence[tuple[str, Path]],
    timeout_s: float,
    hidden: Sequence[Path] = (),
) -> dict[str, Collection]:
    """label -> what the fetcher collected with that environment deployed on the live cluster."""
    root.mkdir(parents=True, exist_ok=True)
    kubeconfig = write_flattened(settings.kubeconfig, root / KUBECONFIG_NAME)
    hidden = [*hidden, *cache_dirs()]
    found: dict[str, Collection] = {}
    hung = False
    cluster = LiveCluster.connect(settings.kubeconfig)
    for index, (label, source) in enumerate(environments):
        if hung:  # a fetcher that hung once would hang again: do not pay its limit every time
            found[label] = Collection(
                None, "not run: the fetcher hit its time limit on an earlier environment", "", 0.0
            )
            continue
        objects = [o for o in load_manifests(source) if not is_policy(o)]
        try:
            with deployed(cluster, objects, suffix, settings):
                found[label] = run_confined(
                    script, root / f"run-{index}", kubeconfig, timeout_s, hidden
                )
        except LiveError as exc:
            found[label] = Collection(None, f"live cluster: {exc}", "", 0.0)
        hung = found[label].problem.startswith("did not finish")
    return found
