#!/usr/bin/env python3
"""ciso-set12: 16 Kubernetes + 4 RHEL 9 CISO scenarios (stdlib only, deterministic).
usage: python gen.py OUT"""
import os, sys, textwrap

K3 = ["kyverno", "kubectl-opa", "opa-static"]
SC = []  # (id, requirement, classes, platform, violating_resources, violating{file:text}, compliant{file:text}, notes)


def d(s):
    return textwrap.dedent(s).lstrip("\n")


def ns(name, labels=None):
    lab = ""
    if labels:
        lab = "  labels:\n" + "".join(f"    {k}: \"{v}\"\n" for k, v in labels.items())
    return f"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {name}\n{lab}"


def docs(*parts):
    return "---\n".join(p if p.endswith("\n") else p + "\n" for p in parts)


def add(id_, req, classes, vr, viol, comp, notes, platform="kubernetes"):
    SC.append((id_, req, classes, platform, vr, viol, comp, notes))


# 1 Ingress TLS hosts in tier=prod namespaces
add("ingress-tls-prod-hosts",
    "In namespaces labelled tier=prod, every host an Ingress routes must also be listed under that Ingress's spec.tls hosts, so no production hostname is served over plain HTTP.",
    K3, ["Ingress/shop/storefront"],
    {"namespaces.yaml": docs(ns("shop", {"tier": "prod"}), ns("sandbox", {"tier": "dev"})),
     "ingress.yaml": docs(d("""
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: storefront
          namespace: shop
        spec:
          ingressClassName: nginx
          tls:
            - hosts: [shop.example.com]
              secretName: shop-tls
          rules:
            - host: shop.example.com
              http:
                paths:
                  - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
            - host: api.shop.example.com
              http:
                paths:
                  - {path: /, pathType: Prefix, backend: {service: {name: api, port: {number: 8080}}}}
        """), d("""
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: preview
          namespace: sandbox
        spec:
          rules:
            - host: preview.dev.example.com
              http:
                paths:
                  - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
        """))},
    {"namespaces.yaml": docs(ns("shop", {"tier": "prod"}), ns("sandbox", {"tier": "dev"})),
     "ingress.yaml": docs(d("""
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: storefront
          namespace: shop
        spec:
          ingressClassName: nginx
          tls:
            - hosts: [shop.example.com]
              secretName: shop-tls
            - hosts: [api.shop.example.com]
              secretName: api-tls
          rules:
            - host: shop.example.com
              http:
                paths:
                  - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
            - host: api.shop.example.com
              http:
                paths:
                  - {path: /, pathType: Prefix, backend: {service: {name: api, port: {number: 8080}}}}
        """), d("""
        apiVersion: networking.k8s.io/v1
        kind: Ingress
        metadata:
          name: preview
          namespace: sandbox
        spec:
          rules:
            - host: preview.dev.example.com
              http:
                paths:
                  - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
        """))},
    "Violation: second rule host api.shop.example.com not in tls. Near miss: dev namespace Ingress without TLS.")

# 2 hostPort
add("no-host-ports",
    "Containers must not bind a port on the node: hostPort may not be set on any container or init container, except in kube-system.",
    K3, ["DaemonSet/monitoring/node-agent"],
    {"ds.yaml": docs(d("""
        apiVersion: apps/v1
        kind: DaemonSet
        metadata:
          name: node-agent
          namespace: monitoring
        spec:
          selector:
            matchLabels: {app: node-agent}
          template:
            metadata:
              labels: {app: node-agent}
            spec:
              containers:
                - name: agent
                  image: registry.example.com/agent:2.4.1
                  ports:
                    - {name: metrics, containerPort: 9100}
                - name: statsd
                  image: registry.example.com/statsd:0.9.0
                  ports:
                    - {name: statsd, containerPort: 8125, hostPort: 8125, protocol: UDP}
        """), d("""
        apiVersion: apps/v1
        kind: DaemonSet
        metadata:
          name: dns-cache
          namespace: kube-system
        spec:
          selector:
            matchLabels: {app: dns-cache}
          template:
            metadata:
              labels: {app: dns-cache}
            spec:
              containers:
                - name: cache
                  image: registry.example.com/dns-cache:1.22
                  ports:
                    - {name: dns, containerPort: 53, hostPort: 53, protocol: UDP}
        """))},
    {"ds.yaml": docs(d("""
        apiVersion: apps/v1
        kind: DaemonSet
        metadata:
          name: node-agent
          namespace: monitoring
        spec:
          selector:
            matchLabels: {app: node-agent}
          template:
            metadata:
              labels: {app: node-agent}
            spec:
              containers:
                - name: agent
                  image: registry.example.com/agent:2.4.1
                  ports:
                    - {name: metrics, containerPort: 9100}
                - name: statsd
                  image: registry.example.com/statsd:0.9.0
                  ports:
                    - {name: statsd, containerPort: 8125, protocol: UDP}
        """), d("""
        apiVersion: apps/v1
        kind: DaemonSet
        metadata:
          name: dns-cache
          namespace: kube-system
        spec:
          selector:
            matchLabels: {app: dns-cache}
          template:
            metadata:
              labels: {app: dns-cache}
            spec:
              containers:
                - name: cache
                  image: registry.example.com/dns-cache:1.22
                  ports:
                    - {name: dns, containerPort: 53, hostPort: 53, protocol: UDP}
        """))},
    "Violation in the second container. Near miss: kube-system hostPort (exempt).")

