#!/usr/bin/env python3
"""ciso-set19: 14 held-out CISO scenarios (11 Kubernetes, 3 RHEL 9).

Usage: python gen.py OUT   -- writes OUT/<scenario>/{scenario.yaml, violating/, compliant/}
Stdlib only, deterministic.
"""
import os
import sys

K3 = "[kyverno, kubectl-opa, opa-static]"
RH = "[rhel9-ansible-opa]"

SCENARIOS = []


def scen(sid, platform, requirement, classes, violating, notes, violating_files, compliant_files,
         cis_id=None, title=None):
    SCENARIOS.append(dict(id=sid, platform=platform, requirement=requirement, classes=classes,
                          violating=violating, notes=notes, vfiles=violating_files,
                          cfiles=compliant_files, cis_id=cis_id, title=title))


def q(s):
    """YAML double-quoted scalar."""
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def ns(name, labels=None):
    lab = ""
    if labels:
        lab = "\n  labels:\n" + "".join(f"    {k}: {q(v)}\n" for k, v in labels.items()).rstrip("\n")
    return f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {name}{lab}\n"


# ---------------------------------------------------------------------------
# K1 catalogue: privileged containers (PSS baseline / CIS 5.2.2)
# ---------------------------------------------------------------------------
K1_V = {
    "namespaces.yaml": ns("storefront") + "---\n" + ns("batch"),
    "web.yaml": """apiVersion: apps/v1
kind: Deployment
metadata:
  name: storefront-web
  namespace: storefront
  labels: {app: storefront-web}
spec:
  replicas: 3
  selector:
    matchLabels: {app: storefront-web}
  template:
    metadata:
      labels: {app: storefront-web}
    spec:
      containers:
        - name: web
          image: registry.corp.example/storefront/web:4.2.1
          securityContext:
            privileged: false
            allowPrivilegeEscalation: false
        - name: log-shipper
          image: docker.io/fluent/fluent-bit:3.0.7
          securityContext:
            privileged: true
---
apiVersion: v1
kind: Service
metadata:
  name: storefront-web
  namespace: storefront
spec:
  selector: {app: storefront-web}
  ports:
    - port: 80
      targetPort: 8080
""",
    "jobs.yaml": """apiVersion: batch/v1
kind: CronJob
metadata:
  name: disk-report
  namespace: batch
spec:
  schedule: "17 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          initContainers:
            - name: mount-prep
              image: registry.corp.example/tools/busybox:1.36
              command: ["sh", "-c", "mount -o remount,rw /host"]
              securityContext: {privileged: true}
          containers:
            - name: report
              image: registry.corp.example/tools/disk-report:0.9.3
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: batch
spec:
  replicas: 1
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
        - name: api
          image: registry.corp.example/batch/api:1.0.0
""",
}
K1_C = {
    "namespaces.yaml": ns("storefront") + "---\n" + ns("batch"),
    "web.yaml": K1_V["web.yaml"].replace("""          securityContext:
            privileged: true
""", """          securityContext:
            privileged: false
            capabilities:
              add: ["SYS_ADMIN"]
"""),
    "jobs.yaml": K1_V["jobs.yaml"].replace("securityContext: {privileged: true}",
                                           "securityContext: {privileged: false, runAsUser: 0}").replace(
        """      containers:
        - name: api
""", """      hostPID: true
      containers:
        - name: api
"""),
}
scen("set19-k-privileged", "kubernetes",
     "Running containers in privileged mode is not allowed anywhere in the cluster. This covers "
     "every container of a workload, including sidecars and init containers.",
     K3, ["Deployment/storefront/storefront-web", "CronJob/batch/disk-report"],
     "catalogue. Violations: privileged sidecar (2nd container) of a Deployment; privileged init "
     "container inside a CronJob jobTemplate. Compliant: privileged: false everywhere, with other "
     "controls' violations (SYS_ADMIN capability added, runAsUser 0, hostPID) that must not be flagged.",
     K1_V, K1_C, cis_id="5.2.2", title="No privileged containers")

# ---------------------------------------------------------------------------
# K2 catalogue: allowPrivilegeEscalation must be explicitly false (PSS restricted)
# ---------------------------------------------------------------------------
K2_V = {
    "ns.yaml": ns("ledger", {"team": "finance"}),
    "statefulset.yaml": """apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: ledger-db
  namespace: ledger
spec:
  serviceName: ledger-db
  replicas: 2
  selector:
    matchLabels: {app: ledger-db}
  template:
    metadata:
      labels: {app: ledger-db}
    spec:
      containers:
        - name: postgres
          image: registry.corp.example/db/postgres:16.3
          securityContext:
            allowPrivilegeEscalation: false
            runAsNonRoot: true
        - name: exporter
          image: quay.io/prometheuscommunity/postgres-exporter:v0.15.0
          securityContext:
            runAsNonRoot: true
""",
    "job.yaml": """apiVersion: batch/v1
kind: Job
metadata:
  name: ledger-migrate-2024-06
  namespace: ledger
spec:
  backoffLimit: 2
  template:
    spec:
      restartPolicy: Never
      initContainers:
        - name: wait-for-db
          image: registry.corp.example/tools/busybox:1.36
          command: ["sh", "-c", "until nc -z ledger-db 5432; do sleep 2; done"]
          securityContext:
            allowPrivilegeEscalation: true
      containers:
        - name: migrate
          image: registry.corp.example/ledger/migrate:2024.06
          securityContext:
            allowPrivilegeEscalation: false
""",
    "ok.yaml": """apiVersion: apps/v1
kind: Deployment
metadata:
  name: ledger-api
  namespace: ledger
spec:
  replicas: 2
  selector:
    matchLabels: {app: ledger-api}
  template:
    metadata:
      labels: {app: ledger-api}
    spec:
      containers:
        - name: api
          image: registry.corp.example/ledger/api:3.3.0
          securityContext: {allowPrivilegeEscalation: false}
""",
}
K2_C = {
    "ns.yaml": K2_V["ns.yaml"],
    "statefulset.yaml": K2_V["statefulset.yaml"].replace("""          securityContext:
            runAsNonRoot: true
""", """          securityContext:
            runAsNonRoot: true
            allowPrivilegeEscalation: false
"""),
    "job.yaml": K2_V["job.yaml"].replace("allowPrivilegeEscalation: true",
                                         "allowPrivilegeEscalation: false\n            privileged: false"),
    "ok.yaml": K2_V["ok.yaml"].replace("securityContext: {allowPrivilegeEscalation: false}",
                                       "securityContext: {allowPrivilegeEscalation: false, readOnlyRootFilesystem: false}"),
}
scen("set19-k-no-priv-escalation", "kubernetes",
     "Every container (init containers included) must explicitly set allowPrivilegeEscalation to "
     "false in its securityContext. Leaving the field out does not count as compliant.",
     K3, ["StatefulSet/ledger/ledger-db", "Job/ledger/ledger-migrate-2024-06"],
     "catalogue (PSS restricted / CIS 5.2.6 style). Violations: StatefulSet second container omits "
     "the field; Job init container sets it true. Compliant: all explicit false; readOnlyRootFilesystem "
     "false is another control.",
     K2_V, K2_C, cis_id="5.2.6", title="allowPrivilegeEscalation explicitly false")

