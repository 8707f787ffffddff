"""What an agent sees of a CISO scenario: the task text, the title and the inputs.

The task texts are ITBench's goal templates (``goal_template`` of each bundle, typos included, so
results stay comparable with the paper) with our requirement substituted, followed by where
things are in the agent's working directory. Nothing here reads the compliant environment, the
solution or the notes: :func:`to_benchmark_scenario` hands them on only as hidden fields.
"""

from __future__ import annotations

import re
from typing import Any

from ciso.scenarios.model import CisoScenario, ScenarioClass
from itbench.models import Scenario

KUBECONFIG_FILE = "kubeconfig.yaml"
INVENTORY_FILE = "inventory.ini"
STATIC_RESOURCES = "static-resources"

# ITBench's goal templates (ciso README "The agent is expected to do following task request").
_KYVERNO_GOAL = (
    "I would like to check if the following condition is satisfiled, given a Kubernetes cluster "
    "with `kubeconfig.yaml`\n    {goal}\n\nTo check the condition, do the following steps. \n"
    "- deploy a Kyverno policy to the cluster\n- chcek if the policy is correctly deployed. \n\n"
    "If deploying the policy failed and if you can fix the issue, you will do it and try "
    "deploying again.\nOnce you get a final answer, you can quit the work.\n\n"
    "The cluster's kubeconfig is at `{kubeconfig}`.\n"
)
_KUBECTL_OPA_GOAL = (
    "I would like to check if the following condition is satisfiled, given a Kubernetes cluster "
    "with `kubeconfig.yaml`\n    {goal}\n\nTo check the condition, do the following steps. \n"
    "- get related resource(s) on the cluster by kubectl command\n"
    "- chcek if the conditions are satisfied by OPA Rego policy\n\n"
    "for those steps, you need to create an OPA Rego policy `policy.rego`. \n"
    "Also, save the kubectl command as `script.sh` with the following design. \n"
    "- The script should output the collected related resources to a file named "
    "`collected_data.json` in the current working directory.\n"
    "- Please remove any kubeconfig configuration (e.g. --kubeconfig args) from the script, as "
    "users will configure the kubeconfig using environment variables or other methods.\n\n"
    "If running the policy failed and if you can fix the issue, you will do it and try running "
    "again.\n\nOnce you get a final answer, you can quit the work.\n\n"
    "The cluster's kubeconfig is at `{kubeconfig}`.\n"
)
_RHEL9_GOAL = (
    "I would like to check if the following condition is satisfiled, given a host name "
    "`rhel9_servers`, on RHEL by using Ansible Playbook and OPA Rego policy\n    {goal}\n\n"
    "To check the condition, do the following steps. \n"
    "- collect configuration from the RHEL host and save it locally. you can use "
    "ansible-playbook to do that. \n"
    "- chcek if the condition is met by using rego policy with the input given by the step "
    "above. \n\n"
    "for those steps, you need to create ansible playbook `playbook.yml` and OPA rego policy "
    "`policy.rego`.\nThe playbook is implemented to locate the collected data to a file named "
    "`collected_data.json` in the current working directory.\n\n"
    "If you can fix the generated code, do it and run the fixed code again.\n"
    "Once you get a final answer, you can quit the work.\n\n"
    "The Ansible inventory file (inventory.ansible.ini) for the target RHEL server is located "
    "at `{inventory}`.\n"
)
#: ITBench-Lite's problem.md texts are not public; ours follows the kubectl-opa goal's shape.
_OPA_STATIC_GOAL = (
    "I would like to check if the following condition is satisfied, given Kubernetes resources "
    "saved as YAML files in `static-resources/`\n    {goal}\n\n"
    "To check the condition, do the following steps.\n"
    "- read the related resource(s) from the YAML files with a script\n"
    "- check if the conditions are satisfied by OPA Rego policy\n\n"
    "for those steps, you need to create an OPA Rego policy `policy.rego` (package `check`, a "
    "boolean rule `result` that is `false` when the condition is violated and `true` "
    "otherwise).\nAlso, create a script `fetch.sh` with the following design.\n"
    "- It starts with a shebang (`#!/usr/bin/env bash`); it is run as `./fetch.sh`.\n"
    "- It reads every `*.yaml`/`*.yml` file under `./static-resources/` and writes the "
    "resources to a file named `collected_data.json` in the current working directory.\n"
    "- It uses relative paths only: it will also be run on other resources.\n\n"
    "If running the policy failed and if you can fix the issue, you will do it and try running "
    "again.\n\nOnce you get a final answer, you can quit the work.\n"
)