# 3 NoExecute tolerations forever
add("noexecute-toleration-bound",
    "A workload that tolerates a NoExecute taint must not stay on the node forever: every such toleration has to carry tolerationSeconds of no more than five minutes.",
    K3, ["Deployment/payments/ledger", "CronJob/payments/reconcile"],
    {"workloads.yaml": docs(d("""
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: ledger
          namespace: payments
        spec:
          replicas: 2
          selector:
            matchLabels: {app: ledger}
          template:
            metadata:
              labels: {app: ledger}
            spec:
              tolerations:
                - {key: dedicated, operator: Equal, value: payments, effect: NoSchedule}
                - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}
              containers:
                - name: ledger
                  image: registry.example.com/ledger:5.1.0
        """), d("""
        apiVersion: batch/v1
        kind: CronJob
        metadata:
          name: reconcile
          namespace: payments
        spec:
          schedule: "15 2 * * *"
          jobTemplate:
            spec:
              template:
                spec:
                  restartPolicy: OnFailure
                  tolerations:
                    - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 900}
                  containers:
                    - name: reconcile
                      image: registry.example.com/reconcile:1.3.0
        """), d("""
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: api
          namespace: payments
        spec:
          replicas: 2
          selector:
            matchLabels: {app: api}
          template:
            metadata:
              labels: {app: api}
            spec:
              tolerations:
                - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
              containers:
                - name: api
                  image: registry.example.com/api:2.0.0
        """))},
    {"workloads.yaml": docs(d("""
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: ledger
          namespace: payments
        spec:
          replicas: 2
          selector:
            matchLabels: {app: ledger}
          template:
            metadata:
              labels: {app: ledger}
            spec:
              tolerations:
                - {key: dedicated, operator: Equal, value: payments, effect: NoSchedule}
                - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 120}
              containers:
                - name: ledger
                  image: registry.example.com/ledger:5.1.0
        """), d("""
        apiVersion: batch/v1
        kind: CronJob
        metadata:
          name: reconcile
          namespace: payments
        spec:
          schedule: "15 2 * * *"
          jobTemplate:
            spec:
              template:
                spec:
                  restartPolicy: OnFailure
                  tolerations:
                    - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
                  containers:
                    - name: reconcile
                      image: registry.example.com/reconcile:1.3.0
        """), d("""
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: api
          namespace: payments
        spec:
          replicas: 2
          selector:
            matchLabels: {app: api}
          template:
            metadata:
              labels: {app: api}
            spec:
              tolerations:
                - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
              containers:
                - name: api
                  image: registry.example.com/api:2.0.0
        """))},
    "ledger: NoExecute toleration without tolerationSeconds (forever). reconcile: 900 s > 300. api (300 s, boundary) passes; NoSchedule without seconds is fine.")

# 4 control-plane affinity
add("no-control-plane-scheduling",
    "Application workloads (anything outside kube-system) must not be steered onto control-plane nodes, whether through a nodeSelector or a node affinity on node-role.kubernetes.io/control-plane.",
    K3, ["CronJob/ops/etcd-report", "Deployment/ops/dashboard"],
    {"ops.yaml": docs(d("""
        apiVersion: batch/v1
        kind: CronJob
        metadata:
          name: etcd-report
          namespace: ops
        spec:
          schedule: "0 * * * *"
          jobTemplate:
            spec:
              template:
                spec:
                  restartPolicy: Never
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms:
                          - matchExpressions:
                              - {key: node-role.kubernetes.io/control-plane, operator: Exists}
                  containers:
                    - name: report
                      image: registry.example.com/etcd-report:0.4
        """), d("""
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: dashboard
          namespace: ops
        spec:
          replicas: 1
          selector:
            matchLabels: {app: dashboard}
          template:
            metadata:
              labels: {app: dashboard}
            spec:
              nodeSelector:
                kubernetes.io/os: linux
                node-role.kubernetes.io/control-plane: ""
              containers:
                - name: dashboard
                  image: registry.example.com/dashboard:3.2
        """), d("""
        apiVersion: apps/v1
        kind: DaemonSet
        metadata:
          name: kube-proxy-helper
          namespace: kube-system
        spec:
          selector:
            matchLabels: {app: kph}
          template:
            metadata:
              labels: {app: kph}
            spec:
              nodeSelector:
                node-role.kubernetes.io/control-plane: ""
              containers:
                - name: helper
                  image: registry.example.com/kph:1.0
        """))},
    {"ops.yaml": docs(d("""
        apiVersion: batch/v1
        kind: CronJob
        metadata:
          name: etcd-report
          namespace: ops
        spec:
          schedule: "0 * * * *"
          jobTemplate:
            spec:
              template:
                spec:
                  restartPolicy: Never
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms:
                          - matchExpressions:
                              - {key: node-role.kubernetes.io/control-plane, operator: DoesNotExist}
                  containers:
                    - name: report
                      image: registry.example.com/etcd-report:0.4
        """), d("""
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: dashboard
          namespace: ops
        spec:
          replicas: 1
          selector:
            matchLabels: {app: dashboard}
          template:
            metadata:
              labels: {app: dashboard}
            spec:
              nodeSelector:
                kubernetes.io/os: linux
                node-role.kubernetes.io/worker: ""
              containers:
                - name: dashboard
                  image: registry.example.com/dashboard:3.2
        """), d("""
        apiVersion: apps/v1
        kind: DaemonSet
        metadata:
          name: kube-proxy-helper
          namespace: kube-system
        spec:
          selector:
            matchLabels: {app: kph}
          template:
            metadata:
              labels: {app: kph}
            spec:
              nodeSelector:
                node-role.kubernetes.io/control-plane: ""
              containers:
                - name: helper
                  image: registry.example.com/kph:1.0
        """))},
    "Violations: affinity Exists in CronJob template; nodeSelector as second key. Near misses: DoesNotExist affinity; worker selector; kube-system exempt.")


