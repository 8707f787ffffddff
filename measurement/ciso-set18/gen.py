#!/usr/bin/env python3
"""ciso-set18: 14 held-out CISO scenarios (11 Kubernetes, 3 RHEL 9). stdlib only.

usage: python gen.py OUT   (writes OUT/<scenario>/...; deterministic)
"""
import os
import sys
import textwrap

K8S_CLASSES = ["kyverno", "kubectl-opa", "opa-static"]

FETCH_SH = r'''#!/bin/sh
# Reads every manifest under static-resources/ into one kubectl-style List.
set -e
python3 - <<'EOF'
import glob, json, os, yaml
items = []
for p in sorted(glob.glob("static-resources/**/*", recursive=True)):
    if not os.path.isfile(p) or not p.endswith((".yaml", ".yml", ".json")):
        continue
    with open(p) as fh:
        for doc in yaml.safe_load_all(fh):
            if not isinstance(doc, dict):
                continue
            if doc.get("kind", "").endswith("List") and isinstance(doc.get("items"), list):
                items.extend(doc["items"])
            else:
                items.append(doc)
with open("collected_data.json", "w") as fh:
    json.dump({"apiVersion": "v1", "kind": "List", "items": items}, fh)
EOF
'''


def fetcher(kinds):
    return ("#!/bin/bash\nset -euo pipefail\n"
            "kubectl get %s -A -o json > collected_data.json\n" % kinds)


POD_SPECS_REGO = r'''
workload_kinds := {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "ReplicationController"}

pod_specs contains [o, o.spec] if {
	some o in input.items
	o.kind == "Pod"
}

pod_specs contains [o, o.spec.template.spec] if {
	some o in input.items
	o.kind in workload_kinds
}

pod_specs contains [o, o.spec.jobTemplate.spec.template.spec] if {
	some o in input.items
	o.kind == "CronJob"
}

all_containers(s) := array.concat(
	array.concat(object.get(s, "containers", []), object.get(s, "initContainers", [])),
	object.get(s, "ephemeralContainers", []),
)
'''

REGO_HEAD = "package check\n\nimport rego.v1\n\ndefault result := true\n\nresult := false if count(violations) > 0\n"


def d(s):
    return textwrap.dedent(s).lstrip("\n")


SCENARIOS = []


def scen(**kw):
    SCENARIOS.append(kw)