# ---------------------------------------------------------------------------
# K3 catalogue: must run as non-root (PSS restricted), pod- or container-level
# ---------------------------------------------------------------------------
K3_V = {
    "ns.yaml": ns("telemetry") + "---\n" + ns("checkout"),
    "ds.yaml": """apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-metrics
  namespace: telemetry
spec:
  selector:
    matchLabels: {app: node-metrics}
  template:
    metadata:
      labels: {app: node-metrics}
    spec:
      securityContext:
        runAsNonRoot: false
      containers:
        - name: collector
          image: registry.corp.example/telemetry/collector:0.101.0
""",
    "checkout.yaml": """apiVersion: apps/v1
kind: Deployment
metadata:
  name: checkout
  namespace: checkout
spec:
  replicas: 2
  selector:
    matchLabels: {app: checkout}
  template:
    metadata:
      labels: {app: checkout}
    spec:
      containers:
        - name: checkout
          image: registry.corp.example/checkout/app:7.1.0
          securityContext:
            runAsNonRoot: true
        - name: envoy
          image: docker.io/envoyproxy/envoy:v1.30.2
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: cart
  namespace: checkout
spec:
  replicas: 2
  selector:
    matchLabels: {app: cart}
  template:
    metadata:
      labels: {app: cart}
    spec:
      securityContext:
        runAsNonRoot: true
        runAsUser: 10001
      containers:
        - name: cart
          image: registry.corp.example/checkout/cart:2.4.0
""",
}
K3_C = {
    "ns.yaml": K3_V["ns.yaml"],
    "ds.yaml": K3_V["ds.yaml"].replace("runAsNonRoot: false", "runAsNonRoot: true\n        runAsUser: 65534")
    .replace("""        - name: collector
          image: registry.corp.example/telemetry/collector:0.101.0
""", """        - name: collector
          image: registry.corp.example/telemetry/collector:0.101.0
          securityContext:
            allowPrivilegeEscalation: true
"""),
    "checkout.yaml": K3_V["checkout.yaml"].replace("""        - name: envoy
          image: docker.io/envoyproxy/envoy:v1.30.2
""", """        - name: envoy
          image: docker.io/envoyproxy/envoy:v1.30.2
          securityContext:
            runAsNonRoot: true
            runAsUser: 101
"""),
}
scen("set19-k-run-as-non-root", "kubernetes",
     "Workloads must be prevented from running as root: runAsNonRoot has to be true, either once "
     "for the whole pod or on each and every container.",
     K3, ["DaemonSet/telemetry/node-metrics", "Deployment/checkout/checkout"],
     "catalogue (PSS restricted runAsNonRoot). Violations: DaemonSet pod-level runAsNonRoot false; "
     "Deployment where only the first of two containers sets it (no pod-level). Compliant: pod-level "
     "true (cart, DaemonSet), or every container true (checkout); allowPrivilegeEscalation true is another control.",
     K3_V, K3_C, title="runAsNonRoot required")

# ---------------------------------------------------------------------------
# K4 catalogue: no hostPath volumes except kube-system (PSS baseline)
# ---------------------------------------------------------------------------
K4_V = {
    "ns.yaml": ns("logging") + "---\n" + ns("reports"),
    "fluentd.yaml": """apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluentd
  namespace: logging
spec:
  selector:
    matchLabels: {name: fluentd}
  template:
    metadata:
      labels: {name: fluentd}
    spec:
      containers:
        - name: fluentd
          image: docker.io/fluent/fluentd:v1.16-1
          volumeMounts:
            - {name: buffer, mountPath: /buffer}
            - {name: varlog, mountPath: /var/log, readOnly: true}
      volumes:
        - name: buffer
          emptyDir: {}
        - name: varlog
          hostPath:
            path: /var/log
            type: Directory
""",
    "reports.yaml": """apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly-export
  namespace: reports
spec:
  schedule: "0 1 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
            - name: export
              image: registry.corp.example/reports/export:1.8.0
              volumeMounts:
                - {name: out, mountPath: /out}
          volumes:
            - name: cfg
              configMap: {name: export-config}
            - name: out
              hostPath: {path: /mnt/exports}
""",
    "kube-system.yaml": """apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: csi-node
  namespace: kube-system
spec:
  selector:
    matchLabels: {app: csi-node}
  template:
    metadata:
      labels: {app: csi-node}
    spec:
      containers:
        - name: driver
          image: registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.10.1
          volumeMounts:
            - {name: plugin-dir, mountPath: /csi}
      volumes:
        - name: plugin-dir
          hostPath: {path: /var/lib/kubelet/plugins/csi.example.com, type: DirectoryOrCreate}
""",
}
K4_C = {
    "ns.yaml": K4_V["ns.yaml"],
    "fluentd.yaml": K4_V["fluentd.yaml"].replace("""          hostPath:
            path: /var/log
            type: Directory
""", """          persistentVolumeClaim:
            claimName: fluentd-varlog
"""),
    "reports.yaml": K4_V["reports.yaml"].replace("hostPath: {path: /mnt/exports}",
                                                 "persistentVolumeClaim: {claimName: hostpath-exports}")
    .replace("""          restartPolicy: Never
""", """          restartPolicy: Never
          hostNetwork: true
"""),
    "kube-system.yaml": K4_V["kube-system.yaml"],
}
scen("set19-k-no-hostpath", "kubernetes",
     "Application pods must not mount directories from the node's filesystem. The only exception "
     "is the kube-system namespace, where the platform's own node agents live.",
     K3, ["DaemonSet/logging/fluentd", "CronJob/reports/nightly-export"],
     "catalogue (PSS baseline HostPath volumes). Stated by effect, no field name. Violations: DaemonSet "
     "2nd volume hostPath; CronJob jobTemplate hostPath. kube-system DaemonSet with hostPath present in "
     "BOTH environments and exempt. Compliant: PVC named 'hostpath-exports' (name near-miss), hostNetwork (other control).",
     K4_V, K4_C, title="No hostPath volumes outside kube-system")

# ---------------------------------------------------------------------------
# K5 catalogue: drop ALL capabilities, scoped to env=prod namespaces
# ---------------------------------------------------------------------------
def _k5_dep(name, namespace, c2_caps, c1_caps='drop: ["ALL"]'):
    return f"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
  namespace: {namespace}
spec:
  replicas: 2
  selector:
    matchLabels: {{app: {name}}}
  template:
    metadata:
      labels: {{app: {name}}}
    spec:
      containers:
        - name: app
          image: registry.corp.example/{namespace}/{name}:1.12.0
          securityContext:
            capabilities:
              {c1_caps}
        - name: proxy
          image: registry.corp.example/mesh/proxy:1.22.1
          securityContext:
{c2_caps}
"""


K5_V = {
    "ns.yaml": ns("payments-prod", {"env": "prod"}) + "---\n" + ns("payments-stg", {"env": "staging"})
    + "---\n" + ns("search-prod", {"env": "prod", "team": "search"}),
    "payments.yaml": _k5_dep("gateway", "payments-prod",
                             '            capabilities:\n              drop: ["NET_RAW"]\n'),
    "stg.yaml": _k5_dep("gateway", "payments-stg",
                        '            runAsNonRoot: true\n'),
    "search.yaml": """apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: indexer
  namespace: search-prod