def dep(name, nsn, spec_extra, containers, init=""):
    return d(f"""
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: {name}
          namespace: {nsn}
        spec:
          replicas: 1
          selector:
            matchLabels: {{app: {name}}}
          template:
            metadata:
              labels: {{app: {name}}}
            spec:
        """) + textwrap.indent(spec_extra + init + containers, "      ")


# 5 Secret volume defaultMode
SEC_V = [("0644 as 420", "420"), (None, None)]
def secvol(mode):
    m = f"\n    defaultMode: {mode}" if mode is not None else ""
    return f"volumes:\n  - name: creds\n    secret:\n      secretName: db-creds{m.replace(chr(10)+'    ', chr(10)+'      ')}\n"
CT = "containers:\n  - name: app\n    image: registry.example.com/app:1.0\n    volumeMounts:\n      - {name: creds, mountPath: /etc/creds, readOnly: true}\n"
add("secret-volume-mode",
    "Files from Secret volumes must not be world-readable: every secret volume has to set defaultMode explicitly, at most 0440 (owner and group read only).",
    K3, ["Deployment/billing/invoicer", "Deployment/billing/exporter"],
    {"apps.yaml": docs(dep("invoicer", "billing", secvol(420), CT),
                       dep("exporter", "billing", secvol(None), CT),
                       dep("mailer", "billing", secvol(256), CT))},
    {"apps.yaml": docs(dep("invoicer", "billing", secvol(288), CT),
                       dep("exporter", "billing", secvol(256), CT),
                       dep("mailer", "billing", secvol(256), CT))},
    "defaultMode in decimal: 420=0644 (violating), unset defaults to 0644 (violating), 288=0440 (boundary, compliant), 256=0400.")

# 6 Secrets as env vars
add("secrets-not-in-env",
    "Secret values must reach containers as mounted files, never as environment variables (no secretKeyRef and no envFrom secretRef), including init containers.",
    K3, ["Deployment/crm/crm-web", "CronJob/crm/export"],
    {"crm.yaml": docs(
        dep("crm-web", "crm", "",
            "containers:\n  - name: web\n    image: registry.example.com/crm:4.2\n    env:\n      - name: LOG_LEVEL\n        valueFrom: {configMapKeyRef: {name: crm-config, key: log_level}}\n",
            "initContainers:\n  - name: migrate\n    image: registry.example.com/crm-migrate:4.2\n    env:\n      - name: DB_PASSWORD\n        valueFrom:\n          secretKeyRef: {name: crm-db, key: password}\n"),
        d("""
        apiVersion: batch/v1
        kind: CronJob
        metadata:
          name: export
          namespace: crm
        spec:
          schedule: "30 1 * * *"
          jobTemplate:
            spec:
              template:
                spec:
                  restartPolicy: OnFailure
                  containers:
                    - name: export
                      image: registry.example.com/crm-export:1.1
                      envFrom:
                        - configMapRef: {name: export-config}
                        - secretRef: {name: s3-credentials}
        """))},
    {"crm.yaml": docs(
        dep("crm-web", "crm", "volumes:\n  - name: db\n    secret: {secretName: crm-db, defaultMode: 256}\n",
            "containers:\n  - name: web\n    image: registry.example.com/crm:4.2\n    env:\n      - name: LOG_LEVEL\n        valueFrom: {configMapKeyRef: {name: crm-config, key: log_level}}\n",
            "initContainers:\n  - name: migrate\n    image: registry.example.com/crm-migrate:4.2\n    env:\n      - {name: DB_PASSWORD_FILE, value: /run/secrets/db/password}\n    volumeMounts:\n      - {name: db, mountPath: /run/secrets/db, readOnly: true}\n"),
        d("""
        apiVersion: batch/v1
        kind: CronJob
        metadata:
          name: export
          namespace: crm
        spec:
          schedule: "30 1 * * *"
          jobTemplate:
            spec:
              template:
                spec:
                  restartPolicy: OnFailure
                  volumes:
                    - name: s3
                      secret: {secretName: s3-credentials}
                  containers:
                    - name: export
                      image: registry.example.com/crm-export:1.1
                      envFrom:
                        - configMapRef: {name: export-config}
                      volumeMounts:
                        - {name: s3, mountPath: /var/run/s3, readOnly: true}
        """))},
    "Violations: init container secretKeyRef; CronJob envFrom secretRef (second entry). Near misses: configMapKeyRef, configMapRef, env var naming a secret file path.")

