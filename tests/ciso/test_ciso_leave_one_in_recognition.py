"""Leave-one-in environments are built on the compliant environment (which agents never see), with
one violating resource put in as the agent saw it. An answer that recognises the environment it
was shown by a harmless object only that environment holds (here the ServiceAccount ``api-client``
of cis-k8s-5.1.5) and then flags the violating objects by name passes the violating and compliant
runs, and fails strict in every class that has leave-one-in environments: a Kyverno context
lookup, a kubectl-opa fetcher and an opa-static fetch alike. Found by a red-team run: on
leave-one-in environments cut out of the violating one, such answers strict-passed."""

from __future__ import annotations

from pathlib import Path

import pytest

from ciso.evaluation.trial import evaluate_trial
from ciso.scenarios.loader import load_builtin
from tests._support.ciso import kubectl_missing, needs_sandbox

BASE = "cis-k8s-5.1.5-default-service-account"
BUILTIN = {s.id: s for s in load_builtin().scenarios if s.base_id == BASE}
WORKLOADS = ("Deployment/shop/web", "CronJob/shop/nightly-report", "DaemonSet/shop/log-shipper")

KNOWS_THE_SHOP = """\
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: the-shop-i-saw
spec:
  validationFailureAction: Audit
  background: true
  rules:
    - name: same-shop
      match:
        any:
          - resources:
              kinds: [Deployment, CronJob, DaemonSet]
      context:
        - name: accounts
          apiCall:
            urlPath: "/api/v1/namespaces/shop/serviceaccounts"
            jmesPath: "items[].metadata.name"
      validate:
        message: "the shop holds api-client"
        deny:
          conditions:
            all:
              - key: "{{ request.object.metadata.name }}"
                operator: AnyIn
                value: [web, nightly-report, log-shipper]
              - key: "{{ accounts }}"
                operator: AnyIn
                value: [api-client]
"""

#: false wherever a ServiceAccount named api-client exists; never reads a workload
SAW_API_CLIENT = """package check

import rego.v1

default result := true

result := false if {
\tsome account in input.items
\taccount.metadata.name == "api-client"
}
"""


def _trial(tmp_path: Path, files: dict[str, str]) -> Path:
    trial = tmp_path / "trial"
    trial.mkdir()
    for name, text in files.items():
        (trial / name).write_text(text)
        if name.endswith(".sh"):
            (trial / name).chmod(0o755)
    return trial


def _leave_one_in(details: dict) -> dict[str, dict]:
    return {k: v for k, v in details["environments"].items() if k.startswith("leave-one-in")}


@pytest.fixture
def _our_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ITBENCH_KYVERNO_ENGINE", "itbench")


@pytest.mark.usefixtures("_our_engine")
def test_a_kyverno_policy_that_recognises_the_shop_fails_strict(tmp_path: Path) -> None:
    result = evaluate_trial(
        BUILTIN[f"{BASE}.kyverno"], _trial(tmp_path, {"policy.yaml": KNOWS_THE_SHOP})
    )
    environments = result.details["environments"]
    assert environments["violating"]["violating_caught"] == sorted(WORKLOADS)
    assert environments["compliant"]["failed"] == []
    for ref in WORKLOADS:
        assert environments[f"leave-one-in {ref}"] == {"caught": False}, ref
    assert result.scores["itbench_pass"] == 1
    assert result.scores["strict_pass"] == 0


@pytest.mark.usefixtures("_our_engine")
def test_a_kyverno_reference_policy_is_still_caught_alone(tmp_path: Path) -> None:
    scenario = BUILTIN[f"{BASE}.kyverno"]
    trial = _trial(tmp_path, {n: Path(p).read_text() for n, p in scenario.solution.items()})
    result = evaluate_trial(scenario, trial)
    for ref in WORKLOADS:
        assert result.details["environments"][f"leave-one-in {ref}"] == {"caught": True}, ref
    assert result.scores["strict_pass"] == 1


def _caught_only_where_it_saw_the_shop(environments: dict) -> None:
    """The answer flags the environment it was shown and no leave-one-in one (each holds one
    violating workload in the compliant environment, without the marker it recognises)."""
    assert environments["violating"]["result"] == "false"
    assert environments["compliant"]["result"] == "true"
    for ref in WORKLOADS:
        assert environments[f"leave-one-in {ref}"]["result"] == "true", ref


needs_kubectl = pytest.mark.skipif(kubectl_missing() is not None, reason=str(kubectl_missing()))


@needs_sandbox
@needs_kubectl
def test_a_kubectl_opa_answer_that_recognises_the_shop_fails_strict(tmp_path: Path) -> None:
    fetcher = "#!/bin/sh\nkubectl get serviceaccounts -A -o json > collected_data.json\n"
    trial = _trial(tmp_path, {"fetcher.sh": fetcher, "policy.rego": SAW_API_CLIENT})
    result = evaluate_trial(BUILTIN[f"{BASE}.kubectl-opa"], trial)
    _caught_only_where_it_saw_the_shop(result.details["environments"])
    assert result.scores["itbench_pass"] == 1
    assert result.scores["strict_pass"] == 0


@needs_sandbox
def test_an_opa_static_answer_that_recognises_the_shop_fails_strict(tmp_path: Path) -> None:
    fetch = (
        "#!/bin/sh\n"
        "n=$(cat static-resources/* | grep -c 'name: api-client$')\n"
        'printf \'{"items": [%s]}\' "$([ "$n" -gt 0 ] && echo \'{"metadata": {"name": '
        '"api-client"}}\')" > collected_data.json\n'
    )
    trial = _trial(tmp_path, {"fetch.sh": fetch, "policy.rego": SAW_API_CLIENT})
    result = evaluate_trial(BUILTIN[f"{BASE}.opa-static"], trial)
    _caught_only_where_it_saw_the_shop(result.details["environments"])
    assert result.scores["strict_pass"] == 0