#: ITBench has no migration class; ours follows the kyverno goal's shape.
_MIGRATE_GOAL = (
    "I would like to migrate a working {source_engine} policy to {target_dialect}, keeping what "
    "it checks exactly as it is. The policy checks this condition:\n    {goal}\n\n"
    "The policy to migrate is `{source}` ({source_kinds}). Write the same control as a "
    "{target_kinds} (`{target_api}`): every resource the source policy reports as failing must "
    "fail, every resource it lets pass must pass, including its exclusions and the pod "
    "controllers it covers.\n\nOnce you get a final answer, you can quit the work.\n"
)

#: Where things are in the working directory, after the original text.
_WHERE = {
    ScenarioClass.KYVERNO: (
        "\nThe kubeconfig file `{kubeconfig}` is in the current working directory (`KUBECONFIG` "
        "is also set). Save the policy you deploy as `kyverno-policy.yaml` in the current "
        "working directory as well.\n"
    ),
    ScenarioClass.KUBECTL_OPA: (
        "\nThe kubeconfig file `{kubeconfig}` is in the current working directory and `KUBECONFIG` "
        "is set. Write `policy.rego` and the script (`fetcher.sh`; `script.sh` is also accepted) "
        "in the current working directory; the policy is evaluated as `data.check.result`.\n"
    ),
    ScenarioClass.RHEL9_ANSIBLE_OPA: (
        "\nThe inventory file `{inventory}` is in the current working directory; the play must "
        "target the group `rhel9_servers`. Write `playbook.yml` and `policy.rego` in the current "
        "working directory; the policy is evaluated as `data.check.result`.\n"
    ),
    ScenarioClass.OPA_STATIC: (
        "\nThe resources are in `static-resources/` in the current working directory. Write "
        "`fetch.sh` and `policy.rego` there.\n"
    ),
    ScenarioClass.KYVERNO_UPDATE: (
        "\nThe kubeconfig file `{kubeconfig}` is in the current working directory (`KUBECONFIG` "
        "is also set). Save each policy you edit as YAML in the current working directory as "
        "well (e.g. `kyverno-policy.yaml`).\n"
    ),
    ScenarioClass.KYVERNO_MIGRATE: (
        "\n`{source}` is in the current working directory. Save the migrated policy as "
        "`kyverno-policy.yaml` there.\n"
    ),
}


def goal_text(scenario: CisoScenario) -> str:
    """The original goal template of the class with the requirement substituted, plus where the
    agent's files are."""
    values = {
        "goal": scenario.requirement,
        "kubeconfig": KUBECONFIG_FILE,
        "inventory": INVENTORY_FILE,
    }
    cls = scenario.scenario_class
    if cls is ScenarioClass.KYVERNO_UPDATE:
        # ITBench's update goal is the bundle's goal verbatim plus the kubeconfig line
        body = f"{scenario.requirement}\n\nThe cluster's kubeconfig is at `{KUBECONFIG_FILE}`.\n"
    elif cls is ScenarioClass.KYVERNO_MIGRATE:
        body = _migrate_goal(scenario)
    elif scenario.origin == "itbench-lite":
        body = scenario.requirement.rstrip() + "\n"  # problem.md is already the whole task
    else:
        template = {
            ScenarioClass.KYVERNO: _KYVERNO_GOAL,
            ScenarioClass.KUBECTL_OPA: _KUBECTL_OPA_GOAL,
            ScenarioClass.RHEL9_ANSIBLE_OPA: _RHEL9_GOAL,
            ScenarioClass.OPA_STATIC: _OPA_STATIC_GOAL,
        }[cls]
        # str.replace, not format: a requirement may contain braces
        body = template
        for key, value in values.items():
            body = body.replace("{" + key + "}", value)
    where = _WHERE[cls].replace("{kubeconfig}", KUBECONFIG_FILE)
    if scenario.migration_source is not None:
        from ciso.scenarios.dialects import source_file_name

        where = where.replace("{source}", source_file_name(scenario.migration_source))
    return body + where.replace("{inventory}", INVENTORY_FILE)