# ---------------------------------------------------------------- 1 privileged
scen(
    id="s18-privileged-except-kube-system", half="catalogue", cis_id="5.2.2",
    platform="kubernetes", classes=K8S_CLASSES,
    title="No privileged containers outside kube-system",
    requirement=("Privileged mode must not be used by any container in the cluster, init and "
                 "ephemeral containers included. The only exception is the kube-system namespace, "
                 "where the node networking agent needs it."),
    violating_resources=["Deployment/payments/ledger-api", "CronJob/batch/disk-cleanup",
                         "Pod/payments/ledger-api-6b7c9d5f8-x2kqp"],
    notes="ledger-api: only the log-shipper sidecar is privileged; disk-cleanup: an init container of a CronJob template; ledger-api-6b7c9d5f8-x2kqp: a standalone Pod whose only privileged container is an ephemeral one (kubectl debug --profile=sysadmin). kube-system DaemonSet is exempt.",
    violating={
        "payments.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata:
              name: payments
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: ledger-api
              namespace: payments
              labels: {app: ledger-api, team: payments}
            spec:
              replicas: 3
              selector:
                matchLabels: {app: ledger-api}
              template:
                metadata:
                  labels: {app: ledger-api}
                spec:
                  containers:
                  - name: api
                    image: registry.corp.example/payments/ledger-api:4.12.0
                    ports:
                    - containerPort: 8080
                    securityContext:
                      runAsNonRoot: true
                      allowPrivilegeEscalation: false
                  - name: log-shipper
                    image: registry.corp.example/infra/log-shipper:1.9.3
                    securityContext:
                      privileged: true
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: frontend
              namespace: payments
            spec:
              replicas: 2
              selector:
                matchLabels: {app: frontend}
              template:
                metadata:
                  labels: {app: frontend}
                spec:
                  containers:
                  - name: web
                    image: registry.corp.example/payments/frontend:2.0.1
                    securityContext:
                      privileged: false
                      allowPrivilegeEscalation: true
            '''),
        "batch.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: batch}
            ---
            apiVersion: batch/v1
            kind: CronJob
            metadata:
              name: disk-cleanup
              namespace: batch
            spec:
              schedule: "30 3 * * *"
              jobTemplate:
                spec:
                  template:
                    spec:
                      restartPolicy: OnFailure
                      initContainers:
                      - name: mount-fixer
                        image: registry.corp.example/tools/busybox:1.36
                        command: ["sh", "-c", "chown -R 1000 /data"]
                        securityContext: {privileged: true, runAsUser: 0}
                      containers:
                      - name: cleanup
                        image: registry.corp.example/tools/cleanup:0.4.2
                        args: ["--older-than", "7d"]
            '''),
        "debug-pod.yaml": d('''
            apiVersion: v1
            kind: Pod
            metadata:
              name: ledger-api-6b7c9d5f8-x2kqp
              namespace: payments
              labels: {app: ledger-api-debug}
            spec:
              containers:
              - name: api
                image: registry.corp.example/payments/ledger-api:4.12.0
                securityContext:
                  allowPrivilegeEscalation: false
              ephemeralContainers:
              - name: debugger-8xw2c
                image: registry.corp.example/tools/netshoot:0.13
                stdin: true
                tty: true
                targetContainerName: api
                securityContext:
                  privileged: true
            '''),
        "kube-system.yaml": d('''
            apiVersion: apps/v1
            kind: DaemonSet
            metadata:
              name: cni-agent
              namespace: kube-system
            spec:
              selector:
                matchLabels: {k8s-app: cni-agent}
              template:
                metadata:
                  labels: {k8s-app: cni-agent}
                spec:
                  hostNetwork: true
                  containers:
                  - name: agent
                    image: registry.corp.example/net/cni-agent:1.15.2
                    securityContext:
                      privileged: true
            '''),
    },
    compliant={
        "all.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: payments}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: batch}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: ledger-api
              namespace: payments
            spec:
              replicas: 3
              selector:
                matchLabels: {app: ledger-api}
              template:
                metadata:
                  labels: {app: ledger-api}
                spec:
                  containers:
                  - name: api
                    image: registry.corp.example/payments/ledger-api:4.12.0
                    securityContext: {runAsNonRoot: true, allowPrivilegeEscalation: false}
                  - name: log-shipper
                    image: registry.corp.example/infra/log-shipper:1.9.3
                    securityContext:
                      privileged: false
                      capabilities:
                        add: ["DAC_READ_SEARCH"]
            ---
            apiVersion: batch/v1
            kind: CronJob
            metadata:
              name: disk-cleanup
              namespace: batch
            spec:
              schedule: "30 3 * * *"
              jobTemplate:
                spec:
                  template:
                    spec:
                      restartPolicy: OnFailure
                      initContainers:
                      - name: mount-fixer
                        image: registry.corp.example/tools/busybox:1.36
                        securityContext: {runAsUser: 0}
                      containers:
                      - name: cleanup
                        image: registry.corp.example/tools/cleanup:0.4.2
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: ledger-api-6b7c9d5f8-x2kqp
              namespace: payments
            spec:
              containers:
              - name: api
                image: registry.corp.example/payments/ledger-api:4.12.0
              ephemeralContainers:
              - name: debugger-8xw2c
                image: registry.corp.example/tools/netshoot:0.13
                targetContainerName: api
                securityContext:
                  capabilities:
                    add: ["NET_RAW", "SYS_PTRACE"]
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: node-debugger
              namespace: batch
            spec:
              hostPID: true
              containers:
              - name: shell
                image: registry.corp.example/tools/busybox:1.36
                command: ["sleep", "3600"]
            ---
            apiVersion: apps/v1
            kind: DaemonSet
            metadata:
              name: cni-agent
              namespace: kube-system
            spec:
              selector:
                matchLabels: {k8s-app: cni-agent}
              template:
                metadata:
                  labels: {k8s-app: cni-agent}
                spec:
                  hostNetwork: true
                  containers:
                  - name: agent
                    image: registry.corp.example/net/cni-agent:1.15.2
                    securityContext:
                      privileged: true
            '''),
    },
    kinds="namespaces,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs",
    kyverno=d('''
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata:
          name: disallow-privileged
        spec:
          validationFailureAction: Audit
          background: true
          rules:
          - name: no-privileged
            match:
              any:
              - resources:
                  kinds: [Pod]
            exclude:
              any:
              - resources:
                  namespaces: [kube-system]
            validate:
              message: privileged containers are not allowed
              pattern:
                spec:
                  =(ephemeralContainers):
                  - =(securityContext):
                      =(privileged): "false"
                  =(initContainers):
                  - =(securityContext):
                      =(privileged): "false"
                  containers:
                  - =(securityContext):
                      =(privileged): "false"
        '''),
    rego=REGO_HEAD + POD_SPECS_REGO + d('''
        violations contains o.metadata.name if {
        	some [o, s] in pod_specs
        	object.get(o.metadata, "namespace", "default") != "kube-system"
        	some c in all_containers(s)
        	c.securityContext.privileged == true
        }
        '''),
)

# ---------------------------------------------------------------- 2 hostPath
scen(
    id="s18-no-hostpath-volumes", half="catalogue", cis_id=None,
    platform="kubernetes", classes=K8S_CLASSES,
    title="Pods may not mount the node filesystem",
    requirement=("Workloads must not mount files or directories from the node they run on: no Pod, "
                 "and no Pod template of a controller, may declare a hostPath volume."),
    violating_resources=["DaemonSet/logging/fluent-bit", "Job/ops/node-audit"],
    notes="fluent-bit: hostPath is the second volume after a configMap; node-audit: a Job (type Directory). Compliant has a PVC named hostpath-cache and hostNetwork (other control).",
    violating={
        "logging.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata:
              name: logging
            ---
            apiVersion: apps/v1
            kind: DaemonSet
            metadata:
              name: fluent-bit
              namespace: logging
              labels:
                app.kubernetes.io/name: fluent-bit
            spec:
              selector:
                matchLabels:
                  app.kubernetes.io/name: fluent-bit
              template:
                metadata:
                  labels:
                    app.kubernetes.io/name: fluent-bit
                spec:
                  serviceAccountName: fluent-bit
                  containers:
                    - name: fluent-bit
                      image: cr.fluentbit.io/fluent/fluent-bit:3.1.9
                      volumeMounts:
                        - name: config
                          mountPath: /fluent-bit/etc/
                        - name: varlog
                          mountPath: /var/log
                          readOnly: true
                  volumes:
                    - name: config
                      configMap:
                        name: fluent-bit
                    - name: varlog
                      hostPath:
                        path: /var/log
            '''),
        "ops.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata:
              name: ops
            ---
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: node-audit
              namespace: ops
            spec:
              backoffLimit: 1
              template:
                spec:
                  restartPolicy: Never
                  containers:
                    - name: audit
                      image: quay.io/acme/node-audit:2024.10
                      volumeMounts:
                        - {name: etc, mountPath: /host/etc, readOnly: true}
                  volumes:
                    - name: etc
                      hostPath: {path: /etc, type: Directory}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: report-api
              namespace: ops
            spec:
              replicas: 1
              selector:
                matchLabels: {app: report-api}
              template:
                metadata:
                  labels: {app: report-api}
                spec:
                  containers:
                    - name: api
                      image: quay.io/acme/report-api:1.3.0
                      volumeMounts:
                        - {name: tmp, mountPath: /tmp}
                  volumes:
                    - name: tmp
                      emptyDir: {}
            '''),
    },
    compliant={
        "logging.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata:
              name: logging
            ---
            apiVersion: apps/v1
            kind: DaemonSet
            metadata:
              name: fluent-bit
              namespace: logging
            spec:
              selector:
                matchLabels:
                  app.kubernetes.io/name: fluent-bit
              template:
                metadata:
                  labels:
                    app.kubernetes.io/name: fluent-bit
                spec:
                  hostNetwork: true
                  containers:
                    - name: fluent-bit
                      image: cr.fluentbit.io/fluent/fluent-bit:3.1.9
                      volumeMounts:
                        - name: config
                          mountPath: /fluent-bit/etc/
                        - name: buffer
                          mountPath: /buffer
                  volumes:
                    - name: config
                      configMap:
                        name: fluent-bit
                    - name: buffer
                      persistentVolumeClaim:
                        claimName: hostpath-cache
            '''),
        "ops.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata:
              name: ops
            ---
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: node-audit
              namespace: ops
            spec:
              template:
                spec:
                  restartPolicy: Never
                  containers:
                    - name: audit
                      image: quay.io/acme/node-audit:2024.10
                      env:
                        - name: HOST_PATH
                          value: /etc
                      volumeMounts:
                        - {name: snapshot, mountPath: /host/etc, readOnly: true}
                  volumes:
                    - name: snapshot
                      projected:
                        sources:
                          - configMap: {name: node-etc-snapshot}
                          - secret: {name: audit-token}
            '''),
    },
    kinds="namespaces,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs",
    kyverno=d('''
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata:
          name: disallow-host-path
        spec:
          validationFailureAction: Audit
          background: true
          rules:
          - name: no-host-path
            match:
              any:
              - resources:
                  kinds: [Pod]
            validate:
              message: hostPath volumes are forbidden
              pattern:
                spec:
                  =(volumes):
                  - X(hostPath): "null"
        '''),
    rego=REGO_HEAD + POD_SPECS_REGO + d('''
        violations contains o.metadata.name if {
        	some [o, s] in pod_specs
        	some v in object.get(s, "volumes", [])
        	v.hostPath
        }
        '''),
)

# ---------------------------------------------------------------- 3 allowPrivilegeEscalation
scen(
    id="s18-explicit-no-privilege-escalation", half="catalogue", cis_id="5.2.6",
    platform="kubernetes", classes=K8S_CLASSES,
    title="allowPrivilegeEscalation must be explicitly false",
    requirement=("Processes inside containers must not be able to gain more privileges than their "
                 "parent process. Every container, init containers included, has to turn privilege "
                 "escalation off explicitly; relying on the default is not enough."),
    violating_resources=["StatefulSet/data/redis", "Deployment/web/shop", "Pod/tools/toolbox"],
    notes="redis: init container has no securityContext; shop: second container sets it true; toolbox: nothing set anywhere (pod-level securityContext only has runAsNonRoot).",
    violating={
        "data.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: data}
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: redis
              namespace: data
            spec:
              serviceName: redis
              replicas: 3
              selector:
                matchLabels: {app: redis}
              template:
                metadata:
                  labels: {app: redis}
                spec:
                  initContainers:
                  - name: sysctl-check
                    image: docker.io/library/busybox:1.36.1
                    command: ["sh", "-c", "cat /proc/sys/net/core/somaxconn"]
                  containers:
                  - name: redis
                    image: docker.io/library/redis:7.2.5
                    securityContext:
                      allowPrivilegeEscalation: false
                      runAsUser: 999
            '''),
        "web.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: web}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: shop
              namespace: web
            spec:
              replicas: 2
              selector:
                matchLabels: {app: shop}
              template:
                metadata:
                  labels: {app: shop}
                spec:
                  containers:
                  - name: shop
                    image: ghcr.io/acme/shop:3.4.0
                    securityContext: {allowPrivilegeEscalation: false}
                  - name: envoy
                    image: docker.io/envoyproxy/envoy:v1.31.2
                    securityContext: {allowPrivilegeEscalation: true, runAsNonRoot: true}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: catalog
              namespace: web
            spec:
              replicas: 1
              selector:
                matchLabels: {app: catalog}
              template:
                metadata:
                  labels: {app: catalog}
                spec:
                  containers:
                  - name: catalog
                    image: ghcr.io/acme/catalog:1.0.8
                    securityContext:
                      allowPrivilegeEscalation: false
            '''),
        "tools.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: tools}
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: toolbox
              namespace: tools
            spec:
              securityContext:
                runAsNonRoot: true
                runAsUser: 1000
              containers:
              - name: toolbox
                image: ghcr.io/acme/toolbox:2024.11
                command: ["sleep", "infinity"]
            '''),
    },
    compliant={
        "all.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: data}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: web}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: tools}
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: redis
              namespace: data
            spec:
              serviceName: redis
              replicas: 3
              selector:
                matchLabels: {app: redis}
              template:
                metadata:
                  labels: {app: redis}
                spec:
                  initContainers:
                  - name: sysctl-check
                    image: docker.io/library/busybox:1.36.1
                    securityContext:
                      allowPrivilegeEscalation: false
                      runAsUser: 0
                  containers:
                  - name: redis
                    image: docker.io/library/redis:7.2.5
                    securityContext:
                      allowPrivilegeEscalation: false
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: shop
              namespace: web
            spec:
              replicas: 2
              selector:
                matchLabels: {app: shop}
              template:
                metadata:
                  labels: {app: shop}
                spec:
                  containers:
                  - name: shop
                    image: ghcr.io/acme/shop:3.4.0
                    securityContext: {allowPrivilegeEscalation: false}
                  - name: envoy
                    image: docker.io/envoyproxy/envoy:v1.31.2
                    securityContext:
                      allowPrivilegeEscalation: false
                      capabilities: {add: ["NET_ADMIN"]}
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: toolbox
              namespace: tools
            spec:
              securityContext:
                runAsNonRoot: true
              containers:
              - name: toolbox
                image: ghcr.io/acme/toolbox:2024.11
                securityContext:
                  allowPrivilegeEscalation: false
                  readOnlyRootFilesystem: false
            '''),
    },
    kinds="namespaces,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs",
    kyverno=d('''
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata:
          name: require-no-privilege-escalation
        spec:
          validationFailureAction: Audit
          background: true
          rules:
          - name: ape-false
            match:
              any:
              - resources:
                  kinds: [Pod]
            validate:
              message: allowPrivilegeEscalation must be set to false
              pattern:
                spec:
                  =(initContainers):
                  - securityContext:
                      allowPrivilegeEscalation: "false"
                  containers:
                  - securityContext:
                      allowPrivilegeEscalation: "false"
        '''),
    rego=REGO_HEAD + POD_SPECS_REGO + d('''
        violations contains o.metadata.name if {
        	some [o, s] in pod_specs
        	some c in array.concat(object.get(s, "containers", []), object.get(s, "initContainers", []))
        	not c.securityContext.allowPrivilegeEscalation == false
        }
        '''),
)

# ---------------------------------------------------------------- 4 RBAC wildcards
scen(
    id="s18-rbac-no-wildcards", half="catalogue", cis_id="5.1.3",
    platform="kubernetes", classes=K8S_CLASSES,
    title="No wildcard verbs or resources in custom Roles and ClusterRoles",
    requirement=("Minimize wildcard use in RBAC: no Role or ClusterRole we define may grant \"*\" "
                 "as a verb or as a resource. Kubernetes' own roles (names starting with system:) "
                 "and cluster-admin are out of scope."),
    violating_resources=["ClusterRole//ci-deployer", "Role/monitoring/prom-reader"],
    notes="ci-deployer: verbs ['*'] on deployments; prom-reader: second rule has resources ['*']. cluster-admin and system:* roles with wildcards are exempt; an aggregated ClusterRole has no rules.",
    violating={
        "clusterroles.yaml": d('''
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: cluster-admin
              labels: {kubernetes.io/bootstrapping: rbac-defaults}
            rules:
            - apiGroups: ["*"]
              resources: ["*"]
              verbs: ["*"]
            - nonResourceURLs: ["*"]
              verbs: ["*"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: system:controller:generic-garbage-collector
            rules:
            - apiGroups: ["*"]
              resources: ["*"]
              verbs: ["delete", "get", "list", "patch", "update", "watch"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: ci-deployer
            rules:
            - apiGroups: ["apps"]
              resources: ["deployments", "statefulsets"]
              verbs: ["*"]
            - apiGroups: [""]
              resources: ["configmaps"]
              verbs: ["get", "list", "create", "update"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: platform-view
            aggregationRule:
              clusterRoleSelectors:
              - matchLabels:
                  rbac.example.com/aggregate-to-platform-view: "true"
            rules: []
            '''),
        "monitoring.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: monitoring}
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: Role
            metadata:
              name: prom-reader
              namespace: monitoring
            rules:
            - apiGroups: [""]
              resources: ["pods", "endpoints", "services"]
              verbs: ["get", "list", "watch"]
            - apiGroups: ["monitoring.coreos.com"]
              resources: ["*"]
              verbs: ["get", "list"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: Role
            metadata:
              name: secret-reader
              namespace: monitoring
            rules:
            - apiGroups: [""]
              resources: ["secrets"]
              verbs: ["get", "list", "watch"]
            '''),
    },
    compliant={
        "rbac.yaml": d('''
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: cluster-admin
            rules:
            - apiGroups: ["*"]
              resources: ["*"]
              verbs: ["*"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: system:controller:generic-garbage-collector
            rules:
            - apiGroups: ["*"]
              resources: ["*"]
              verbs: ["delete", "get", "list", "patch", "update", "watch"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: ci-deployer
            rules:
            - apiGroups: ["apps"]
              resources: ["deployments", "statefulsets"]
              verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: system-metrics-scraper
            rules:
            - nonResourceURLs: ["/metrics"]
              verbs: ["get"]
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: monitoring}
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: Role
            metadata:
              name: prom-reader
              namespace: monitoring
            rules:
            - apiGroups: [""]
              resources: ["pods", "endpoints", "services"]
              verbs: ["get", "list", "watch"]
            - apiGroups: ["monitoring.coreos.com"]
              resources: ["servicemonitors", "podmonitors", "prometheusrules"]
              verbs: ["get", "list"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: Role
            metadata:
              name: secret-reader
              namespace: monitoring
            rules:
            - apiGroups: [""]
              resources: ["secrets"]
              verbs: ["get", "list", "watch"]
            '''),
    },
    kinds="namespaces,roles,clusterroles",
    kyverno=d('''
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata:
          name: restrict-rbac-wildcards
        spec:
          validationFailureAction: Audit
          background: true
          rules:
          - name: no-wildcards
            match:
              any:
              - resources:
                  kinds: [Role, ClusterRole]
            exclude:
              any:
              - resources:
                  names: ["system:*", "cluster-admin"]
            validate:
              message: wildcard verbs or resources are not allowed
              deny:
                conditions:
                  any:
                  - key: "{{ contains(request.object.rules[].verbs[] || `[]`, '*') }}"
                    operator: Equals
                    value: true
                  - key: "{{ contains(request.object.rules[].resources[] || `[]`, '*') }}"
                    operator: Equals
                    value: true
        '''),
    rego=REGO_HEAD + d('''
        violations contains o.metadata.name if {
        	some o in input.items
        	o.kind in {"Role", "ClusterRole"}
        	not startswith(o.metadata.name, "system:")
        	o.metadata.name != "cluster-admin"
        	some r in object.get(o, "rules", [])
        	some x in array.concat(object.get(r, "verbs", []), object.get(r, "resources", []))
        	x == "*"
        }
        '''),
)

# ---------------------------------------------------------------- 5 secrets in env
scen(
    id="s18-secrets-not-in-env", half="catalogue", cis_id="5.4.1",
    platform="kubernetes", classes=K8S_CLASSES,
    title="Secrets as files, not environment variables",
    requirement=("Prefer using secrets as files over environment variables: no container may pull "
                 "a Secret's value into its environment, whether one key at a time or the whole "
                 "Secret at once."),
    violating_resources=["Deployment/billing/invoice-svc", "CronJob/billing/monthly-report"],
    notes="invoice-svc: only the otel sidecar uses env valueFrom.secretKeyRef; monthly-report: envFrom secretRef in a CronJob. Compliant uses configMapKeyRef, envFrom configMapRef, fieldRef, a secret volume and an env var whose NAME mentions SECRET.",
    violating={
        "billing.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata:
              name: billing
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: invoice-svc
              namespace: billing
            spec:
              replicas: 2
              selector:
                matchLabels: {app: invoice-svc}
              template:
                metadata:
                  labels: {app: invoice-svc}
                spec:
                  containers:
                    - name: invoice
                      image: ghcr.io/acme/invoice-svc:5.2.0
                      env:
                        - name: DB_HOST
                          valueFrom:
                            configMapKeyRef: {name: invoice-config, key: db_host}
                        - name: DB_PASSWORD_FILE
                          value: /var/run/secrets/db/password
                      volumeMounts:
                        - name: db
                          mountPath: /var/run/secrets/db
                          readOnly: true
                    - name: otel
                      image: otel/opentelemetry-collector-contrib:0.110.0
                      env:
                        - name: POD_NAME
                          valueFrom:
                            fieldRef: {fieldPath: metadata.name}
                        - name: HONEYCOMB_API_KEY
                          valueFrom:
                            secretKeyRef:
                              name: observability-keys
                              key: honeycomb
                  volumes:
                    - name: db
                      secret: {secretName: invoice-db}
            ---
            apiVersion: batch/v1
            kind: CronJob
            metadata:
              name: monthly-report
              namespace: billing
            spec:
              schedule: "0 6 1 * *"
              jobTemplate:
                spec:
                  template:
                    spec:
                      restartPolicy: Never
                      containers:
                        - name: report
                          image: ghcr.io/acme/billing-report:1.7.3
                          envFrom:
                            - configMapRef: {name: report-settings}
                            - secretRef: {name: smtp-credentials}
            '''),
    },
    compliant={
        "billing.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata:
              name: billing
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: invoice-svc
              namespace: billing
            spec:
              replicas: 2
              selector:
                matchLabels: {app: invoice-svc}
              template:
                metadata:
                  labels: {app: invoice-svc}
                spec:
                  containers:
                    - name: invoice
                      image: ghcr.io/acme/invoice-svc:5.2.0
                      env:
                        - name: DB_HOST
                          valueFrom:
                            configMapKeyRef: {name: invoice-config, key: db_host}
                        - name: SECRET_DIR
                          value: /var/run/secrets/db
                      volumeMounts:
                        - name: db
                          mountPath: /var/run/secrets/db
                          readOnly: true
                    - name: otel
                      image: otel/opentelemetry-collector-contrib:0.110.0
                      ports:
                        - containerPort: 4317
                          hostPort: 4317
                      env:
                        - name: POD_NAME
                          valueFrom:
                            fieldRef: {fieldPath: metadata.name}
                        - name: HONEYCOMB_API_KEY_FILE
                          value: /etc/otel/keys/honeycomb
                      volumeMounts:
                        - {name: keys, mountPath: /etc/otel/keys, readOnly: true}
                  volumes:
                    - name: db
                      secret: {secretName: invoice-db}
                    - name: keys
                      secret: {secretName: observability-keys}
            ---
            apiVersion: batch/v1
            kind: CronJob
            metadata:
              name: monthly-report
              namespace: billing
            spec:
              schedule: "0 6 1 * *"
              jobTemplate:
                spec:
                  template:
                    spec:
                      restartPolicy: Never
                      containers:
                        - name: report
                          image: ghcr.io/acme/billing-report:1.7.3
                          envFrom:
                            - configMapRef: {name: report-settings}
                          volumeMounts:
                            - {name: smtp, mountPath: /etc/smtp}
                      volumes:
                        - name: smtp
                          projected:
                            sources:
                              - secret: {name: smtp-credentials}
            '''),
    },
    kinds="namespaces,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs",
    kyverno=d('''
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata:
          name: secrets-not-from-env
        spec:
          validationFailureAction: Audit
          background: true
          rules:
          - name: no-secret-env
            match:
              any:
              - resources:
                  kinds: [Pod]
            validate:
              message: Secrets must be mounted as files, not exposed as environment variables
              pattern:
                spec:
                  =(initContainers):
                  - =(env):
                    - =(valueFrom):
                        X(secretKeyRef): "null"
                    =(envFrom):
                    - X(secretRef): "null"
                  containers:
                  - =(env):
                    - =(valueFrom):
                        X(secretKeyRef): "null"
                    =(envFrom):
                    - X(secretRef): "null"
        '''),
    rego=REGO_HEAD + POD_SPECS_REGO + d('''
        violations contains o.metadata.name if {
        	some [o, s] in pod_specs
        	some c in all_containers(s)
        	some e in object.get(c, "env", [])
        	e.valueFrom.secretKeyRef
        }

        violations contains o.metadata.name if {
        	some [o, s] in pod_specs
        	some c in all_containers(s)
        	some e in object.get(c, "envFrom", [])
        	e.secretRef
        }
        '''),
)

