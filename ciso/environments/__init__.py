"""The environment around a CISO agent while it works, and the same environments for people.

- ``kyverno``, ``kubectl-opa``, ``kyverno-update``: an offline cluster serving the violating
  environment (plus the deployed policies of an update scenario), its kubeconfig in the workspace
  as ``kubeconfig.yaml``; Kyverno PolicyReports appear as a background scan would write them. On
  exit, what the agent applied is saved to ``.itbench/cluster-applied.json`` for the evaluator.
- ``rhel9-ansible-opa``: ``inventory.ini`` (group ``rhel9_servers``) whose host is the sandbox over
  the violating host tree.
- ``opa-static``: nothing (the runner copies ``static-resources/`` into the workspace).

The compliant environment is never exposed to an agent; ``itbench ciso env --compliant`` serves it
to a person.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ciso.scenarios.model import CisoScenario, Platform, ScenarioClass
from itbench import jsonsafe
from itbench.errors import InputError
from itbench.fsutil import agent_file, atomic_write_text, read_agent_text, real_directory
from itbench.models import Scenario

if TYPE_CHECKING:
    from typing import TypeAlias

    from ciso.live import LiveSettings

    #: A ciso benchmark scenario: its ground truth is the CisoScenario it was built from, its
    #: reference the solution's files (workspace name -> source). For the type checker only:
    #: scenarios are built unparametrised.
    CisoBenchmarkScenario: TypeAlias = Scenario[CisoScenario, Mapping[str, Path]]

CLUSTER_CLASSES = frozenset(
    {ScenarioClass.KYVERNO, ScenarioClass.KUBECTL_OPA, ScenarioClass.KYVERNO_UPDATE}
)
#: The classes ``--kubeconfig`` moves onto a live cluster.
LIVE_CLASSES = frozenset({ScenarioClass.KYVERNO, ScenarioClass.KUBECTL_OPA})
KUBECONFIG_FILE = "kubeconfig.yaml"
INVENTORY_FILE = "inventory.ini"
HOST_GROUP = "rhel9_servers"
#: Where the evaluator finds what the agent applied to the cluster.
APPLIED_FILE = Path(".itbench") / "cluster-applied.json"
#: The agent's private copy of the violating host tree (modes applied).
HOST_TREE_DIR = Path(".itbench") / "host"


def ciso_truth(scenario: CisoBenchmarkScenario | CisoScenario) -> CisoScenario:
    """The CisoScenario behind a benchmark scenario (its ground truth), or the one given."""
    return scenario if isinstance(scenario, CisoScenario) else scenario.ground_truth


def report_producer(
    policies: Sequence[dict[str, Any]], resources: Sequence[dict[str, Any]]
) -> list:
    """The live cluster's background scan: PolicyReports whose apiCall entries read the cluster's
    own objects."""
    from ciso.engines.kyverno.reports import policy_reports
    from ciso.environments.api_calls import context_for

    return policy_reports(policies, resources, context_for(resources))


@contextmanager
def serve(
    scenario: CisoScenario, directory: Path, compliant: bool = False
) -> Iterator[dict[str, str]]:
    """Serve one environment of ``scenario`` from ``directory``: yields the environment variables
    a client needs (``KUBECONFIG``, or ``ITBENCH_INVENTORY`` and ``ITBENCH_HOST_TREE``)."""
    if compliant and scenario.compliant is None:
        raise InputError(f"scenario {scenario.id!r} has no compliant environment")
    if scenario.platform is Platform.RHEL9:
        yield _host_environment(scenario, directory, compliant)
        return
    from ciso.scenarios.objects import declared_objects
    from itbench.cluster import start_cluster

    # absolute: agents and fetchers run kubectl from other working directories
    kubeconfig = (directory / KUBECONFIG_FILE).resolve()
    with start_cluster(
        declared_objects(scenario, compliant),
        kubeconfig=kubeconfig,
        report_producer=report_producer,
    ) as cluster:
        try:
            yield {"KUBECONFIG": str(kubeconfig)}
        finally:
            # the workspace is the agent's: .itbench may have become a link to anywhere
            folder = real_directory(directory, APPLIED_FILE.parent)
            # compact: the file is bounded by the cluster's stored-bytes budget
            atomic_write_text(folder / APPLIED_FILE.name, cluster.overlay_text())


def _host_environment(scenario: CisoScenario, directory: Path, compliant: bool) -> dict[str, str]:
    from ciso.engines.ansible import local_inventory
    from ciso.environments.hosts import locate, prepare

    source = scenario.compliant if compliant else scenario.violating
    assert source is not None
    tree, _notes = prepare(locate(source), directory / HOST_TREE_DIR)
    inventory = directory / INVENTORY_FILE
    inventory.write_text(
        "# the host of group rhel9_servers is the sandbox over this host tree:\n"
        f"# {tree}\n"
        "# run a playbook against it with: itbench ansible run playbook.yml --host-tree <tree>\n"
        + local_inventory(HOST_GROUP),
        encoding="utf-8",
    )
    return {"ITBENCH_INVENTORY": str(inventory.resolve()), "ITBENCH_HOST_TREE": str(tree.resolve())}


@contextmanager
def trial_environment(
    scenario: CisoBenchmarkScenario | CisoScenario,
    workspace: Path,
    live: LiveSettings | None = None,
) -> Iterator[Mapping[str, str]]:
    """The violating environment around one trial: on the live cluster of ``live`` (the run's
    session gives it) for the classes that run there, else offline."""
    truth = ciso_truth(scenario)
    live = live if truth.scenario_class in LIVE_CLASSES else None
    if live is not None:
        from ciso.live.environment import live_trial_environment

        with live_trial_environment(truth, workspace, live) as env:
            yield env
    elif truth.scenario_class in CLUSTER_CLASSES or truth.platform is Platform.RHEL9:
        with serve(truth, workspace) as env:
            yield env
    else:
        yield {}


def read_applied(workspace: Path) -> dict[str, list]:
    """What the agent applied to its cluster (written when the trial environment closed)."""
    path = agent_file(workspace, APPLIED_FILE)  # UnsafeFile when a link stands in the way
    if path is None:
        return {"applied": [], "deleted": []}
    try:
        data = jsonsafe.loads(read_agent_text(path), str(path))
    except jsonsafe.TooDeep:
        raise
    except (OSError, ValueError) as exc:  # UnicodeDecodeError, JSONDecodeError
        raise InputError(f"{path}: unreadable record of the cluster's changes: {exc}") from None
    return {"applied": list(data.get("applied") or []), "deleted": list(data.get("deleted") or [])}