# 7 RoleBinding to default SA
def rb(kind, name, nsn, subjects, role="edit"):
    meta = f"  name: {name}\n" + (f"  namespace: {nsn}\n" if nsn else "")
    return (f"apiVersion: rbac.authorization.k8s.io/v1\nkind: {kind}\nmetadata:\n{meta}"
            f"roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: {role}\nsubjects:\n" + subjects)
add("no-bindings-to-default-sa",
    "No permissions may be granted to a namespace's default ServiceAccount: no RoleBinding or ClusterRoleBinding may list a ServiceAccount named default as a subject.",
    K3, ["RoleBinding/analytics/jupyter-edit", "ClusterRoleBinding//metrics-readers"],
    {"rbac.yaml": docs(
        rb("RoleBinding", "jupyter-edit", "analytics",
           "  - {kind: User, name: alice@example.com, apiGroup: rbac.authorization.k8s.io}\n  - {kind: ServiceAccount, name: default, namespace: analytics}\n"),
        rb("ClusterRoleBinding", "metrics-readers", None,
           "  - {kind: ServiceAccount, name: prometheus, namespace: monitoring}\n  - {kind: ServiceAccount, name: default, namespace: monitoring}\n", "view"),
        rb("RoleBinding", "ci-deploy", "analytics",
           "  - {kind: ServiceAccount, name: ci-deployer, namespace: analytics}\n"))},
    {"rbac.yaml": docs(
        rb("RoleBinding", "jupyter-edit", "analytics",
           "  - {kind: User, name: alice@example.com, apiGroup: rbac.authorization.k8s.io}\n  - {kind: ServiceAccount, name: jupyter, namespace: analytics}\n"),
        rb("ClusterRoleBinding", "metrics-readers", None,
           "  - {kind: ServiceAccount, name: prometheus, namespace: monitoring}\n  - {kind: Group, name: default, apiGroup: rbac.authorization.k8s.io}\n", "view"),
        rb("RoleBinding", "ci-deploy", "analytics",
           "  - {kind: ServiceAccount, name: ci-deployer, namespace: analytics}\n"))},
    "default SA as second subject in both. Near miss: a Group named 'default' (not a ServiceAccount).")

# 8 escalate/bind/impersonate
def role(kind, name, nsn, rules, labels=""):
    meta = f"  name: {name}\n" + (f"  namespace: {nsn}\n" if nsn else "") + labels
    return f"apiVersion: rbac.authorization.k8s.io/v1\nkind: {kind}\nmetadata:\n{meta}rules:\n" + rules
add("no-escalation-verbs",
    "Roles and ClusterRoles must not grant the privilege-escalation verbs impersonate, escalate or bind on any resource.",
    K3, ["ClusterRole//team-admin", "Role/platform/sa-switcher"],
    {"roles.yaml": docs(
        role("ClusterRole", "team-admin", None,
             "  - apiGroups: [\"\"]\n    resources: [configmaps, services]\n    verbs: [get, list, watch, create, update]\n"
             "  - apiGroups: [rbac.authorization.k8s.io]\n    resources: [clusterroles]\n    verbs: [get, list, bind]\n    resourceNames: [view]\n"),
        role("Role", "sa-switcher", "platform",
             "  - apiGroups: [\"\"]\n    resources: [serviceaccounts]\n    verbs: [impersonate]\n"),
        role("ClusterRole", "rbac-auditor", None,
             "  - apiGroups: [rbac.authorization.k8s.io]\n    resources: [roles, rolebindings, clusterroles, clusterrolebindings]\n    verbs: [get, list, watch]\n"))},
    {"roles.yaml": docs(
        role("ClusterRole", "team-admin", None,
             "  - apiGroups: [\"\"]\n    resources: [configmaps, services]\n    verbs: [get, list, watch, create, update]\n"
             "  - apiGroups: [rbac.authorization.k8s.io]\n    resources: [clusterroles]\n    verbs: [get, list]\n    resourceNames: [view]\n"),
        role("Role", "sa-switcher", "platform",
             "  - apiGroups: [\"\"]\n    resources: [serviceaccounts]\n    verbs: [get, list]\n  - apiGroups: [\"\"]\n    resources: [serviceaccounts/token]\n    verbs: [create]\n"),
        role("ClusterRole", "rbac-auditor", None,
             "  - apiGroups: [rbac.authorization.k8s.io]\n    resources: [roles, rolebindings, clusterroles, clusterrolebindings]\n    verbs: [get, list, watch]\n"))},
    "bind hidden in a second rule restricted by resourceNames; impersonate on serviceaccounts. Near miss: read-only on RBAC objects.")