# ---------------------------------------------------------------- 6 default namespace
scen(
    id="s18-default-namespace-unused", half="catalogue", cis_id="5.7.4",
    platform="kubernetes", classes=K8S_CLASSES,
    title="Nothing that runs containers lives in the default namespace",
    requirement=("The default namespace should not be used for applications: nothing that runs "
                 "containers (a Pod or anything that creates Pods) may be placed in it."),
    violating_resources=["Deployment/default/hello-world", "CronJob/default/nightly-backup"],
    notes="Compliant: the kubernetes Service and a ConfigMap in default (not workloads), a Deployment in a namespace named default-tools.",
    violating={
        "default.yaml": d('''
            apiVersion: v1
            kind: Service
            metadata:
              name: kubernetes
              namespace: default
              labels: {component: apiserver, provider: kubernetes}
            spec:
              type: ClusterIP
              ports:
              - {name: https, port: 443, protocol: TCP, targetPort: 6443}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: hello-world
              namespace: default
            spec:
              replicas: 1
              selector:
                matchLabels: {app: hello-world}
              template:
                metadata:
                  labels: {app: hello-world}
                spec:
                  containers:
                  - name: hello
                    image: gcr.io/google-samples/hello-app:2.0
            ---
            apiVersion: batch/v1
            kind: CronJob
            metadata:
              name: nightly-backup
            spec:
              schedule: "15 1 * * *"
              jobTemplate:
                spec:
                  template:
                    spec:
                      restartPolicy: OnFailure
                      containers:
                      - name: backup
                        image: ghcr.io/acme/pg-backup:16.2
            '''),
        "apps.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: default-tools}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: toolkit
              namespace: default-tools
            spec:
              replicas: 1
              selector:
                matchLabels: {app: toolkit}
              template:
                metadata:
                  labels: {app: toolkit}
                spec:
                  containers:
                  - name: toolkit
                    image: ghcr.io/acme/toolkit:0.3.0
            '''),
    },
    compliant={
        "all.yaml": d('''
            apiVersion: v1
            kind: Service
            metadata:
              name: kubernetes
              namespace: default
            spec:
              type: ClusterIP
              ports:
              - {name: https, port: 443, protocol: TCP, targetPort: 6443}
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: cluster-info-note
              namespace: default
            data:
              owner: platform-team
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: hello}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: hello-world
              namespace: hello
            spec:
              replicas: 1
              selector:
                matchLabels: {app: hello-world}
              template:
                metadata:
                  labels: {app: hello-world}
                spec:
                  containers:
                  - name: hello
                    image: gcr.io/google-samples/hello-app:2.0
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: default-tools}
            ---
            apiVersion: batch/v1
            kind: CronJob
            metadata:
              name: nightly-backup
              namespace: default-tools
            spec:
              schedule: "15 1 * * *"
              jobTemplate:
                spec:
                  template:
                    spec:
                      restartPolicy: OnFailure
                      containers:
                      - name: backup
                        image: ghcr.io/acme/pg-backup:16.2
            '''),
    },
    kinds="namespaces,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs,services,configmaps",
    kyverno=d('''
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata:
          name: disallow-default-namespace
          annotations:
            pod-policies.kyverno.io/autogen-controllers: none
        spec:
          validationFailureAction: Audit
          background: true
          rules:
          - name: no-workloads-in-default
            match:
              any:
              - resources:
                  kinds: [Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, ReplicationController]
            validate:
              message: workloads may not run in the default namespace
              deny:
                conditions:
                  any:
                  - key: "{{ request.object.metadata.namespace || 'default' }}"
                    operator: Equals
                    value: default
        '''),
    rego=REGO_HEAD + d('''
        workload_kinds := {"Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob", "ReplicationController"}

        violations contains o.metadata.name if {
        	some o in input.items
        	o.kind in workload_kinds
        	object.get(o.metadata, "namespace", "default") == "default"
        }
        '''),
)

# ---------------------------------------------------------------- 7 image tags
IMG_RE = r"^([^@]*/)?[^/:@]+(:latest)?$"
scen(
    id="s18-pinned-image-versions", half="catalogue", cis_id=None,
    platform="kubernetes", classes=K8S_CLASSES,
    title="Images pinned to a version (no missing or latest tag)",
    requirement=("Every container image must be pinned to an explicit version. An image reference "
                 "without a tag, or tagged latest, is not acceptable; references pinned by digest "
                 "are fine."),
    violating_resources=["Deployment/shop/cart", "CronJob/ops/log-rotate", "Pod/shop/debug-shell"],
    notes="cart: untagged init container 'busybox'; log-rotate: 'registry.internal:5000/tools/rotate' has a registry port but no tag; debug-shell: ':latest'. Compliant: port+tag, digest only, tag+digest, 'latency-probe', tags like 3.12-slim.",
    violating={
        "shop.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: shop}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: cart
              namespace: shop
            spec:
              replicas: 2
              selector:
                matchLabels: {app: cart}
              template:
                metadata:
                  labels: {app: cart}
                spec:
                  initContainers:
                  - name: wait-for-db
                    image: busybox
                    command: ["sh", "-c", "until nc -z cart-db 5432; do sleep 2; done"]
                  containers:
                  - name: cart
                    image: ghcr.io/acme/cart:2.3.1
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: debug-shell
              namespace: shop
            spec:
              containers:
              - name: shell
                image: docker.io/library/nginx:latest
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: latency-probe
              namespace: shop
            spec:
              replicas: 1
              selector:
                matchLabels: {app: latency-probe}
              template:
                metadata:
                  labels: {app: latency-probe}
                spec:
                  containers:
                  - name: probe
                    image: acme/latency-probe:1.0
            '''),
        "ops.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: ops}
            ---
            apiVersion: batch/v1
            kind: CronJob
            metadata:
              name: log-rotate
              namespace: ops
            spec:
              schedule: "@hourly"
              jobTemplate:
                spec:
                  template:
                    spec:
                      restartPolicy: OnFailure
                      containers:
                      - name: rotate
                        image: registry.internal:5000/tools/rotate
            '''),
    },
    compliant={
        "all.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: shop}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: ops}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: cart
              namespace: shop
            spec:
              replicas: 2
              selector:
                matchLabels: {app: cart}
              template:
                metadata:
                  labels: {app: cart}
                spec:
                  initContainers:
                  - name: wait-for-db
                    image: busybox:1.36.1
                  containers:
                  - name: cart
                    image: ghcr.io/acme/cart:2.3.1
                    securityContext: {privileged: true}
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: debug-shell
              namespace: shop
            spec:
              containers:
              - name: shell
                image: docker.io/library/nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31
              - name: py
                image: python:3.12-slim
            ---
            apiVersion: batch/v1
            kind: CronJob
            metadata:
              name: log-rotate
              namespace: ops
            spec:
              schedule: "@hourly"
              jobTemplate:
                spec:
                  template:
                    spec:
                      restartPolicy: OnFailure
                      containers:
                      - name: rotate
                        image: registry.internal:5000/tools/rotate:0.9.2
                      - name: uploader
                        image: registry.internal:5000/tools/uploader:1.1@sha256:9b2a7e3f4c1d8e6a5b0c7d2e1f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: latency-probe
              namespace: shop
            spec:
              replicas: 1
              selector:
                matchLabels: {app: latency-probe}
              template:
                metadata:
                  labels: {app: latency-probe}
                spec:
                  containers:
                  - name: probe
                    image: acme/latency-probe:1.0
            '''),
    },
    kinds="namespaces,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs",
    kyverno=d('''
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata:
          name: require-pinned-images
          annotations:
            pod-policies.kyverno.io/autogen-controllers: none
        spec:
          validationFailureAction: Audit
          background: true
          rules:
          - name: pods
            match:
              any:
              - resources:
                  kinds: [Pod]
            validate:
              message: images must carry an explicit tag other than latest (or a digest)
              deny:
                conditions:
                  any:
                  - key: "{{ length((request.object.spec.containers || `[]`)[?regex_match('RE', image)]) }}"
                    operator: GreaterThan
                    value: 0
                  - key: "{{ length((request.object.spec.initContainers || `[]`)[?regex_match('RE', image)]) }}"
                    operator: GreaterThan
                    value: 0
          - name: controllers
            match:
              any:
              - resources:
                  kinds: [Deployment, StatefulSet, DaemonSet, ReplicaSet, Job]
            validate:
              message: images must carry an explicit tag other than latest (or a digest)
              deny:
                conditions:
                  any:
                  - key: "{{ length((request.object.spec.template.spec.containers || `[]`)[?regex_match('RE', image)]) }}"
                    operator: GreaterThan
                    value: 0
                  - key: "{{ length((request.object.spec.template.spec.initContainers || `[]`)[?regex_match('RE', image)]) }}"
                    operator: GreaterThan
                    value: 0
          - name: cronjobs
            match:
              any:
              - resources:
                  kinds: [CronJob]
            validate:
              message: images must carry an explicit tag other than latest (or a digest)
              deny:
                conditions:
                  any:
                  - key: "{{ length((request.object.spec.jobTemplate.spec.template.spec.containers || `[]`)[?regex_match('RE', image)]) }}"
                    operator: GreaterThan
                    value: 0
                  - key: "{{ length((request.object.spec.jobTemplate.spec.template.spec.initContainers || `[]`)[?regex_match('RE', image)]) }}"
                    operator: GreaterThan
                    value: 0
        ''').replace("'RE'", "'" + IMG_RE + "'"),
    rego=REGO_HEAD + POD_SPECS_REGO + d('''
        violations contains o.metadata.name if {
        	some [o, s] in pod_specs
        	some c in all_containers(s)
        	regex.match(`RE`, c.image)
        }
        ''').replace("`RE`", "`" + IMG_RE + "`"),
)

