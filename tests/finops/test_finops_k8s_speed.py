"""What keeps a Kubernetes cost trial within its time: the runner's process, before it forks its
workers, has imported what the API server's decoding of an agent's first write needs; a trial
builds its scenario once for its cluster and its evaluator."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from finops.k8s import suite

WARM = """
import sys
from finops import plugin
before = 'kubernetes.client.models.v2_horizontal_pod_autoscaler' in sys.modules
plugin.load_scenarios(None, "mitigate")
models = [m for m in sys.modules if m.startswith('kubernetes.client.models.')]
print(before, 'kubernetes.client.models.v2_horizontal_pod_autoscaler' in sys.modules,
      'kubernetes.client.models.v1_resource_requirements' in sys.modules, len(models))
"""


def test_loading_the_k8s_suite_warms_the_decoding_models() -> None:
    done = subprocess.run([sys.executable, "-c", WARM], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    before, hpa, resources, count = done.stdout.split()
    assert (before, hpa, resources) == ("False", "True", "True")
    assert int(count) > 10


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl is absent")
def test_a_trial_generates_its_scenario_once(tmp_path: Path, monkeypatch) -> None:
    calls = []
    real = suite.generate

    def counting(family: str, seed: int):
        calls.append((family, seed))
        return real(family, seed)

    monkeypatch.setattr(suite, "generate", counting)
    suite._generated.cache_clear()
    truth = suite.K8sTruth("hpa-target-low", 11, "mitigate")
    with suite.k8s_environment(truth, tmp_path):
        pass
    scores, _ = suite.rejudge(truth, tmp_path)
    assert scores["mitigation_pass"] == 0.0  # nothing was changed
    assert calls == [("hpa-target-low", 11)]