spec:
  serviceName: indexer
  replicas: 3
  selector:
    matchLabels: {app: indexer}
  template:
    metadata:
      labels: {app: indexer}
    spec:
      initContainers:
        - name: sysctl
          image: registry.corp.example/tools/busybox:1.36
          command: ["sh", "-c", "echo ready"]
      containers:
        - name: indexer
          image: registry.corp.example/search/indexer:8.13.4
          securityContext:
            capabilities:
              drop: ["all"]
""",
}
K5_C = {
    "ns.yaml": K5_V["ns.yaml"],
    "payments.yaml": _k5_dep("gateway", "payments-prod",
                             '            capabilities:\n              drop: ["ALL"]\n              add: ["NET_BIND_SERVICE"]\n'),
    "stg.yaml": K5_V["stg.yaml"],
    "search.yaml": K5_V["search.yaml"].replace("""          command: ["sh", "-c", "echo ready"]
""", """          command: ["sh", "-c", "echo ready"]
          securityContext:
            capabilities: {drop: ["ALL"]}
""").replace('drop: ["all"]', 'drop: ["ALL"]\n            privileged: false'),
}
scen("set19-k-drop-all-caps-prod", "kubernetes",
     "In namespaces labelled env=prod, every container and init container has to drop all Linux "
     "capabilities (capabilities.drop must include ALL). Adding back specific ones is a separate "
     "review and is not part of this check.",
     K3, ["Deployment/payments-prod/gateway", "StatefulSet/search-prod/indexer"],
     "catalogue (PSS restricted capabilities). Violations: prod Deployment sidecar drops only NET_RAW; "
     "prod StatefulSet init container has no securityContext (and main container drops lowercase "
     "'all', which the API treats as a different string; the init container alone already makes it "
     "violating). Staging namespace (env=staging) Deployment with no drop exists in both environments "
     "and is out of scope. Compliant: drop ALL + add NET_BIND_SERVICE (explicitly out of scope).",
     K5_V, K5_C, title="Drop ALL capabilities in prod namespaces")

# ---------------------------------------------------------------------------
# K6 catalogue: images must be pinned (no :latest, no missing tag)
# ---------------------------------------------------------------------------
K6_V = {
    "ns.yaml": ns("media"),
    "workloads.yaml": """apiVersion: apps/v1
kind: Deployment
metadata:
  name: thumbnailer
  namespace: media
spec:
  replicas: 2
  selector:
    matchLabels: {app: thumbnailer}
  template:
    metadata:
      labels: {app: thumbnailer}
    spec:
      initContainers:
        - name: fetch-models
          image: registry.corp.example:5000/media/model-fetch
      containers:
        - name: thumbnailer
          image: registry.corp.example:5000/media/thumbnailer:5.0.2
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: cache-purge
  namespace: media
spec:
  schedule: "*/30 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: purge
              image: docker.io/curlimages/curl:latest
---
apiVersion: v1
kind: Pod
metadata:
  name: transcoder-debug
  namespace: media
spec:
  containers:
    - name: ffmpeg
      image: jrottenberg/ffmpeg
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: uploader
  namespace: media
spec:
  replicas: 1
  selector:
    matchLabels: {app: uploader}
  template:
    metadata:
      labels: {app: uploader}
    spec:
      containers:
        - name: uploader
          image: registry.corp.example/media/uploader@sha256:3b1f0c5e8a0d7f6c2e4b9a1d0c8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e
""",
}
K6_C = {
    "ns.yaml": K6_V["ns.yaml"],
    "workloads.yaml": K6_V["workloads.yaml"]
    .replace("image: registry.corp.example:5000/media/model-fetch\n",
             "image: registry.corp.example:5000/media/model-fetch:2024.05.1\n")
    .replace("docker.io/curlimages/curl:latest", "docker.io/curlimages/curl:8.8.0")
    .replace("image: jrottenberg/ffmpeg\n", "image: jrottenberg/ffmpeg:6.1-latest-ubuntu\n      securityContext: {privileged: true}\n"),
}
scen("set19-k-pinned-image-tags", "kubernetes",
     "Container images must be pinned to a specific version. An image reference with no tag at all, "
     "or with the mutable 'latest' tag, is a finding. Digest references (@sha256:...) are fine.",
     K3, ["Deployment/media/thumbnailer", "CronJob/media/cache-purge", "Pod/media/transcoder-debug"],
     "catalogue (best practice 'disallow latest tag'). Violations: init container image on a registry "
     "with a port but no tag (registry.corp.example:5000/media/model-fetch: the colon is the port); "
     "CronJob :latest; bare Pod with no tag. Compliant: tags incl. '6.1-latest-ubuntu' (contains the "
     "word latest but is not the latest tag), digest-pinned image in both environments; privileged Pod is another control.",
     K6_V, K6_C, title="No untagged or :latest images")

# ---------------------------------------------------------------------------
# K7 catalogue: RBAC wildcards (CIS 5.1.3)
# ---------------------------------------------------------------------------
K7_V = {
    "ns.yaml": ns("ci"),
    "rbac.yaml": """apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ci-deployer