# ---------------------------------------------------------------- 8 LB source ranges (novel)
scen(
    id="s18-lb-source-ranges", half="novel", cis_id=None,
    platform="kubernetes", classes=K8S_CLASSES,
    title="LoadBalancer Services restricted to listed client networks",
    requirement=("Cloud load balancers may only accept traffic from the client networks we list. "
                 "A LoadBalancer Service with no loadBalancerSourceRanges, or whose ranges admit the "
                 "whole internet (IPv4 or IPv6), is a finding."),
    violating_resources=["Service/edge/public-gw", "Service/partners/sftp", "Service/edge/gw-v6"],
    notes="public-gw: no ranges; sftp: 0.0.0.0/0 is the second range; gw-v6: ::/0. Compliant: NodePort/ClusterIP without ranges, LBs with private and documentation ranges.",
    violating={
        "edge.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: edge}
            ---
            apiVersion: v1
            kind: Service
            metadata:
              name: public-gw
              namespace: edge
              annotations:
                service.beta.kubernetes.io/aws-load-balancer-type: nlb
            spec:
              type: LoadBalancer
              selector: {app: gateway}
              ports:
              - {name: https, port: 443, targetPort: 8443}
            ---
            apiVersion: v1
            kind: Service
            metadata:
              name: gw-v6
              namespace: edge
            spec:
              type: LoadBalancer
              ipFamilies: [IPv6]
              ipFamilyPolicy: SingleStack
              loadBalancerSourceRanges:
              - 2001:db8:100::/48
              - ::/0
              selector: {app: gateway}
              ports:
              - {name: https, port: 443, targetPort: 8443}
            ---
            apiVersion: v1
            kind: Service
            metadata:
              name: gateway-admin
              namespace: edge
            spec:
              type: NodePort
              selector: {app: gateway}
              ports:
              - {name: admin, port: 9000, nodePort: 30900}
            '''),
        "partners.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: partners}
            ---
            apiVersion: v1
            kind: Service
            metadata:
              name: sftp
              namespace: partners
            spec:
              type: LoadBalancer
              externalTrafficPolicy: Local
              loadBalancerSourceRanges: ["198.51.100.0/24", "0.0.0.0/0"]
              selector: {app: sftp}
              ports:
              - {name: sftp, port: 22, targetPort: 2022}
            ---
            apiVersion: v1
            kind: Service
            metadata:
              name: sftp-internal
              namespace: partners
            spec:
              type: LoadBalancer
              loadBalancerSourceRanges: ["10.0.0.0/8", "192.168.0.0/16"]
              selector: {app: sftp}
              ports:
              - {name: sftp, port: 22, targetPort: 2022}
            '''),
    },
    compliant={
        "all.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: edge}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: partners}
            ---
            apiVersion: v1
            kind: Service
            metadata:
              name: public-gw
              namespace: edge
            spec:
              type: LoadBalancer
              loadBalancerSourceRanges: ["203.0.113.0/24", "198.51.100.64/26"]
              selector: {app: gateway}
              ports:
              - {name: https, port: 443, targetPort: 8443}
            ---
            apiVersion: v1
            kind: Service
            metadata:
              name: gw-v6
              namespace: edge
            spec:
              type: LoadBalancer
              ipFamilies: [IPv6]
              loadBalancerSourceRanges:
              - 2001:db8:100::/48
              selector: {app: gateway}
              ports:
              - {name: https, port: 443, targetPort: 8443}
            ---
            apiVersion: v1
            kind: Service
            metadata:
              name: sftp
              namespace: partners
            spec:
              type: NodePort
              externalIPs: ["203.0.113.10"]
              selector: {app: sftp}
              ports:
              - {name: sftp, port: 22, targetPort: 2022}
            ---
            apiVersion: v1
            kind: Service
            metadata:
              name: sftp-internal
              namespace: partners
            spec:
              type: ClusterIP
              selector: {app: sftp}
              ports:
              - {name: sftp, port: 22, targetPort: 2022}
            '''),
    },
    kinds="namespaces,services",
    kyverno=d('''
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata:
          name: restrict-lb-source-ranges
        spec:
          validationFailureAction: Audit
          background: true
          rules:
          - name: lb-ranges
            match:
              any:
              - resources:
                  kinds: [Service]
            preconditions:
              all:
              - key: "{{ request.object.spec.type || '' }}"
                operator: Equals
                value: LoadBalancer
            validate:
              message: LoadBalancer Services need loadBalancerSourceRanges that exclude 0.0.0.0/0 and ::/0
              deny:
                conditions:
                  any:
                  - key: "{{ length(request.object.spec.loadBalancerSourceRanges || `[]`) }}"
                    operator: Equals
                    value: 0
                  - key: "{{ request.object.spec.loadBalancerSourceRanges || `[]` }}"
                    operator: AnyIn
                    value: ["0.0.0.0/0", "::/0"]
        '''),
    rego=REGO_HEAD + d('''
        lbs contains o if {
        	some o in input.items
        	o.kind == "Service"
        	o.spec.type == "LoadBalancer"
        }

        violations contains o.metadata.name if {
        	some o in lbs
        	count(object.get(o.spec, "loadBalancerSourceRanges", [])) == 0
        }

        violations contains o.metadata.name if {
        	some o in lbs
        	some r in o.spec.loadBalancerSourceRanges
        	r in {"0.0.0.0/0", "::/0"}
        }
        '''),
)

# ---------------------------------------------------------------- 9 emptyDir memory (novel)
scen(
    id="s18-tmpfs-size-limit", half="novel", cis_id=None,
    platform="kubernetes", classes=K8S_CLASSES,
    title="RAM-backed emptyDir volumes must set sizeLimit",
    requirement=("Scratch volumes held in RAM (tmpfs) must be capped, so one pod cannot exhaust a "
                 "node's memory through its scratch space."),
    violating_resources=["StatefulSet/cache/memcached", "CronJob/etl/transform"],
    notes="memcached: second volume emptyDir medium Memory without sizeLimit; transform: CronJob template. Compliant: Memory with sizeLimit, disk emptyDir without sizeLimit.",
    violating={
        "cache.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: cache}
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: memcached
              namespace: cache
            spec:
              serviceName: memcached
              replicas: 3
              selector:
                matchLabels: {app: memcached}
              template:
                metadata:
                  labels: {app: memcached}
                spec:
                  containers:
                  - name: memcached
                    image: docker.io/library/memcached:1.6.29
                    resources:
                      limits: {memory: 2Gi}
                    volumeMounts:
                    - {name: scratch, mountPath: /scratch}
                    - {name: shm, mountPath: /dev/shm}
                  volumes:
                  - name: scratch
                    emptyDir: {}
                  - name: shm
                    emptyDir:
                      medium: Memory
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: warmer
              namespace: cache
            spec:
              replicas: 1
              selector:
                matchLabels: {app: warmer}
              template:
                metadata:
                  labels: {app: warmer}
                spec:
                  containers:
                  - name: warmer
                    image: ghcr.io/acme/cache-warmer:0.8.0
                  volumes:
                  - name: shm
                    emptyDir: {medium: Memory, sizeLimit: 128Mi}
            '''),
        "etl.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: etl}
            ---
            apiVersion: batch/v1
            kind: CronJob
            metadata:
              name: transform
              namespace: etl
            spec:
              schedule: "*/20 * * * *"
              concurrencyPolicy: Forbid
              jobTemplate:
                spec:
                  template:
                    spec:
                      restartPolicy: Never
                      containers:
                      - name: spark
                        image: ghcr.io/acme/transform:3.5.1
                        volumeMounts:
                        - {name: spill, mountPath: /spill}
                      volumes:
                      - name: spill
                        emptyDir: {medium: "Memory"}
            '''),
    },
    compliant={
        "all.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: cache}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: etl}
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: memcached
              namespace: cache
            spec:
              serviceName: memcached
              replicas: 3
              selector:
                matchLabels: {app: memcached}
              template:
                metadata:
                  labels: {app: memcached}
                spec:
                  containers:
                  - name: memcached
                    image: docker.io/library/memcached:1.6.29
                  volumes:
                  - name: scratch
                    emptyDir: {}
                  - name: shm
                    emptyDir:
                      medium: Memory
                      sizeLimit: 256Mi
            ---
            apiVersion: batch/v1
            kind: CronJob
            metadata:
              name: transform
              namespace: etl
            spec:
              schedule: "*/20 * * * *"
              jobTemplate:
                spec:
                  template:
                    spec:
                      restartPolicy: Never
                      containers:
                      - name: spark
                        image: ghcr.io/acme/transform:3.5.1
                      volumes:
                      - name: spill
                        emptyDir: {medium: ""}
                      - name: spill2
                        emptyDir: {}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: warmer
              namespace: cache
            spec:
              replicas: 1
              selector:
                matchLabels: {app: warmer}
              template:
                metadata:
                  labels: {app: warmer}
                spec:
                  hostIPC: true
                  containers:
                  - name: warmer
                    image: ghcr.io/acme/cache-warmer:0.8.0
            '''),
    },
    kinds="namespaces,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs",
    kyverno=d('''
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata:
          name: memory-emptydir-size-limit
        spec:
          validationFailureAction: Audit
          background: true
          rules:
          - name: tmpfs-needs-size-limit
            match:
              any:
              - resources:
                  kinds: [Pod]
            validate:
              message: emptyDir volumes with medium Memory must set sizeLimit
              pattern:
                spec:
                  =(volumes):
                  - =(emptyDir):
                      (medium): Memory
                      sizeLimit: "?*"
        '''),
    rego=REGO_HEAD + POD_SPECS_REGO + d('''
        violations contains o.metadata.name if {
        	some [o, s] in pod_specs
        	some v in object.get(s, "volumes", [])
        	v.emptyDir.medium == "Memory"
        	not v.emptyDir.sizeLimit
        }
        '''),
)