# 9 aggregation into admin/edit
add("no-aggregation-into-edit-admin",
    "Custom ClusterRoles must not aggregate into the built-in admin or edit roles (label rbac.authorization.k8s.io/aggregate-to-admin or aggregate-to-edit set to \"true\"); aggregating into view is allowed.",
    ["kyverno", "kubectl-opa", "opa-static"], ["ClusterRole//crd-widgets-edit"],
    {"agg.yaml": docs(
        role("ClusterRole", "crd-widgets-edit", None,
             "  - apiGroups: [widgets.example.com]\n    resources: [widgets]\n    verbs: [create, update, patch, delete]\n",
             "  labels:\n    app.kubernetes.io/part-of: widgets\n    rbac.authorization.k8s.io/aggregate-to-edit: \"true\"\n"),
        role("ClusterRole", "crd-widgets-view", None,
             "  - apiGroups: [widgets.example.com]\n    resources: [widgets]\n    verbs: [get, list, watch]\n",
             "  labels:\n    rbac.authorization.k8s.io/aggregate-to-view: \"true\"\n"))},
    {"agg.yaml": docs(
        role("ClusterRole", "crd-widgets-edit", None,
             "  - apiGroups: [widgets.example.com]\n    resources: [widgets]\n    verbs: [create, update, patch, delete]\n",
             "  labels:\n    app.kubernetes.io/part-of: widgets\n    rbac.authorization.k8s.io/aggregate-to-edit: \"false\"\n"),
        role("ClusterRole", "crd-widgets-view", None,
             "  - apiGroups: [widgets.example.com]\n    resources: [widgets]\n    verbs: [get, list, watch]\n",
             "  labels:\n    rbac.authorization.k8s.io/aggregate-to-view: \"true\"\n"))},
    "Near misses: aggregate-to-edit \"false\"; aggregate-to-view \"true\".")

# 10 NetworkPolicy egress to the world
def np(name, nsn, body):
    return f"apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: {name}\n  namespace: {nsn}\nspec:\n" + body
add("netpol-no-egress-anywhere",
    "No NetworkPolicy may open egress to the whole internet: an egress ipBlock of 0.0.0.0/0 or ::/0 is forbidden (ingress rules are out of scope).",
    K3, ["NetworkPolicy/web/allow-egress"],
    {"np.yaml": docs(
        np("allow-egress", "web", "  podSelector: {matchLabels: {app: web}}\n  policyTypes: [Egress]\n  egress:\n"
           "    - to:\n        - ipBlock: {cidr: 10.0.0.0/8}\n      ports:\n        - {protocol: TCP, port: 5432}\n"
           "    - to:\n        - ipBlock: {cidr: \"::/0\"}\n      ports:\n        - {protocol: TCP, port: 443}\n"),
        np("allow-lb", "web", "  podSelector: {matchLabels: {app: web}}\n  policyTypes: [Ingress]\n  ingress:\n"
           "    - from:\n        - ipBlock: {cidr: 0.0.0.0/0}\n      ports:\n        - {protocol: TCP, port: 8443}\n"))},
    {"np.yaml": docs(
        np("allow-egress", "web", "  podSelector: {matchLabels: {app: web}}\n  policyTypes: [Egress]\n  egress:\n"
           "    - to:\n        - ipBlock: {cidr: 10.0.0.0/8}\n      ports:\n        - {protocol: TCP, port: 5432}\n"
           "    - to:\n        - ipBlock: {cidr: 203.0.113.0/24}\n      ports:\n        - {protocol: TCP, port: 443}\n"),
        np("allow-lb", "web", "  podSelector: {matchLabels: {app: web}}\n  policyTypes: [Ingress]\n  ingress:\n"
           "    - from:\n        - ipBlock: {cidr: 0.0.0.0/0}\n      ports:\n        - {protocol: TCP, port: 8443}\n"))},
    "IPv6 ::/0 in the second egress rule. Near miss: ingress from 0.0.0.0/0 (out of scope).")

