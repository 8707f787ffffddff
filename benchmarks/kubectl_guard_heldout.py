"""MEASUREMENT (the sandbox rules): the guards in front of the kubectl the runner runs for an agent,
on command lines and kubeconfigs written by measurers who never read them
(measurement/kubectl-hostile1/ to measurement/kubectl-hostile3/: each an ``args.json`` and a
``kubeconfigs.json`` of cases labelled "refuse" or "allow" with the measurer's reason).

Three judges, each on the cases it is meant for:
- the SRE/FinOps kubectl tool's ``refusal`` (every command line: the guard in front of it), for
  a tool that has a workspace (as every trial's does: an empty temporary folder here, so a
  relative path is judged by where it leads, not by whether the file exists);
- the core ``host_reach`` alone, given the same workspace (every command line; by design it
  refuses only what reaches host files, the tools' own lists do the rest, so its "refuse" share
  is not a target);
- ``checked_kubeconfig`` (every kubeconfig).
Per set and judge: how many "refuse" cases are refused and how many "allow" cases pass, and each
case judged otherwise with the measurer's reason. Since the agents' kubectl runs confined
(itbench.sandbox.kubectl), a case let through here still reaches only the workspace, read-only,
and the trial's API server. Prints one JSON document; fixes nothing.

    .venv/bin/python benchmarks/kubectl_guard_heldout.py [--sets kubectl-hostile1,kubectl-hostile2,kubectl-hostile3]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable
from pathlib import Path

from itbench.cluster.kubeconfig import UnsafeKubeconfig, checked_kubeconfig
from itbench.cluster.kubectl_guard import host_reach
from sre.agents.kubectl_tool import refusal

MEASUREMENT = Path(__file__).resolve().parent.parent / "measurement"
SETS = ("kubectl-hostile1", "kubectl-hostile2", "kubectl-hostile3")


def _kubeconfig_refused(text: str) -> bool:
    try:
        checked_kubeconfig(text, "kubeconfig.yaml")
    except UnsafeKubeconfig:
        return True
    return False


def _judge(cases: list[dict], refused: Callable[[object], bool], key: str) -> dict:
    out: dict = {}
    for expect in ("refuse", "allow"):
        chosen = [c for c in cases if c["expect"] == expect]
        wrong = [c for c in chosen if refused(c[key]) != (expect == "refuse")]
        out[expect] = {
            "right": len(chosen) - len(wrong),
            "of": len(chosen),
            "judged_otherwise": [
                {key: c[key] if key == "args" else "(kubeconfig)", "why": c["why"]} for c in wrong
            ],
        }
    return out


def measure(folder: Path) -> dict:
    args = json.loads((folder / "args.json").read_text(encoding="utf-8"))
    configs = json.loads((folder / "kubeconfigs.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="itbench-heldout-workspace-") as name:
        workspace = Path(name)
        return {
            "sre_tool": _judge(args, lambda a: bool(refusal(a, workspace)), "args"),
            "core_host_reach": _judge(args, lambda a: bool(host_reach(a, workspace)), "args"),
            "kubeconfig_check": _judge(configs, _kubeconfig_refused, "yaml"),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(SETS))
    chosen = parser.parse_args().sets.split(",")
    print(json.dumps({name: measure(MEASUREMENT / name) for name in chosen}, indent=1))


if __name__ == "__main__":
    main()