# ---------------------------------------------------------------- 10 grace period (novel)
scen(
    id="s18-prod-grace-period-bound", half="novel", cis_id=None,
    platform="kubernetes", classes=K8S_CLASSES,
    title="Termination grace period at most two minutes in env=prod namespaces",
    requirement=("In namespaces labelled env=prod, every pod must be able to shut down within two "
                 "minutes: its termination grace period may not be longer than that."),
    violating_resources=["Deployment/orders/api", "StatefulSet/streaming/broker"],
    notes="api: terminationGracePeriodSeconds 600; broker: 3600. Boundary 120 is compliant; staging/preprod namespaces are out of scope; unset means the 30 s default.",
    violating={
        "namespaces.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata:
              name: orders
              labels: {env: prod, team: orders}
            ---
            apiVersion: v1
            kind: Namespace
            metadata:
              name: streaming
              labels:
                env: prod
            ---
            apiVersion: v1
            kind: Namespace
            metadata:
              name: orders-staging
              labels: {env: staging, team: orders}
            '''),
        "workloads.yaml": d('''
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: api
              namespace: orders
            spec:
              replicas: 4
              selector:
                matchLabels: {app: orders-api}
              template:
                metadata:
                  labels: {app: orders-api}
                spec:
                  terminationGracePeriodSeconds: 600
                  containers:
                  - name: api
                    image: ghcr.io/acme/orders-api:7.1.0
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: worker
              namespace: orders
            spec:
              replicas: 2
              selector:
                matchLabels: {app: orders-worker}
              template:
                metadata:
                  labels: {app: orders-worker}
                spec:
                  terminationGracePeriodSeconds: 120
                  containers:
                  - name: worker
                    image: ghcr.io/acme/orders-worker:7.1.0
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: broker
              namespace: streaming
            spec:
              serviceName: broker
              replicas: 3
              selector:
                matchLabels: {app: broker}
              template:
                metadata:
                  labels: {app: broker}
                spec:
                  terminationGracePeriodSeconds: 3600
                  containers:
                  - name: kafka
                    image: docker.io/bitnami/kafka:3.8.0
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: api
              namespace: orders-staging
            spec:
              replicas: 1
              selector:
                matchLabels: {app: orders-api}
              template:
                metadata:
                  labels: {app: orders-api}
                spec:
                  terminationGracePeriodSeconds: 900
                  containers:
                  - name: api
                    image: ghcr.io/acme/orders-api:7.2.0-rc1
            '''),
    },
    compliant={
        "namespaces.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata:
              name: orders
              labels: {env: prod, team: orders}
            ---
            apiVersion: v1
            kind: Namespace
            metadata:
              name: streaming
              labels:
                env: prod
            ---
            apiVersion: v1
            kind: Namespace
            metadata:
              name: orders-staging
              labels: {env: staging, team: orders}
            ---
            apiVersion: v1
            kind: Namespace
            metadata:
              name: prod-mirror
              labels: {env: preprod}
            '''),
        "workloads.yaml": d('''
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: api
              namespace: orders
            spec:
              replicas: 4
              selector:
                matchLabels: {app: orders-api}
              template:
                metadata:
                  labels: {app: orders-api}
                spec:
                  terminationGracePeriodSeconds: 90
                  containers:
                  - name: api
                    image: ghcr.io/acme/orders-api:7.1.0
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: worker
              namespace: orders
            spec:
              replicas: 2
              selector:
                matchLabels: {app: orders-worker}
              template:
                metadata:
                  labels: {app: orders-worker}
                spec:
                  terminationGracePeriodSeconds: 120
                  containers:
                  - name: worker
                    image: ghcr.io/acme/orders-worker:7.1.0
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: broker
              namespace: streaming
            spec:
              serviceName: broker
              replicas: 3
              selector:
                matchLabels: {app: broker}
              template:
                metadata:
                  labels: {app: broker}
                spec:
                  containers:
                  - name: kafka
                    image: docker.io/bitnami/kafka:3.8.0
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: api
              namespace: orders-staging
            spec:
              replicas: 1
              selector:
                matchLabels: {app: orders-api}
              template:
                metadata:
                  labels: {app: orders-api}
                spec:
                  terminationGracePeriodSeconds: 900
                  containers:
                  - name: api
                    image: ghcr.io/acme/orders-api:7.2.0-rc1
            ---
            apiVersion: apps/v1
            kind: StatefulSet
            metadata:
              name: broker
              namespace: prod-mirror
            spec:
              serviceName: broker
              replicas: 1
              selector:
                matchLabels: {app: broker}
              template:
                metadata:
                  labels: {app: broker}
                spec:
                  terminationGracePeriodSeconds: 300
                  containers:
                  - name: kafka
                    image: docker.io/bitnami/kafka:3.8.0
            '''),
    },
    kinds="namespaces,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs",
    kyverno=d('''
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata:
          name: prod-grace-period
        spec:
          validationFailureAction: Audit
          background: true
          rules:
          - name: grace-at-most-120s
            match:
              any:
              - resources:
                  kinds: [Pod]
                  namespaceSelector:
                    matchLabels:
                      env: prod
            validate:
              message: terminationGracePeriodSeconds may not exceed 120 in env=prod namespaces
              pattern:
                spec:
                  =(terminationGracePeriodSeconds): "<=120"
        '''),
    rego=REGO_HEAD + POD_SPECS_REGO + d('''
        prod_ns contains n.metadata.name if {
        	some n in input.items
        	n.kind == "Namespace"
        	n.metadata.labels.env == "prod"
        }

        violations contains o.metadata.name if {
        	some [o, s] in pod_specs
        	object.get(o.metadata, "namespace", "default") in prod_ns
        	s.terminationGracePeriodSeconds > 120
        }
        '''),
)

