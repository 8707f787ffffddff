"""A Test's clusterResources are what the cluster holds: a classic `configMap` context entry
reads them (before, only CEL resource lookups did, and the entry failed with "neither in the
test's values nor among its resources")."""

from __future__ import annotations

from ciso.engines.kyverno.testrunner import run_test_file

POLICY = """apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: allowed-registries}
spec:
  validationFailureAction: Audit
  rules:
  - name: registry-from-configmap
    match: {any: [{resources: {kinds: [Pod]}}]}
    context:
    - name: allowed
      configMap: {name: registries, namespace: platform}
    validate:
      message: image from a registry outside {{ allowed.data.prefix }}
      pattern:
        spec:
          containers:
          - image: "{{ allowed.data.prefix }}*"
"""
RESOURCES = """apiVersion: v1
kind: Pod
metadata: {name: good, namespace: default}
spec: {containers: [{name: c, image: registry.corp/nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: bad, namespace: default}
spec: {containers: [{name: c, image: docker.io/nginx}]}
"""
CLUSTER = """apiVersion: cli.kyverno.io/v1alpha1
kind: ClusterResource
metadata: {name: cluster}
spec:
  resources:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: registries, namespace: platform}
    data: {prefix: registry.corp/}
"""
TEST = """apiVersion: cli.kyverno.io/v1alpha1
kind: Test
metadata: {name: t}
policies: [policy.yaml]
resources: [resources.yaml]
clusterResources: [cluster.yaml]
results:
- {policy: allowed-registries, rule: registry-from-configmap, kind: Pod, resources: [good], result: pass}
- {policy: allowed-registries, rule: registry-from-configmap, kind: Pod, resources: [bad], result: fail}
"""


def test_a_configmap_context_entry_reads_cluster_resources(tmp_path):
    for name, text in {
        "policy.yaml": POLICY,
        "resources.yaml": RESOURCES,
        "cluster.yaml": CLUSTER,
        "kyverno-test.yaml": TEST,
    }.items():
        (tmp_path / name).write_text(text)
    result = run_test_file(tmp_path / "kyverno-test.yaml")
    assert result.error is None
    assert {(e.resource, e.outcome) for e in result.expectations} == {
        ("good", "passed"),
        ("bad", "passed"),
    }
    # and without clusterResources the entry has nothing to read: an error, not a verdict
    (tmp_path / "kyverno-test.yaml").write_text(
        TEST.replace("clusterResources: [cluster.yaml]\n", "")
    )
    again = run_test_file(tmp_path / "kyverno-test.yaml")
    assert {e.outcome for e in again.expectations} == {"errors"}