# 11 PSA labels
add("psa-enforce-label",
    "Every namespace except kube-system, kube-public and kube-node-lease must enforce Pod Security Admission at baseline or restricted level (label pod-security.kubernetes.io/enforce).",
    ["kyverno", "opa-static"], ["Namespace//legacy", "Namespace//data"],
    {"ns.yaml": docs(ns("frontend", {"pod-security.kubernetes.io/enforce": "restricted"}),
                     ns("legacy", {"pod-security.kubernetes.io/enforce": "privileged"}),
                     ns("data", {"pod-security.kubernetes.io/warn": "restricted", "pod-security.kubernetes.io/audit": "restricted"}),
                     ns("kube-system"))},
    {"ns.yaml": docs(ns("frontend", {"pod-security.kubernetes.io/enforce": "restricted"}),
                     ns("legacy", {"pod-security.kubernetes.io/enforce": "baseline", "pod-security.kubernetes.io/warn": "privileged"}),
                     ns("data", {"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/enforce-version": "v1.30"}),
                     ns("kube-system"))},
    "legacy enforces privileged; data has only warn/audit. Near misses: warn=privileged with enforce=baseline; kube-system unlabelled.")

# 12 PVC storage classes
def pvc(name, nsn, sc):
    s = f"  storageClassName: {sc}\n" if sc else ""
    return f"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {name}\n  namespace: {nsn}\nspec:\n  accessModes: [ReadWriteOnce]\n{s}  resources:\n    requests:\n      storage: 20Gi\n"
def sts(name, nsn, sc):
    return d(f"""
        apiVersion: apps/v1
        kind: StatefulSet
        metadata:
          name: {name}
          namespace: {nsn}
        spec:
          serviceName: {name}
          replicas: 3
          selector:
            matchLabels: {{app: {name}}}
          template:
            metadata:
              labels: {{app: {name}}}
            spec:
              containers:
                - name: db
                  image: registry.example.com/postgres:16.3
                  volumeMounts:
                    - {{name: data, mountPath: /var/lib/postgresql/data}}
          volumeClaimTemplates:
            - metadata:
                name: data
              spec:
                accessModes: [ReadWriteOnce]
                storageClassName: {sc}
                resources:
                  requests:
                    storage: 50Gi
        """)
add("pvc-approved-storage-class",
    "Persistent volume claims, including StatefulSet claim templates, must explicitly request one of the approved storage classes: gold-encrypted or silver-encrypted.",
    K3, ["PersistentVolumeClaim/reports/archive", "StatefulSet/reports/pg"],
    {"storage.yaml": docs(pvc("archive", "reports", None), pvc("scratch", "reports", "silver-encrypted"), sts("pg", "reports", "standard"))},
    {"storage.yaml": docs(pvc("archive", "reports", "gold-encrypted"), pvc("scratch", "reports", "silver-encrypted"), sts("pg", "reports", "gold-encrypted"))},
    "archive omits storageClassName (cluster default); pg template uses 'standard'.")

# 13 StorageClass binding mode
def scl(name, extra):
    return f"apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: {name}\nprovisioner: ebs.csi.aws.com\nparameters:\n  type: gp3\n  encrypted: \"true\"\n{extra}"
add("storageclass-wait-for-consumer",
    "Every StorageClass must delay provisioning and binding of a volume until a Pod using the claim is scheduled.",
    ["kubectl-opa", "opa-static"], ["StorageClass//gp3-fast", "StorageClass//gp3-legacy"],
    {"sc.yaml": docs(scl("gp3", "volumeBindingMode: WaitForFirstConsumer\nallowVolumeExpansion: true\n"),
                     scl("gp3-fast", "volumeBindingMode: Immediate\nallowVolumeExpansion: true\n"),
                     scl("gp3-legacy", "reclaimPolicy: Delete\n"))},
    {"sc.yaml": docs(scl("gp3", "volumeBindingMode: WaitForFirstConsumer\nallowVolumeExpansion: true\n"),
                     scl("gp3-fast", "volumeBindingMode: WaitForFirstConsumer\nallowVolumeExpansion: false\n"),
                     scl("gp3-legacy", "reclaimPolicy: Delete\nvolumeBindingMode: WaitForFirstConsumer\n"))},
    "Stated by effect only (volumeBindingMode WaitForFirstConsumer). gp3-legacy omits the field (default Immediate).")

# 14 Service appProtocol
def svc(name, nsn, ports):
    return f"apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\n  namespace: {nsn}\nspec:\n  selector: {{app: {name}}}\n  ports:\n" + ports