# ---------------------------------------------------------------- 11 anonymous bindings (novel)
scen(
    id="s18-no-anonymous-bindings", half="novel", cis_id=None,
    platform="kubernetes", classes=K8S_CLASSES,
    title="No RBAC grants to anonymous or unauthenticated callers",
    requirement=("Nothing in RBAC may grant permissions to anonymous or unauthenticated requests. "
                 "The one binding Kubernetes itself installs for that purpose, "
                 "system:public-info-viewer, is accepted."),
    violating_resources=["ClusterRoleBinding//legacy-metrics-open", "RoleBinding/status/public-status"],
    notes="legacy-metrics-open: Group system:unauthenticated; public-status: second subject User system:anonymous. Compliant: system:authenticated, a ServiceAccount named anonymous, the default public-info-viewer binding.",
    violating={
        "cluster.yaml": d('''
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: system:public-info-viewer
            rules:
            - nonResourceURLs: ["/healthz", "/livez", "/readyz", "/version", "/version/"]
              verbs: ["get"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRoleBinding
            metadata:
              name: system:public-info-viewer
              labels: {kubernetes.io/bootstrapping: rbac-defaults}
            roleRef:
              apiGroup: rbac.authorization.k8s.io
              kind: ClusterRole
              name: system:public-info-viewer
            subjects:
            - apiGroup: rbac.authorization.k8s.io
              kind: Group
              name: system:authenticated
            - apiGroup: rbac.authorization.k8s.io
              kind: Group
              name: system:unauthenticated
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: metrics-reader
            rules:
            - nonResourceURLs: ["/metrics"]
              verbs: ["get"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRoleBinding
            metadata:
              name: legacy-metrics-open
            roleRef:
              apiGroup: rbac.authorization.k8s.io
              kind: ClusterRole
              name: metrics-reader
            subjects:
            - apiGroup: rbac.authorization.k8s.io
              kind: Group
              name: system:unauthenticated
            '''),
        "status.yaml": d('''
            apiVersion: v1
            kind: Namespace
            metadata: {name: status}
            ---
            apiVersion: v1
            kind: ServiceAccount
            metadata: {name: status-page, namespace: status}
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: Role
            metadata: {name: status-reader, namespace: status}
            rules:
            - apiGroups: [""]
              resources: ["configmaps"]
              resourceNames: ["status-banner"]
              verbs: ["get"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: RoleBinding
            metadata: {name: public-status, namespace: status}
            roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: status-reader}
            subjects:
            - kind: ServiceAccount
              name: status-page
              namespace: status
            - apiGroup: rbac.authorization.k8s.io
              kind: User
              name: system:anonymous
            '''),
    },
    compliant={
        "all.yaml": d('''
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: system:public-info-viewer
            rules:
            - nonResourceURLs: ["/healthz", "/livez", "/readyz", "/version", "/version/"]
              verbs: ["get"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRoleBinding
            metadata:
              name: system:public-info-viewer
            roleRef:
              apiGroup: rbac.authorization.k8s.io
              kind: ClusterRole
              name: system:public-info-viewer
            subjects:
            - {apiGroup: rbac.authorization.k8s.io, kind: Group, name: system:authenticated}
            - {apiGroup: rbac.authorization.k8s.io, kind: Group, name: system:unauthenticated}
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata:
              name: metrics-reader
            rules:
            - nonResourceURLs: ["/metrics"]
              verbs: ["get"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRoleBinding
            metadata:
              name: legacy-metrics-open
            roleRef:
              apiGroup: rbac.authorization.k8s.io
              kind: ClusterRole
              name: metrics-reader
            subjects:
            - apiGroup: rbac.authorization.k8s.io
              kind: Group
              name: system:authenticated
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: status}
            ---
            apiVersion: v1
            kind: ServiceAccount
            metadata: {name: anonymous, namespace: status}
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: Role
            metadata: {name: status-reader, namespace: status}
            rules:
            - apiGroups: [""]
              resources: ["configmaps"]
              verbs: ["*"]
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: RoleBinding
            metadata: {name: public-status, namespace: status}
            roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: status-reader}
            subjects:
            - kind: ServiceAccount
              name: anonymous
              namespace: status
            '''),
    },
    kinds="namespaces,serviceaccounts,roles,rolebindings,clusterroles,clusterrolebindings",
    kyverno=d('''
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata:
          name: no-anonymous-rbac
        spec:
          validationFailureAction: Audit
          background: true
          rules:
          - name: no-anonymous-subjects
            match:
              any:
              - resources:
                  kinds: [RoleBinding, ClusterRoleBinding]
            exclude:
              any:
              - resources:
                  kinds: [ClusterRoleBinding]
                  names: ["system:public-info-viewer"]
            validate:
              message: bindings to system:anonymous or system:unauthenticated are not allowed
              deny:
                conditions:
                  any:
                  - key: "{{ request.object.subjects[?kind != 'ServiceAccount'].name || `[]` }}"
                    operator: AnyIn
                    value: ["system:anonymous", "system:unauthenticated"]
        '''),
    rego=REGO_HEAD + d('''
        exempt(o) if {
        	o.kind == "ClusterRoleBinding"
        	o.metadata.name == "system:public-info-viewer"
        }

        violations contains o.metadata.name if {
        	some o in input.items
        	o.kind in {"RoleBinding", "ClusterRoleBinding"}
        	not exempt(o)
        	some sub in object.get(o, "subjects", [])
        	sub.kind in {"User", "Group"}
        	sub.name in {"system:anonymous", "system:unauthenticated"}
        }
        '''),
)