#: How the task names a source dialect: (its engine, its kinds)
_SOURCE_WORDS = {
    "cluster-policy": ("Kyverno", "ClusterPolicy / Policy, `kyverno.io/v1`"),
    "validating-policy": (
        "Kyverno",
        "ValidatingPolicy / NamespacedValidatingPolicy, `policies.kyverno.io/v1`",
    ),
    "gatekeeper": (
        "OPA Gatekeeper",
        "a ConstraintTemplate, `templates.gatekeeper.sh/v1`, and its constraint",
    ),
    "rego": (
        "OPA Rego",
        "Rego, package `check`: `data.check.result` is false when the object given as input "
        "violates the control",
    ),
}
#: How the task names a target dialect
_TARGET_WORDS = {
    "cluster-policy": "a Kyverno ClusterPolicy",
    "validating-policy": "a Kyverno ValidatingPolicy (CEL)",
}


def _migrate_goal(scenario: CisoScenario) -> str:
    from ciso.scenarios.dialects import BY_NAME, REGO, source_dialect, source_file_name
    from itbench.yamlsafe import load_all

    assert scenario.migration_source is not None  # the loader requires it for this class
    assert scenario.migration_target is not None  # the loader resolves it with the source
    if scenario.migration_source.suffix == ".rego":
        source = REGO
    else:
        text = scenario.migration_source.read_text()
        documents = [d for d in load_all(text) if d is not None]
        source = source_dialect(scenario.migration_source, documents)
    target = BY_NAME[scenario.migration_target]
    engine, kinds = _SOURCE_WORDS[source.name]
    values = {
        "goal": scenario.requirement,
        "source": source_file_name(scenario.migration_source),
        "source_engine": engine,
        "source_kinds": kinds,
        "target_dialect": _TARGET_WORDS[target.name],
        "target_kinds": " or ".join(target.kinds),
        "target_api": target.group + "v1",
    }
    body = _MIGRATE_GOAL
    for key, value in values.items():
        body = body.replace("{" + key + "}", value)
    return body


_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def short_title(scenario: CisoScenario, limit: int = 100) -> str:
    """One line: ``CIS 5.2.5: <the first sentence of the requirement>``."""
    text = str(scenario.metadata.get("title") or "") or scenario.requirement
    # the first non-empty line, without a markdown heading marker (problem.md starts with one)
    line = next((ln.strip().lstrip("#").strip() for ln in text.splitlines() if ln.strip()), "")
    first = " ".join(_SENTENCE_END.split(line, maxsplit=1)[0].split())
    if len(first) > limit:
        first = first[: limit - 1].rstrip() + "…"
    return f"CIS {scenario.cis_id}: {first}" if scenario.cis_id else first


def public_metadata(scenario: CisoScenario) -> dict[str, Any]:
    """Facts an agent may know: no path, no compliant environment, no solution, no notes."""
    metadata: dict[str, Any] = {
        "base_id": scenario.base_id,
        "platform": scenario.platform.value,
        "origin": scenario.origin,
        "violating_resource_count": len(scenario.violating_resources),
        "has_compliant_environment": scenario.compliant is not None,
        "has_reference": bool(scenario.solution),
    }
    if scenario.cis_id:
        metadata["cis_id"] = scenario.cis_id
    for key, value in scenario.metadata.items():
        if key != "title":
            metadata[key] = value
    return metadata


def to_benchmark_scenario(scenario: CisoScenario) -> Scenario:
    inputs = {}
    if scenario.scenario_class is ScenarioClass.OPA_STATIC:
        inputs = {STATIC_RESOURCES: scenario.violating}
    elif scenario.migration_source is not None:
        from ciso.scenarios.dialects import source_file_name

        inputs = {source_file_name(scenario.migration_source): scenario.migration_source}
    return Scenario(
        id=scenario.id,
        domain="ciso",
        **{"class": scenario.scenario_class.value},
        title=short_title(scenario),
        description=goal_text(scenario),
        inputs=inputs,
        ground_truth=scenario,
        reference=dict(scenario.solution),
        metadata=public_metadata(scenario),
        # hidden from the agent whatever the class (issue 26): scenario.yaml, compliant/ and
        # solution/ lie there even when nothing is copied into the workspace
        source_dir=scenario.source if scenario.source is not None else scenario.violating.parent,
    )