add("service-app-protocol",
    "Each port of every Service in namespaces labelled mesh=enabled must declare its application protocol (appProtocol) so the mesh does not have to guess.",
    K3, ["Service/orders/orders"],
    {"svc.yaml": docs(ns("orders", {"mesh": "enabled"}), ns("batch", {"mesh": "disabled"}),
                      svc("orders", "orders", "    - {name: http, port: 80, targetPort: 8080, appProtocol: http}\n    - {name: grpc, port: 9090, targetPort: 9090}\n"),
                      svc("cache", "orders", "    - {name: redis, port: 6379, targetPort: 6379, appProtocol: redis}\n"),
                      svc("jobs", "batch", "    - {name: http, port: 80, targetPort: 8080}\n"))},
    {"svc.yaml": docs(ns("orders", {"mesh": "enabled"}), ns("batch", {"mesh": "disabled"}),
                      svc("orders", "orders", "    - {name: http, port: 80, targetPort: 8080, appProtocol: http}\n    - {name: grpc, port: 9090, targetPort: 9090, appProtocol: kubernetes.io/h2c}\n"),
                      svc("cache", "orders", "    - {name: redis, port: 6379, targetPort: 6379, appProtocol: redis}\n"),
                      svc("jobs", "batch", "    - {name: http, port: 80, targetPort: 8080}\n"))},
    "Second port lacks appProtocol (name 'grpc' is not appProtocol). Near miss: mesh=disabled namespace.")

# 15 port count
P3 = "    ports:\n      - {name: http, containerPort: 8080}\n      - {name: admin, containerPort: 8081}\n      - {name: metrics, containerPort: 9090}\n"
P4 = P3 + "      - {name: debug, containerPort: 5005}\n"
add("max-three-container-ports",
    "To keep the attack surface small, no container may declare more than three ports.",
    K3, ["Deployment/search/indexer"],
    {"search.yaml": docs(dep("indexer", "search", "",
        "containers:\n  - name: indexer\n    image: registry.example.com/indexer:7.1\n" + P3 +
        "  - name: jmx-sidecar\n    image: registry.example.com/jmx:1.0\n" + P4),
        dep("query", "search", "", "containers:\n  - name: query\n    image: registry.example.com/query:7.1\n" + P3))},
    {"search.yaml": docs(dep("indexer", "search", "",
        "containers:\n  - name: indexer\n    image: registry.example.com/indexer:7.1\n" + P3 +
        "  - name: jmx-sidecar\n    image: registry.example.com/jmx:1.0\n" + P3),
        dep("query", "search", "", "containers:\n  - name: query\n    image: registry.example.com/query:7.1\n" + P3))},
    "Sidecar declares 4 ports; pod total 6/7 is not the criterion (per container). Compliant: 3 each (boundary), pod total 6.")

# 16 projected SA token expiry
def projvol(exp, extra=""):
    return ("volumes:\n  - name: vault-token\n    projected:\n      sources:\n"
            f"        - serviceAccountToken: {{audience: vault, expirationSeconds: {exp}, path: token}}\n" + extra)
CT2 = "containers:\n  - name: app\n    image: registry.example.com/app:2.2\n    volumeMounts:\n      - {name: vault-token, mountPath: /var/run/vault, readOnly: true}\n"
add("projected-token-max-1h",
    "Service account tokens projected into pods must expire within one hour: expirationSeconds of a serviceAccountToken projection may be at most 3600.",
    K3, ["Deployment/vault-clients/reporter"],
    {"pods.yaml": docs(dep("reporter", "vault-clients",
        "volumes:\n  - name: vault-token\n    projected:\n      sources:\n        - configMap: {name: ca-bundle}\n        - serviceAccountToken: {audience: vault, expirationSeconds: 86400, path: token}\n", CT2),
        dep("syncer", "vault-clients", projvol(3600), CT2))},
    {"pods.yaml": docs(dep("reporter", "vault-clients",
        "volumes:\n  - name: vault-token\n    projected:\n      sources:\n        - configMap: {name: ca-bundle}\n        - serviceAccountToken: {audience: vault, expirationSeconds: 1800, path: token}\n", CT2),
        dep("syncer", "vault-clients", projvol(3600), CT2))},
    "Token is the second projection source. syncer at exactly 3600 passes.")

# ---------------- RHEL 9 ----------------
R = ["rhel9-ansible-opa"]
CHRONY_HEAD = "# Use public servers from the pool.ntp.org project.\n# Please consider joining the pool (https://www.pool.ntp.org/join.html).\n"
CHRONY_TAIL = ("\n# Record the rate at which the system clock gains/losses time.\ndriftfile /var/lib/chrony/drift\n\n"
               "# Allow the system clock to be stepped in the first three updates\nmakestep 1.0 3\n\n"
               "# Enable kernel synchronization of the real-time clock (RTC).\nrtcsync\n\nkeyfile /etc/chrony.keys\nntsdumpdir /var/lib/chrony\nleapsectz right/UTC\nlogdir /var/log/chrony\n")
add("chrony-maxpoll",
    "Every time source configured for chronyd (server and pool lines in /etc/chrony.conf) must set maxpoll to 10 or lower.",
    R, ["chrony//maxpoll"],
    {"host/etc/chrony.conf": CHRONY_HEAD + "#pool 2.rhel.pool.ntp.org iburst\nserver time1.corp.example iburst maxpoll 10\nserver time2.corp.example iburst\n" + CHRONY_TAIL},
    {"host/etc/chrony.conf": CHRONY_HEAD + "#pool 2.rhel.pool.ntp.org iburst\nserver time1.corp.example iburst maxpoll 10\nserver time2.corp.example iburst minpoll 4 maxpoll 8\n" + CHRONY_TAIL},
    "Second server line has no maxpoll (setting unspecified = non-compliant by the wording 'must set'). Commented pool line irrelevant.",
    platform="rhel9")