# ================================================================= RHEL 9
SSHD_MAIN = d('''
    #	$OpenBSD: sshd_config,v 1.104 2021/07/02 05:11:21 dtucker Exp $

    # This is the sshd server system-wide configuration file.  See
    # sshd_config(5) for more information.

    # To modify the system-wide sshd configuration, create a  *.conf  file under
    #  /etc/ssh/sshd_config.d/  which will be automatically included below
    Include /etc/ssh/sshd_config.d/*.conf

    # If you want to change the port on a SELinux system, you have to tell
    # SELinux about this change.
    # semanage port -a -t ssh_port_t -p tcp #PORTNUMBER
    #
    #Port 22
    #AddressFamily any
    #ListenAddress 0.0.0.0

    #HostKey /etc/ssh/ssh_host_rsa_key
    #HostKey /etc/ssh/ssh_host_ecdsa_key
    #HostKey /etc/ssh/ssh_host_ed25519_key

    # Logging
    #SyslogFacility AUTH
    #LogLevel INFO

    # Authentication:

    #LoginGraceTime 2m
    #PermitRootLogin prohibit-password
    #StrictModes yes
    #MaxAuthTries 6
    #MaxSessions 10

    #PubkeyAuthentication yes

    AuthorizedKeysFile	.ssh/authorized_keys

    #PasswordAuthentication yes
    #PermitEmptyPasswords no

    #X11Forwarding no
    #PrintMotd yes

    # override default of no subsystems
    Subsystem	sftp	/usr/libexec/openssh/sftp-server

    PermitRootLogin no
    ''')

REDHAT_DROPIN = d('''
    # This system is following system-wide crypto policy. The changes to
    # crypto properties (Ciphers, MACs, ...) will not have any effect in
    # this or following included files. To override some configuration option,
    # write it before this block or in a file with lower lexical order.
    Include /etc/crypto-policies/back-ends/opensshserver.config

    SyslogFacility AUTHPRIV

    ChallengeResponseAuthentication no

    GSSAPIAuthentication yes
    GSSAPICleanupCredentials no

    UsePAM yes

    X11Forwarding yes

    PrintMotd no
    ''')

SSHD_PLAYBOOK = d('''
    - name: Collect the effective sshd configuration files
      hosts: rhel9_servers
      gather_facts: false
      tasks:
        - name: Read the main sshd_config
          ansible.builtin.slurp:
            src: /etc/ssh/sshd_config
          register: main_cfg

        - name: Find drop-in files
          ansible.builtin.find:
            paths: /etc/ssh/sshd_config.d
            patterns: "*.conf"
          register: dropin_files

        - name: Read drop-in files
          ansible.builtin.slurp:
            src: "{{ item.path }}"
          loop: "{{ dropin_files.files }}"
          register: dropins

        - name: Write collected_data.json
          ansible.builtin.copy:
            content: "{{ {'main': main_cfg.content | b64decode, 'dropins': dropins.results | map(attribute='source') | zip(dropins.results | map(attribute='content') | map('b64decode')) | map('list') | list} | to_json }}"
            dest: "{{ playbook_dir }}/collected_data.json"
          delegate_to: localhost
    ''')

SSHD_REGO = d('''
    package check

    import rego.v1

    # Effective sshd value: the first occurrence wins; drop-ins are read (in lexical
    # order) where the main file's Include line stands.
    default result := false

    main_lines := split(input.main, "\\n")

    include_idx := [i | some i, l in main_lines; startswith(lower(trim_space(l)), "include /etc/ssh/sshd_config.d/")]

    dropin_paths := sort([p | some pair in input.dropins; p := pair[0]])

    dropin_content[p] := c if {
    	some pair in input.dropins
    	p := pair[0]
    	c := pair[1]
    }

    dropin_lines := [l | some p in dropin_paths; some l in split(dropin_content[p], "\\n")]

    ordered := array.concat(array.concat(array.slice(main_lines, 0, include_idx[0]), dropin_lines), array.slice(main_lines, include_idx[0] + 1, count(main_lines))) if {
    	count(include_idx) > 0
    } else := main_lines

    values := [lower(w[1]) |
    	some l in ordered
    	t := trim_space(l)
    	not startswith(t, "#")
    	w := regex.split(`[\\s=]+`, t)
    	count(w) > 1
    	lower(w[0]) == "permitrootlogin"
    ]

    result if {
    	count(values) > 0
    	values[0] == "no"
    }
    ''')

scen(
    id="s18-rhel9-ssh-root-login", half="catalogue", cis_id="5.1.20",
    platform="rhel9", classes=["rhel9-ansible-opa"],
    title="SSH root login disabled",
    requirement="Ensure direct root logins over SSH are disabled on the RHEL 9 servers.",
    violating_resources=["sshd//PermitRootLogin"],
    notes=("Violating: main sshd_config ends with 'PermitRootLogin no', but the installer's drop-in "
           "/etc/ssh/sshd_config.d/01-permitrootlogin.conf says 'PermitRootLogin yes' and is included "
           "first (sshd: first value wins). Compliant: same main file, the drop-in only has it commented; "
           "X11Forwarding yes in 50-redhat.conf is another control."),
    host_violating={
        "etc/ssh/sshd_config": SSHD_MAIN,
        "etc/ssh/sshd_config.d/01-permitrootlogin.conf": "# Created by anaconda\nPermitRootLogin yes\n",
        "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_DROPIN,
    },
    host_compliant={
        "etc/ssh/sshd_config": SSHD_MAIN,
        "etc/ssh/sshd_config.d/01-permitrootlogin.conf": "# Created by anaconda\n#PermitRootLogin yes\n",
        "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_DROPIN,
    },
    attrs={"/etc/ssh/sshd_config": {"mode": "0600", "owner": "root", "group": "root"}},
    playbook=SSHD_PLAYBOOK, prego=SSHD_REGO,
)

LOGIN_DEFS = d('''
    #
    # Please note that the parameters in this configuration file control the
    # behavior of the tools from the shadow-utils component. None of these
    # tools uses the PAM mechanism, and the utilities that use PAM (such as the
    # passwd command) should therefore be configured elsewhere. Refer to
    # /etc/pam.d/system-auth for more information.
    #

    # Directory where mailboxes reside, _or_ name of file, relative to the
    # home directory. If you _do_ define both, MAIL_DIR takes precedence.
    #
    MAIL_DIR	/var/spool/mail
    #MAIL_FILE	.mail

    # Password aging controls:
    #
    #	PASS_MAX_DAYS	Maximum number of days a password may be used.
    #	PASS_MIN_DAYS	Minimum number of days allowed between password changes.
    #	PASS_MIN_LEN	Minimum acceptable password length.
    #	PASS_WARN_AGE	Number of days warning given before a password expires.
    #
    @@AGING@@
    PASS_MIN_DAYS	1
    PASS_WARN_AGE	7

    #
    # Min/max values for automatic uid selection in useradd(8)
    #
    UID_MIN                  1000
    UID_MAX                 60000
    SYS_UID_MIN               201
    SYS_UID_MAX               999

    GID_MIN                  1000
    GID_MAX                 60000

    CREATE_HOME	yes
    UMASK		022
    USERGROUPS_ENAB yes
    ENCRYPT_METHOD SHA512
    ''')