rules:
  - apiGroups: ["apps"]
    resources: ["deployments", "statefulsets"]
    verbs: ["get", "list", "watch", "create", "update", "patch"]
  - apiGroups: [""]
    resources: ["configmaps"]
    verbs: ["*"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: ci-runner
  namespace: ci
rules:
  - apiGroups: [""]
    resources: ["pods", "pods/log"]
    verbs: ["get", "list"]
  - apiGroups: ["batch"]
    resources: ["*"]
    verbs: ["get", "list", "create"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: metrics-reader
rules:
  - nonResourceURLs: ["/metrics"]
    verbs: ["get"]
  - apiGroups: ["metrics.k8s.io"]
    resources: ["pods", "nodes"]
    verbs: ["get", "list"]
""",
}
K7_C = {
    "ns.yaml": K7_V["ns.yaml"],
    "rbac.yaml": K7_V["rbac.yaml"]
    .replace('resources: ["configmaps"]\n    verbs: ["*"]',
             'resources: ["configmaps", "secrets"]\n    verbs: ["get", "list", "watch", "create", "update", "patch", "delete"]')
    .replace('resources: ["*"]\n    verbs: ["get", "list", "create"]',
             'resources: ["jobs", "cronjobs"]\n    verbs: ["get", "list", "create"]'),
}
scen("set19-k-rbac-no-wildcards", "kubernetes",
     "Roles and ClusterRoles we define must list verbs and resources explicitly; wildcard entries "
     "(\"*\") in either are not permitted.",
     K3, ["ClusterRole//ci-deployer", "Role/ci/ci-runner"],
     "catalogue (CIS 5.1.3). Violations: ClusterRole wildcard verb in 2nd rule; namespaced Role wildcard "
     "resource. Compliant: explicit lists (secrets access is another control, 5.1.2); metrics-reader "
     "with nonResourceURLs in both.",
     K7_V, K7_C, cis_id="5.1.3", title="No wildcards in Roles/ClusterRoles")

# ---------------------------------------------------------------------------
# K8 novel: Service externalIPs
# ---------------------------------------------------------------------------
K8_V = {
    "ns.yaml": ns("edge") + "---\n" + ns("internal-tools"),
    "services.yaml": """apiVersion: v1
kind: Service
metadata:
  name: ingress-legacy
  namespace: edge
spec:
  type: ClusterIP
  selector: {app: haproxy}
  externalIPs:
    - 203.0.113.24
  ports:
    - {name: https, port: 443, targetPort: 8443}
---
apiVersion: v1
kind: Service
metadata:
  name: ingress
  namespace: edge
spec:
  type: LoadBalancer
  selector: {app: haproxy}
  ports:
    - {name: https, port: 443, targetPort: 8443}
---
apiVersion: v1
kind: Service
metadata:
  name: wiki
  namespace: internal-tools
  annotations:
    owner: it-ops
spec:
  type: NodePort
  selector: {app: wiki}
  ports:
    - {port: 80, targetPort: 3000, nodePort: 30080}
  externalIPs: ["10.20.0.15", "10.20.0.16"]
""",
}
K8_C = {
    "ns.yaml": K8_V["ns.yaml"],
    "services.yaml": K8_V["services.yaml"]
    .replace("  externalIPs:\n    - 203.0.113.24\n", "  externalIPs: []\n")
    .replace('  externalIPs: ["10.20.0.15", "10.20.0.16"]\n', "  externalTrafficPolicy: Local\n")
    .replace("  type: LoadBalancer\n", "  type: LoadBalancer\n  loadBalancerSourceRanges: [\"0.0.0.0/0\"]\n"),
}
scen("set19-k-no-service-external-ips", "kubernetes",
     "Services must not claim external IP addresses through spec.externalIPs (a traffic hijack "
     "risk, CVE-2020-8554). Expose things through LoadBalancer or Ingress instead.",
     K3, ["Service/edge/ingress-legacy", "Service/internal-tools/wiki"],
     "novel. Violations: ClusterIP Service with one externalIP; NodePort Service with two (flow list, "
     "after ports). Compliant: 'externalIPs: []' (empty list near-miss), externalTrafficPolicy, a "
     "LoadBalancer open to 0.0.0.0/0 (another control).",
     K8_V, K8_C, title="No Service externalIPs")

# ---------------------------------------------------------------------------
# K9 novel: memory-backed emptyDir must have a sizeLimit
# ---------------------------------------------------------------------------
K9_V = {
    "ns.yaml": ns("ml"),
    "sts.yaml": """apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: feature-cache
  namespace: ml
spec:
  serviceName: feature-cache
  replicas: 3
  selector:
    matchLabels: {app: feature-cache}
  template:
    metadata:
      labels: {app: feature-cache}
    spec:
      containers:
        - name: cache
          image: registry.corp.example/ml/feature-cache:0.7.2
          volumeMounts:
            - {name: scratch, mountPath: /scratch}
            - {name: shm, mountPath: /dev/shm}
      volumes:
        - name: scratch
          emptyDir:
            sizeLimit: 2Gi
        - name: shm
          emptyDir:
            medium: Memory
""",
    "job.yaml": """apiVersion: batch/v1
kind: Job
metadata:
  name: train-resnet-0612
  namespace: ml
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: trainer
          image: registry.corp.example/ml/trainer:2.3.0
          volumeMounts:
            - {name: dshm, mountPath: /dev/shm}
      volumes:
        - {name: data, persistentVolumeClaim: {claimName: imagenet}}
        - {name: dshm, emptyDir: {medium: Memory}}
""",
    "ok.yaml": """apiVersion: apps/v1
kind: Deployment
metadata:
  name: inference
  namespace: ml
spec:
  replicas: 2
  selector:
    matchLabels: {app: inference}
  template:
    metadata:
      labels: {app: inference}
    spec:
      containers:
        - name: server
          image: registry.corp.example/ml/inference:1.4.0
      volumes:
        - name: tmp
          emptyDir: {}
        - name: shm
          emptyDir: {medium: Memory, sizeLimit: 256Mi}
""",
}
K9_C = {
    "ns.yaml": K9_V["ns.yaml"],
    "sts.yaml": K9_V["sts.yaml"].replace("""          emptyDir:
            medium: Memory
""", """          emptyDir:
            medium: Memory
            sizeLimit: 1Gi
"""),
    "job.yaml": K9_V["job.yaml"].replace("emptyDir: {medium: Memory}", "emptyDir: {medium: \"\"}")
    .replace("          image: registry.corp.example/ml/trainer:2.3.0\n",
             "          image: registry.corp.example/ml/trainer:latest\n"),
    "ok.yaml": K9_V["ok.yaml"],
}
scen("set19-k-memory-emptydir-size", "kubernetes",
     "Scratch volumes backed by RAM (tmpfs) eat node memory without showing up in container limits, "
     "so every such volume has to declare a size limit. Disk-backed scratch volumes are not covered.",
     K3, ["StatefulSet/ml/feature-cache", "Job/ml/train-resnet-0612"],
     "novel. Stated by effect (tmpfs = emptyDir.medium: Memory). Violations: StatefulSet 2nd volume; Job "
     "(flow mapping). Compliant: Memory with sizeLimit; disk emptyDir without sizeLimit; medium \"\" "
     "(default, disk) without sizeLimit; :latest tag is another control.",
     K9_V, K9_C, title="Memory emptyDir needs sizeLimit")

# ---------------------------------------------------------------------------
# K10 novel: terminationGracePeriodSeconds at most one minute
# ---------------------------------------------------------------------------
def _k10(kind_block):
    return kind_block


K10_V = {
    "ns.yaml": ns("orders"),
    "deploy.yaml": """apiVersion: apps/v1
kind: Deployment
metadata:
  name: order-worker
  namespace: orders
spec:
  replicas: 4
  selector:
    matchLabels: {app: order-worker}
  template:
    metadata:
      labels: {app: order-worker}
    spec:
      terminationGracePeriodSeconds: 600
      containers:
        - name: worker
          image: registry.corp.example/orders/worker:9.0.1
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: order-api
  namespace: orders
spec:
  replicas: 2
  selector:
    matchLabels: {app: order-api}
  template:
    metadata:
      labels: {app: order-api}
    spec:
      terminationGracePeriodSeconds: 60
      containers:
        - name: api
          image: registry.corp.example/orders/api:9.0.1
""",
    "cron.yaml": """apiVersion: batch/v1
kind: CronJob
metadata:
  name: settle
  namespace: orders
spec:
  schedule: "5 0 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          terminationGracePeriodSeconds: 61
          containers:
            - name: settle
              image: registry.corp.example/orders/settle:9.0.1
---
apiVersion: v1
kind: Pod
metadata:
  name: order-console
  namespace: orders
spec:
  containers:
    - name: console
      image: registry.corp.example/orders/console:9.0.1
""",
}
K10_C = {
    "ns.yaml": K10_V["ns.yaml"],
    "deploy.yaml": K10_V["deploy.yaml"].replace("terminationGracePeriodSeconds: 600", "terminationGracePeriodSeconds: 45"),
    "cron.yaml": K10_V["cron.yaml"].replace("terminationGracePeriodSeconds: 61", "terminationGracePeriodSeconds: 0")
    .replace("""      image: registry.corp.example/orders/console:9.0.1
""", """      image: registry.corp.example/orders/console:9.0.1
      securityContext: {allowPrivilegeEscalation: true}
"""),
}
scen("set19-k-grace-period-max", "kubernetes",
     "Pods may not ask for more than one minute of shutdown grace period; anything longer stalls "
     "node drains during patching. Pods that rely on the default are fine.",
     K3, ["Deployment/orders/order-worker", "CronJob/orders/settle"],
     "novel (terminationGracePeriodSeconds <= 60). Number in words. Violations: Deployment 600; CronJob 61 "
     "(just over). Compliant: exactly 60 (boundary, in both), 45, 0, unset (default 30); allowPrivilegeEscalation is another control.",
     K10_V, K10_C, title="terminationGracePeriodSeconds <= 60")

# ---------------------------------------------------------------------------
# K11 novel: HPA minReplicas >= 2 for team=payments
# ---------------------------------------------------------------------------
def _hpa(name, namespace, team, minr, maxr=10, target=None):
    target = target or name
    mr = f"  minReplicas: {minr}\n" if minr is not None else ""
    return f"""apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {name}
  namespace: {namespace}
  labels:
    team: {team}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {target}
{mr}  maxReplicas: {maxr}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target: {{type: Utilization, averageUtilization: 70}}
"""


K11_V = {
    "ns.yaml": ns("pay") + "---\n" + ns("search"),
    "hpa.yaml": "---\n".join([
        _hpa("card-auth", "pay", "payments", 1),
        _hpa("refunds", "pay", "payments", None, 6),
        _hpa("fx-rates", "pay", "payments", 3, 12),
        _hpa("query", "search", "search", 1, 4),
    ]),
}
K11_C = {
    "ns.yaml": K11_V["ns.yaml"],
    "hpa.yaml": "---\n".join([
        _hpa("card-auth", "pay", "payments", 2),
        _hpa("refunds", "pay", "payments", 2, 2),
        _hpa("fx-rates", "pay", "payments", 3, 12),
        _hpa("query", "search", "search", 1, 4),
    ]),
}
scen("set19-k-hpa-min-replicas-payments", "kubernetes",
     "For autoscalers owned by the payments team (label team=payments), the autoscaler must never "
     "scale below two replicas, so a single pod failure cannot take a payment path down.",
     K3, ["HorizontalPodAutoscaler/pay/card-auth", "HorizontalPodAutoscaler/pay/refunds"],
     "novel (HPA minReplicas >= 2, scoped by label). Violations: minReplicas 1; minReplicas omitted "
     "(API default 1). Compliant: 2, 3; minReplicas 2 == maxReplicas 2; team=search HPA with 1 is out of scope (both envs).",
     K11_V, K11_C, title="HPA minReplicas >= 2 for team payments")

# ---------------------------------------------------------------------------
# RHEL 9
# ---------------------------------------------------------------------------
SSHD_MAIN = """#\t$OpenBSD: sshd_config,v 1.104 2021/07/02 05:11:21 dtucker Exp $

# This is the sshd server system-wide configuration file.  See
# sshd_config(5) for more information.

# To modify the system-wide sshd configuration, create a  *.conf  file under
#  /etc/ssh/sshd_config.d/  which will be automatically included below
Include /etc/ssh/sshd_config.d/*.conf

#Port 22
#AddressFamily any
#ListenAddress 0.0.0.0

HostKey /etc/ssh/ssh_host_rsa_key
HostKey /etc/ssh/ssh_host_ecdsa_key
HostKey /etc/ssh/ssh_host_ed25519_key

# Logging
#SyslogFacility AUTH
#LogLevel INFO

# Authentication:

#LoginGraceTime 2m
{permit}
#StrictModes yes
MaxAuthTries 4
#MaxSessions 10

AuthorizedKeysFile\t.ssh/authorized_keys

PasswordAuthentication no
KbdInteractiveAuthentication no

UsePAM yes

X11Forwarding {x11}
PrintMotd no

# override default of no subsystems
Subsystem\tsftp\t/usr/libexec/openssh/sftp-server
"""
CRYPTO_POLICY = """# This system is following system-wide crypto policy. The changes to
# crypto properties (Ciphers, MACs, ...) will not have any effect in
# this or following included files. To override some configuration option,
# write it before this block or in the /etc/ssh/sshd_config.d/ directory.

Include /etc/crypto-policies/back-ends/opensshserver.config

SyslogFacility AUTHPRIV

ChallengeResponseAuthentication no

GSSAPIAuthentication yes
GSSAPICleanupCredentials no

UsePAM yes

X11Forwarding yes

PrintMotd no
"""
SSHD_ATTR = """/etc/ssh/sshd_config: {mode: "0600", owner: root, group: root}
"""
R1_V = {
    "host/etc/ssh/sshd_config": SSHD_MAIN.format(permit="PermitRootLogin no", x11="no"),
    "host/etc/ssh/sshd_config.d/50-redhat.conf": CRYPTO_POLICY,
    "host/etc/ssh/sshd_config.d/01-permitrootlogin.conf":
        "# Added by cloud-init / kickstart for initial provisioning\n   permitrootlogin   yes\n",
    "host-attributes.yaml": SSHD_ATTR,
}
R1_C = {
    "host/etc/ssh/sshd_config": SSHD_MAIN.format(permit="#PermitRootLogin yes\nPermitRootLogin no", x11="yes"),
    "host/etc/ssh/sshd_config.d/50-redhat.conf": CRYPTO_POLICY,
    "host/etc/ssh/sshd_config.d/01-permitrootlogin.conf":
        "# Hardened by the CIS role\nPermitRootLogin\tno\n# PermitRootLogin yes\n",
    "host-attributes.yaml": SSHD_ATTR,
}
scen("set19-r-ssh-no-root-login", "rhel9",
     "Ensure sshd does not allow direct root logins (PermitRootLogin must effectively be 'no').",
     RH, ["sshd//PermitRootLogin"],
     "catalogue (CIS RHEL9 5.2.x 'Ensure sshd PermitRootLogin is disabled'). Violating: sshd_config "
     "says 'PermitRootLogin no' AFTER the Include, but the drop-in 01-permitrootlogin.conf (included "
     "first; sshd uses the first value obtained) says '   permitrootlogin   yes' (lowercase keyword, "
     "indented) -> effective yes. Compliant: drop-in 'PermitRootLogin<TAB>no', commented 'yes' lines; "
     "X11Forwarding yes is another control (both in 50-redhat.conf and main in compliant).",
     R1_V, R1_C, cis_id="5.2.10", title="SSH root login disabled")

LOGIN_DEFS = """#
# Please note that the parameters in this configuration file control the
# behavior of the tools from the shadow-utils component. None of these
# tools uses the PAM mechanism, and the utilities that use PAM (such as the
# passwd command) should therefore be configured elsewhere. Refer to
# /etc/pam.d/system-auth for more information.
#

# Directory where mailboxes reside, _or_ name of file, relative to the
# home directory.  If you _do_ define both, MAIL_DIR takes precedence.
# QMAIL_DIR is for Qmail
#
#QMAIL_DIR\tMaildir
MAIL_DIR\t/var/spool/mail
#MAIL_FILE\t.mail

# Password aging controls:
#
#\tPASS_MAX_DAYS\tMaximum number of days a password may be used.
#\tPASS_MIN_DAYS\tMinimum number of days allowed between password changes.
#\tPASS_MIN_LEN\tMinimum acceptable password length.
#\tPASS_WARN_AGE\tNumber of days warning given before a password expires.
#
{aging}

# Min/max values for automatic uid selection in useradd
#
UID_MIN                  1000
UID_MAX                 60000
SYS_UID_MIN               201
SYS_UID_MAX               999

GID_MIN                  1000
GID_MAX                 60000

CREATE_HOME\tyes
UMASK\t\t{umask}
USERGROUPS_ENAB yes
ENCRYPT_METHOD SHA512
"""
R2_V = {
    "host/etc/login.defs": LOGIN_DEFS.format(
        aging="#PASS_MAX_DAYS\t90\nPASS_MAX_DAYS\t99999\nPASS_MIN_DAYS\t1\nPASS_WARN_AGE\t7",
        umask="077"),
}
R2_C = {
    "host/etc/login.defs": LOGIN_DEFS.format(
        aging="# PASS_MAX_DAYS 99999  (vendor default, replaced by CIS role)\nPASS_MAX_DAYS   365\nPASS_MIN_DAYS\t0\nPASS_WARN_AGE\t7",
        umask="022"),
}
scen("set19-r-password-max-age", "rhel9",
     "Ensure password expiration is 365 days or less for newly created accounts (PASS_MAX_DAYS in "
     "/etc/login.defs).",
     RH, ["login.defs//PASS_MAX_DAYS"],
     "catalogue (CIS RHEL9 5.6.1.1 / STIG). Violating: a commented '#PASS_MAX_DAYS 90' precedes the live "
     "'PASS_MAX_DAYS 99999'. Compliant: exactly 365 (boundary) with multiple spaces, a commented 99999; "
     "PASS_MIN_DAYS 0 and UMASK 022 are other controls.",
     R2_V, R2_C, cis_id="5.6.1.1", title="PASS_MAX_DAYS <= 365")

SYSCTL_CONF = """# sysctl settings are defined through files in
# /usr/lib/sysctl.d/, /run/sysctl.d/, and /etc/sysctl.d/.
#
# Vendors settings live in /usr/lib/sysctl.d/.
# To override a whole file, create a new file with the same in
# /etc/sysctl.d/ and put new settings there. To override
# only specific settings, add a file with a lexically later
# name in /etc/sysctl.d/ and put new settings there.
#
# For more information, see sysctl.conf(5) and sysctl.d(5).
"""
R3_V = {
    "host/etc/sysctl.conf": SYSCTL_CONF,
    "host/etc/sysctl.d/10-hardening.conf":
        "# CIS hardening\nkernel.randomize_va_space = 2\nkernel.dmesg_restrict = 1\nkernel.kptr_restrict = 2\nfs.suid_dumpable = 0\n",
    "host/etc/sysctl.d/99-zz-troubleshooting.conf":
        "# temporary: let the on-call read kernel ring buffer (INC-4411)\nkernel.dmesg_restrict=0\n",
}
R3_C = {
    "host/etc/sysctl.conf": SYSCTL_CONF,
    "host/etc/sysctl.d/05-vendor-tuning.conf":
        "# vendor agent tuning\nvm.swappiness = 10\nkernel.dmesg_restrict = 0\n",
    "host/etc/sysctl.d/60-hardening.conf":
        "# CIS hardening\nkernel.randomize_va_space = 2\nkernel.dmesg_restrict = 1\nkernel.kptr_restrict = 0\nfs.suid_dumpable = 1\n",
    "host/etc/sysctl.d/90-notes.conf":
        "# do NOT re-enable without a ticket:\n# kernel.dmesg_restrict = 0\n",
}
scen("set19-r-dmesg-restrict", "rhel9",
     "Unprivileged users must not be able to read the kernel log buffer: the persistent sysctl "
     "configuration has to end up with kernel.dmesg_restrict set to 1.",
     RH, ["sysctl//kernel.dmesg_restrict"],
     "novel. sysctl.d files apply in lexical order, the last assignment wins. Violating: 10-hardening.conf "
     "sets 1 but 99-zz-troubleshooting.conf sets 0 -> effective 0. Compliant: 05-vendor sets 0, "
     "60-hardening sets 1 (later wins -> 1), 90-notes only a commented 0; kptr_restrict 0 and "
     "suid_dumpable 1 are other controls.",
     R3_V, R3_C, title="kernel.dmesg_restrict = 1")


# ---------------------------------------------------------------------------
# Reference answers (solution/): used only to check the set with the oracle agent.
# ---------------------------------------------------------------------------
FETCH_SH = r"""#!/bin/sh
# Collect every manifest under static-resources/ into one List (collected_data.json).
python3 - <<'PYEOF'
import json, os
try:
    import yaml
except ImportError:
    yaml = None
items = []
for root, dirs, files in os.walk("static-resources"):
    dirs.sort()
    for f in sorted(files):
        if not f.endswith((".yaml", ".yml", ".json")):
            continue
        text = open(os.path.join(root, f)).read()
        if f.endswith(".json"):
            docs = [json.loads(text)]
        else:
            docs = list(yaml.safe_load_all(text))
        for d in docs:
            if not d:
                continue
            if d.get("kind", "").endswith("List") and "items" in d:
                items.extend(d["items"])
            else:
                items.append(d)
json.dump({"apiVersion": "v1", "kind": "List", "items": items}, open("collected_data.json", "w"))
PYEOF
"""


def fetcher(kinds):
    return ("#!/bin/sh\nset -e\nkubectl get " + ",".join(kinds)
            + " -A -o json > collected_data.json\n")


POD_KINDS = ["pods", "deployments", "statefulsets", "daemonsets", "replicasets", "jobs", "cronjobs"]

REGO_HEAD = """package check

import rego.v1

workload_kinds := {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "ReplicationController"}

podspecs contains [obj, s] if {
	some obj in input.items
	obj.kind == "Pod"
	s := obj.spec
}

podspecs contains [obj, s] if {
	some obj in input.items
	workload_kinds[obj.kind]
	s := obj.spec.template.spec
}

podspecs contains [obj, s] if {
	some obj in input.items
	obj.kind == "CronJob"
	s := obj.spec.jobTemplate.spec.template.spec
}

containers(s) := array.concat(object.get(s, "containers", []), object.get(s, "initContainers", []))

default result := true

result := false if count(violations) > 0
"""

REGO = {
    "set19-k-privileged": """
violations contains obj.metadata.name if {
	some [obj, s] in podspecs
	some c in containers(s)
	c.securityContext.privileged == true
}
""",
    "set19-k-no-priv-escalation": """
violations contains obj.metadata.name if {
	some [obj, s] in podspecs
	some c in containers(s)
	object.get(c, ["securityContext", "allowPrivilegeEscalation"], null) != false
}
""",
    "set19-k-run-as-non-root": """
violations contains obj.metadata.name if {
	some [obj, s] in podspecs
	object.get(s, ["securityContext", "runAsNonRoot"], null) != true
	some c in containers(s)
	object.get(c, ["securityContext", "runAsNonRoot"], null) != true
}

violations contains obj.metadata.name if {
	some [obj, s] in podspecs
	some c in containers(s)
	object.get(c, ["securityContext", "runAsNonRoot"], null) == false
}
""",
    "set19-k-no-hostpath": """
violations contains obj.metadata.name if {
	some [obj, s] in podspecs
	obj.metadata.namespace != "kube-system"
	some v in object.get(s, "volumes", [])
	v.hostPath
}
""",
    "set19-k-drop-all-caps-prod": """
prod_ns contains ns.metadata.name if {
	some ns in input.items
	ns.kind == "Namespace"
	ns.metadata.labels.env == "prod"
}

violations contains obj.metadata.name if {
	some [obj, s] in podspecs
	prod_ns[obj.metadata.namespace]
	some c in containers(s)
	not "ALL" in object.get(c, ["securityContext", "capabilities", "drop"], [])
}
""",
    "set19-k-pinned-image-tags": """
unpinned(img) if {
	not contains(img, "@")
	parts := split(img, "/")
	not contains(parts[count(parts) - 1], ":")
}

unpinned(img) if {
	not contains(img, "@")
	endswith(img, ":latest")
}

violations contains obj.metadata.name if {
	some [obj, s] in podspecs
	some c in containers(s)
	unpinned(c.image)
}
""",
    "set19-k-rbac-no-wildcards": """
ours(r) if {
	not startswith(r.metadata.name, "system:")
	not r.metadata.labels["kubernetes.io/bootstrapping"]
	not r.metadata.name in {"cluster-admin", "admin", "edit", "view"}
}

violations contains r.metadata.name if {
	some r in input.items
	r.kind in {"Role", "ClusterRole"}
	ours(r)
	some rule in object.get(r, "rules", [])
	some f in ["verbs", "resources"]
	"*" in object.get(rule, f, [])
}
""",
    "set19-k-no-service-external-ips": """
violations contains svc.metadata.name if {
	some svc in input.items
	svc.kind == "Service"
	count(object.get(svc.spec, "externalIPs", [])) > 0
}
""",
    "set19-k-memory-emptydir-size": """
violations contains obj.metadata.name if {
	some [obj, s] in podspecs
	some v in object.get(s, "volumes", [])
	v.emptyDir.medium == "Memory"
	not v.emptyDir.sizeLimit
}
""",
    "set19-k-grace-period-max": """
violations contains obj.metadata.name if {
	some [obj, s] in podspecs
	s.terminationGracePeriodSeconds > 60
}
""",
    "set19-k-hpa-min-replicas-payments": """
violations contains h.metadata.name if {
	some h in input.items
	h.kind == "HorizontalPodAutoscaler"
	h.metadata.labels.team == "payments"
	object.get(h.spec, "minReplicas", 1) < 2
}
""",
}

FETCH_KINDS = {
    "set19-k-drop-all-caps-prod": POD_KINDS + ["namespaces"],
    "set19-k-rbac-no-wildcards": ["roles", "clusterroles"],
    "set19-k-no-service-external-ips": ["services"],
    "set19-k-hpa-min-replicas-payments": ["horizontalpodautoscalers"],
}

SHAPES = [
    ("pod", ["Pod"], "request.object.spec"),
    ("ctl", ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"], "request.object.spec.template.spec"),
    ("cron", ["CronJob"], "request.object.spec.jobTemplate.spec.template.spec"),
]


def kyverno(name, rules):
    return (f"apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata:\n  name: {name}\n"
            f"spec:\n  validationFailureAction: Audit\n  background: true\n  rules:\n" + rules)


def pod_rules(base, body, match_extra="", exclude="", pre=""):
    """body: text of validate block (indented 6) using P for the podspec path."""
    out = ""
    for tag, kinds, path in SHAPES:
        out += f"""    - name: {base}-{tag}
      match:
        any:
          - resources:
              kinds: [{", ".join(kinds)}]
{match_extra}{exclude}{pre.replace("P.", path + ".")}      validate:
        message: "{base} violated"
{body.replace("P.", path + ".").replace("{{P}}", path)}"""
    return out


def foreach_containers(deny_conditions):
    # deny_conditions: lines indented for under 'conditions:' at 14 spaces
    out = "        foreach:\n"
    for lst in ("containers", "initContainers"):
        out += f"""          - list: "P.{lst} || `[]`"
            deny:
              conditions:
{deny_conditions}"""
    return out


KYV = {}
KYV["set19-k-privileged"] = kyverno("no-privileged", pod_rules("no-privileged", foreach_containers(
    """                any:
                  - key: "{{ element.securityContext.privileged || `false` }}"
                    operator: Equals
                    value: true
""")))
KYV["set19-k-no-priv-escalation"] = kyverno("explicit-no-priv-esc", pod_rules("explicit-no-priv-esc", foreach_containers(
    """                any:
                  - key: "{{ to_string(element.securityContext.allowPrivilegeEscalation) }}"
                    operator: NotEquals
                    value: "false"
""")))
KYV["set19-k-run-as-non-root"] = kyverno("run-as-non-root", pod_rules("run-as-non-root", foreach_containers(
    """                any:
                  - key: "{{ to_string(element.securityContext.runAsNonRoot) }}"
                    operator: NotEquals
                    value: "true"
"""), pre="""      preconditions:
        all:
          - key: "{{ to_string(P.securityContext.runAsNonRoot) }}"
            operator: NotEquals
            value: "true"
"""))
KYV["set19-k-no-hostpath"] = kyverno("no-hostpath", pod_rules("no-hostpath", """        deny:
          conditions:
            any:
              - key: "{{ length(P.volumes[?hostPath] || `[]`) }}"
                operator: GreaterThan
                value: 0
""", exclude="""      exclude:
        any:
          - resources:
              namespaces: [kube-system]
"""))
KYV["set19-k-drop-all-caps-prod"] = kyverno("drop-all-prod", pod_rules("drop-all-prod", foreach_containers(
    """                any:
                  - key: ALL
                    operator: AnyNotIn
                    value: "{{ element.securityContext.capabilities.drop || `[]` }}"
"""), match_extra="""              namespaceSelector:
                matchLabels:
                  env: prod
"""))
KYV["set19-k-pinned-image-tags"] = kyverno("pinned-images", pod_rules("pinned-images", foreach_containers(
    """                all:
                  - key: "{{ contains(element.image, '@') }}"
                    operator: Equals
                    value: false
                any:
                  - key: "{{ contains(split(element.image, '/')[-1], ':') }}"
                    operator: Equals
                    value: false
                  - key: "{{ ends_with(element.image, ':latest') }}"
                    operator: Equals
                    value: true
""")))
KYV["set19-k-rbac-no-wildcards"] = kyverno("rbac-no-wildcards", """    - name: no-wildcards
      match:
        any:
          - resources:
              kinds: [Role, ClusterRole]
      exclude:
        any:
          - resources:
              names: ["system:*", cluster-admin, admin, edit, view]
      validate:
        message: "wildcards in RBAC rules"
        deny:
          conditions:
            any:
              - key: "{{ length(request.object.rules[?contains(verbs || `[]`, '*') || contains(resources || `[]`, '*')] || `[]`) }}"
                operator: GreaterThan
                value: 0
""")
KYV["set19-k-no-service-external-ips"] = kyverno("no-external-ips", """    - name: no-external-ips
      match:
        any:
          - resources:
              kinds: [Service]
      validate:
        message: "externalIPs are not allowed"
        deny:
          conditions:
            any:
              - key: "{{ length(request.object.spec.externalIPs || `[]`) }}"
                operator: GreaterThan
                value: 0
""")
KYV["set19-k-memory-emptydir-size"] = kyverno("memory-emptydir-size", pod_rules("memory-emptydir-size", """        foreach:
          - list: "P.volumes || `[]`"
            deny:
              conditions:
                all:
                  - key: "{{ element.emptyDir.medium || '' }}"
                    operator: Equals
                    value: Memory
                  - key: "{{ element.emptyDir.sizeLimit || '' }}"
                    operator: Equals
                    value: ""
"""))
KYV["set19-k-grace-period-max"] = kyverno("grace-period-max", pod_rules("grace-period-max", """        deny:
          conditions:
            any:
              - key: "{{ P.terminationGracePeriodSeconds || `30` }}"
                operator: GreaterThan
                value: 60
"""))
KYV["set19-k-hpa-min-replicas-payments"] = kyverno("hpa-min-two-payments", """    - name: min-two
      match:
        any:
          - resources:
              kinds: [HorizontalPodAutoscaler]
              selector:
                matchLabels:
                  team: payments
      validate:
        message: "payments autoscalers need minReplicas >= 2"
        deny:
          conditions:
            any:
              - key: "{{ request.object.spec.minReplicas || `1` }}"
                operator: LessThan
                value: 2
""")


def playbook(tasks, data_expr):
    return f"""- name: Collect configuration
  hosts: rhel9_servers
  gather_facts: false
  tasks:
{tasks}
    - name: Save collected data
      ansible.builtin.copy:
        content: "{{{{ {data_expr} | to_json }}}}"
        dest: "{{{{ playbook_dir }}}}/collected_data.json"
      delegate_to: localhost
"""


RHEL = {
    "set19-r-ssh-no-root-login": (playbook("""    - name: Effective PermitRootLogin (first value wins, drop-ins are included first)
      ansible.builtin.shell: |
        cat /etc/ssh/sshd_config.d/*.conf /etc/ssh/sshd_config 2>/dev/null \\
          | grep -iE '^[[:space:]]*permitrootlogin[[:space:]]' | head -n 1 \\
          | awk '{print tolower($2)}'
      register: prl
      changed_when: false
""", "{'permit_root_login': prl.stdout | trim}"), """package check

import rego.v1

default result := false

result if input.permit_root_login == "no"
"""),
    "set19-r-password-max-age": (playbook("""    - name: PASS_MAX_DAYS
      ansible.builtin.shell: |
        grep -E '^[[:space:]]*PASS_MAX_DAYS[[:space:]]' /etc/login.defs | tail -n 1 | awk '{print $2}'
      register: pmd
      changed_when: false
""", "{'pass_max_days': pmd.stdout | trim}"), """package check

import rego.v1

default result := false

result if {
	input.pass_max_days != ""
	to_number(input.pass_max_days) <= 365
	to_number(input.pass_max_days) >= 0
}
"""),
    "set19-r-dmesg-restrict": (playbook("""    - name: Effective kernel.dmesg_restrict (sysctl.d lexical order, last wins)
      ansible.builtin.shell: |
        for f in $(ls /etc/sysctl.d/*.conf 2>/dev/null | sort) /etc/sysctl.conf; do
          [ -f "$f" ] && grep -E '^[[:space:]]*kernel\\.dmesg_restrict[[:space:]]*=' "$f"
        done | tail -n 1 | cut -d= -f2 | tr -d '[:space:]'
      register: dr
      changed_when: false
""", "{'dmesg_restrict': dr.stdout | trim}"), """package check

import rego.v1

default result := false

result if input.dmesg_restrict == "1"
"""),
}


def solution_files(sid):
    if sid in RHEL:
        pb, rego = RHEL[sid]
        return {"playbook.yml": pb, "policy.rego": rego}
    if sid in REGO:
        return {
            "policy.rego": REGO_HEAD + REGO[sid],
            "fetcher.sh": fetcher(FETCH_KINDS.get(sid, POD_KINDS)),
            "fetch.sh": FETCH_SH,
            "kyverno-policy.yaml": KYV[sid],
        }
    return {}


# ---------------------------------------------------------------------------
def render_yaml(s):
    out = [f"id: {s['id']}"]
    if s["cis_id"]:
        out.append(f"cis_id: {q(s['cis_id'])}")
    out.append(f"platform: {s['platform']}")
    if s["title"]:
        out.append(f"title: {q(s['title'])}")
    out.append(f"requirement: {q(s['requirement'])}")
    out.append(f"classes: {s['classes']}")
    out.append("violating_resources:")
    for v in s["violating"]:
        out.append(f"  - {q(v)}")
    out.append(f"notes: {q(s['notes'])}")
    return "\n".join(out) + "\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python gen.py OUT")
    out = sys.argv[1]
    for s in SCENARIOS:
        d = os.path.join(out, s["id"])
        write(os.path.join(d, "scenario.yaml"), render_yaml(s))
        for sub, files in (("violating", s["vfiles"]), ("compliant", s["cfiles"])):
            for name, text in sorted(files.items()):
                write(os.path.join(d, sub, name), text)
        for name, text in sorted(solution_files(s["id"]).items()):
            p = os.path.join(d, "solution", name)
            write(p, text)
            if name.endswith(".sh"):
                os.chmod(p, 0o755)
    print(f"wrote {len(SCENARIOS)} scenarios to {out}")


if __name__ == "__main__":
    main()