COREDUMP = ("#  This file is part of systemd.\n#\n# Entries in this file show the compile time defaults. Local configuration\n"
            "# should be created by either modifying this file, or by creating \"drop-ins\" in\n# the coredump.conf.d/ subdirectory.\n\n[Coredump]\n")
add("coredump-storage-none",
    "Core dumps must not be stored: systemd-coredump has to be configured with Storage=none and ProcessSizeMax=0, and no drop-in may override that.",
    R, ["coredump//Storage"],
    {"host/etc/systemd/coredump.conf": COREDUMP + "Storage=none\nProcessSizeMax=0\n#Compress=yes\n#ExternalSizeMax=2G\n",
     "host/etc/systemd/coredump.conf.d/50-debugging.conf": "# added by devtools team, ticket OPS-4411\n[Coredump]\nStorage=external\n"},
    {"host/etc/systemd/coredump.conf": COREDUMP + "Storage=none\nProcessSizeMax=0\n#Compress=yes\n#ExternalSizeMax=2G\n",
     "host/etc/systemd/coredump.conf.d/50-debugging.conf": "# added by devtools team, ticket OPS-4411\n# reverted after review:\n#[Coredump]\n#Storage=external\n"},
    "Main file compliant; a drop-in in coredump.conf.d sets Storage=external. Compliant: drop-in fully commented.",
    platform="rhel9")

SEL_HEAD = ("\n# This file controls the state of SELinux on the system.\n# SELINUX= can take one of these three values:\n"
            "#     enforcing - SELinux security policy is enforced.\n#     permissive - SELinux prints warnings instead of enforcing.\n"
            "#     disabled - No SELinux policy is loaded.\n")
SEL_TAIL = ("# SELINUXTYPE= can take one of these three values:\n#     targeted - Targeted processes are protected,\n"
            "#     minimum - Modification of targeted policy. Only selected processes are protected.\n#     mls - Multi Level Security protection.\nSELINUXTYPE=targeted\n\n")
add("selinux-enforcing",
    "SELinux must be configured to start in enforcing mode on every boot.",
    R, ["selinux//SELINUX"],
    {"host/etc/selinux/config": SEL_HEAD + "#SELINUX=enforcing\nSELINUX=permissive\n" + SEL_TAIL},
    {"host/etc/selinux/config": SEL_HEAD + "#SELINUX=permissive\nSELINUX=enforcing\n" + SEL_TAIL},
    "Commented enforcing line above an active permissive. Compliant is the mirror image. Caveat: kernel args (selinux=0 in grub) not modelled.",
    platform="rhel9")

add("usb-storage-disabled",
    "The usb-storage kernel module must be impossible to load: modprobe must be configured both to refuse loading it (install usb-storage /bin/false or /bin/true) and to blacklist it.",
    R, ["modprobe//usb-storage"],
    {"host/etc/modprobe.d/usb-storage.conf": "# CIS 1.1.10 - disable USB storage\n#install usb-storage /bin/false\nblacklist usb-storage\n",
     "host/etc/modprobe.d/firewalld-sysctls.conf": "install nf_conntrack /usr/sbin/modprobe --ignore-install nf_conntrack $CMDLINE_OPTS && /usr/sbin/sysctl --quiet --pattern 'net[.]netfilter[.]nf_conntrack.*' --system\n"},
    {"host/etc/modprobe.d/usb-storage.conf": "# CIS 1.1.10 - disable USB storage\ninstall usb-storage /bin/false\nblacklist usb-storage\n",
     "host/etc/modprobe.d/firewalld-sysctls.conf": "install nf_conntrack /usr/sbin/modprobe --ignore-install nf_conntrack $CMDLINE_OPTS && /usr/sbin/sysctl --quiet --pattern 'net[.]netfilter[.]nf_conntrack.*' --system\n"},
    "install line commented out; only the blacklist remains.",
    platform="rhel9")


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python gen.py OUT")
    out = sys.argv[1]
    for (id_, req, classes, platform, vr, viol, comp, notes) in SC:
        base = os.path.join(out, id_)
        y = (f"id: {id_}\nplatform: {platform}\nrequirement: {q(req)}\nclasses: [{', '.join(classes)}]\n"
             "violating_resources:\n" + "".join(f"  - {q(r)}\n" for r in vr) + f"notes: {q(notes)}\n")
        files = {"scenario.yaml": y}
        for k, v in viol.items():
            files["violating/" + k] = v
        for k, v in comp.items():
            files["compliant/" + k] = v
        for rel, text in sorted(files.items()):
            p = os.path.join(base, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    print(f"{len(SC)} scenarios, {sum(len(s[2]) for s in SC)} trials -> {out}")


if __name__ == "__main__":
    main()