scen(
    id="s18-rhel9-password-max-age", half="catalogue", cis_id="5.6.1.1",
    platform="rhel9", classes=["rhel9-ansible-opa"],
    title="Password expiration 365 days or less",
    requirement=("Passwords of local accounts must expire: the maximum password age configured for "
                 "new accounts has to be one year (365 days) or less."),
    violating_resources=["login.defs//PASS_MAX_DAYS"],
    notes="Violating: 'PASS_MAX_DAYS\\t99999' (the shipped default), the comment block also names PASS_MAX_DAYS. Compliant: 'PASS_MAX_DAYS   365' (boundary) with a commented '#PASS_MAX_DAYS 99999' line.",
    host_violating={"etc/login.defs": LOGIN_DEFS.replace("@@AGING@@", "PASS_MAX_DAYS\t99999")},
    host_compliant={"etc/login.defs": LOGIN_DEFS.replace(
        "@@AGING@@", "#PASS_MAX_DAYS\t99999\nPASS_MAX_DAYS   365")},
    attrs=None,
    playbook=d('''
        - name: Collect password aging defaults
          hosts: rhel9_servers
          gather_facts: false
          tasks:
            - name: Read /etc/login.defs
              ansible.builtin.slurp:
                src: /etc/login.defs
              register: logindefs
            - name: Save it
              ansible.builtin.copy:
                content: "{{ {'login_defs': logindefs.content | b64decode} | to_json }}"
                dest: "{{ playbook_dir }}/collected_data.json"
              delegate_to: localhost
        '''),
    prego=d('''
        package check

        import rego.v1

        default result := false

        values := [to_number(w[1]) |
        	some l in split(input.login_defs, "\\n")
        	t := trim_space(l)
        	not startswith(t, "#")
        	w := regex.split(`\\s+`, t)
        	count(w) > 1
        	w[0] == "PASS_MAX_DAYS"
        ]

        result if {
        	count(values) > 0
        	values[count(values) - 1] <= 365
        	values[count(values) - 1] >= 0
        }
        '''),
)

SYSCTL_PLAYBOOK = d('''
    - name: Collect persistent sysctl configuration
      hosts: rhel9_servers
      gather_facts: false
      tasks:
        - name: Find sysctl.d files
          ansible.builtin.find:
            paths: [/etc/sysctl.d, /run/sysctl.d, /usr/local/lib/sysctl.d, /usr/lib/sysctl.d]
            patterns: "*.conf"
          register: found
        - name: Read them
          ansible.builtin.slurp:
            src: "{{ item.path }}"
          loop: "{{ found.files }}"
          register: files
        - name: Check /etc/sysctl.conf
          ansible.builtin.stat:
            path: /etc/sysctl.conf
          register: sc
        - name: Read /etc/sysctl.conf
          ansible.builtin.slurp:
            src: /etc/sysctl.conf
          register: sysctl_conf
          when: sc.stat.exists
        - name: Save
          ansible.builtin.copy:
            content: "{{ {'files': files.results | map(attribute='source') | zip(files.results | map(attribute='content') | map('b64decode')) | map('list') | list, 'sysctl_conf': (sysctl_conf.content | b64decode) if sc.stat.exists else ''} | to_json }}"
            dest: "{{ playbook_dir }}/collected_data.json"
          delegate_to: localhost
    ''')

SYSCTL_REGO = d('''
    package check

    import rego.v1

    default result := false

    dir_prio := {"/etc/sysctl.d": 0, "/run/sysctl.d": 1, "/usr/local/lib/sysctl.d": 2, "/usr/lib/sysctl.d": 3}

    entries contains [base, prio, content] if {
    	some pair in input.files
    	parts := split(pair[0], "/")
    	base := parts[count(parts) - 1]
    	dir := concat("/", array.slice(parts, 0, count(parts) - 1))
    	prio := dir_prio[dir]
    	content := pair[1]
    }

    names := sort({b | some [b, _, _] in entries})

    chosen[b] := c if {
    	some b in names
    	best := min({p | some [b2, p, _] in entries; b2 == b})
    	some [b3, p3, c] in entries
    	b3 == b
    	p3 == best
    }

    texts := array.concat([chosen[b] | some b in names], [input.sysctl_conf])

    values := [v |
    	some t in texts
    	some l in split(t, "\\n")
    	s := trim_space(l)
    	not startswith(s, "#")
    	not startswith(s, ";")
    	contains(s, "=")
    	kv := split(s, "=")
    	replace(trim_space(kv[0]), "/", ".") == "kernel.kptr_restrict"
    	v := to_number(trim_space(kv[1]))
    ]

    result if {
    	count(values) > 0
    	values[count(values) - 1] >= 1
    }
    ''')

scen(
    id="s18-rhel9-kptr-restrict", half="novel", cis_id=None,
    platform="rhel9", classes=["rhel9-ansible-opa"],
    title="kernel.kptr_restrict persistently at 1 or higher",
    requirement=("Kernel pointer addresses must stay hidden from unprivileged users after every "
                 "reboot: the persistent sysctl configuration has to leave kernel.kptr_restrict at "
                 "1 or higher."),
    violating_resources=["sysctl//kernel.kptr_restrict"],
    notes=("Violating: 50-hardening.conf sets 1, but 99-perf-tracing.conf (read later) sets 0. Compliant: "
           "10-perf.conf sets 0, 60-hardening.conf (later) sets 2; a commented '# kernel.kptr_restrict = 0' "
           "in sysctl.conf; /usr/lib/sysctl.d/20-vendor.conf=0 comes earlier than 60-hardening.conf, and /usr/lib/sysctl.d/60-hardening.conf=0 is shadowed by the /etc file of the same name."),
    host_violating={
        "etc/sysctl.conf": "# sysctl settings are defined through files in\n# /usr/lib/sysctl.d/, /run/sysctl.d/, and /etc/sysctl.d/.\n",
        "etc/sysctl.d/50-hardening.conf": "# CIS hardening\nkernel.dmesg_restrict = 1\n# kernel.kptr_restrict = 0\nkernel.kptr_restrict = 1\nkernel.yama.ptrace_scope = 1\n",
        "etc/sysctl.d/99-perf-tracing.conf": "# needed by the perf team for flame graphs (INC-4411)\nkernel.perf_event_paranoid=-1\nkernel.kptr_restrict=0\n",
        "usr/lib/sysctl.d/10-default-yama-scope.conf": "kernel.yama.ptrace_scope = 0\n",
        "usr/lib/sysctl.d/50-default.conf": "kernel.sysrq = 16\nkernel.core_uses_pid = 1\nnet.ipv4.conf.default.rp_filter = 2\n",
    },
    host_compliant={
        "etc/sysctl.conf": "# sysctl settings are defined through files in\n# /usr/lib/sysctl.d/, /run/sysctl.d/, and /etc/sysctl.d/.\n# kernel.kptr_restrict = 0\n",
        "etc/sysctl.d/10-perf.conf": "kernel.perf_event_paranoid = 2\nkernel.kptr_restrict = 0\n",
        "etc/sysctl.d/50-hardening.conf": "kernel.dmesg_restrict = 0\n",
        "etc/sysctl.d/60-hardening.conf": "kernel.kptr_restrict = 2\n",
        "usr/lib/sysctl.d/10-default-yama-scope.conf": "kernel.yama.ptrace_scope = 0\n",
        "usr/lib/sysctl.d/50-default.conf": "kernel.sysrq = 16\nkernel.core_uses_pid = 1\n",
        "usr/lib/sysctl.d/20-vendor.conf": "kernel.kptr_restrict = 0\n",
        "usr/lib/sysctl.d/60-hardening.conf": "kernel.kptr_restrict = 0\n",
    },
    attrs=None,
    playbook=SYSCTL_PLAYBOOK, prego=SYSCTL_REGO,
)


# ================================================================= writer
def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="\n") as fh:
        fh.write(text)
    os.chmod(path, mode)


def scenario_yaml(s):
    out = ["id: " + s["id"]]
    if s.get("cis_id"):
        out.append("cis_id: " + q(s["cis_id"]))
    out.append("platform: " + s["platform"])
    out.append("title: " + q(s["title"]))
    out.append("requirement: " + q(s["requirement"]))
    out.append("classes: [" + ", ".join(s["classes"]) + "]")
    out.append("violating_resources:")
    out += ["  - " + q(r) for r in s["violating_resources"]]
    out.append("notes: " + q("[" + s["half"] + "] " + s["notes"]))
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python gen.py OUT")
    root = sys.argv[1]
    os.makedirs(root, exist_ok=True)
    for s in SCENARIOS:
        base = os.path.join(root, s["id"])
        write(os.path.join(base, "scenario.yaml"), scenario_yaml(s))
        if s["platform"] == "kubernetes":
            for env in ("violating", "compliant"):
                for name, text in sorted(s[env].items()):
                    write(os.path.join(base, env, name), text)
            sol = os.path.join(base, "solution")
            write(os.path.join(sol, "kyverno-policy.yaml"), s["kyverno"])
            write(os.path.join(sol, "policy.rego"), s["rego"])
            write(os.path.join(sol, "fetcher.sh"), fetcher(s["kinds"]), 0o755)
            write(os.path.join(sol, "fetch.sh"), FETCH_SH, 0o755)
        else:
            for env, key in (("violating", "host_violating"), ("compliant", "host_compliant")):
                for name, text in sorted(s[key].items()):
                    write(os.path.join(base, env, "host", name), text)
                if s.get("attrs"):
                    lines = []
                    for p, a in sorted(s["attrs"].items()):
                        lines.append(p + ":")
                        for k in ("mode", "owner", "group"):
                            lines.append("  %s: %s" % (k, q(a[k])))
                    write(os.path.join(base, env, "host-attributes.yaml"), "\n".join(lines) + "\n")
            sol = os.path.join(base, "solution")
            write(os.path.join(sol, "playbook.yml"), s["playbook"])
            write(os.path.join(sol, "policy.rego"), s["prego"])
    print("wrote %d scenarios to %s" % (len(SCENARIOS), root))


if __name__ == "__main__":
    main()
