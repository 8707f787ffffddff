#!/usr/bin/env python3
"""ciso-set20: 14 held-out CISO scenarios (11 Kubernetes x 3 classes, 3 RHEL 9).

Usage: python3 gen.py OUT   -- writes OUT/<scenario>/{scenario.yaml, violating/, compliant/, solution/}
Stdlib only, deterministic. Ground truth (violating_resources) is fixed below, by construction.
"""
import json
import os
import re
import sys

K3 = ["kyverno", "kubectl-opa", "opa-static"]
RH = ["rhel9-ansible-opa"]
SCENARIOS = []

# ---------------------------------------------------------------------------
# a tiny block-style YAML emitter (stdlib only)
# ---------------------------------------------------------------------------
_PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./:@-]*$")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def scalar(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if _PLAIN.match(s) and s.lower() not in _RESERVED and not s.endswith(":"):
        return s
    return json.dumps(s)


def emit(v, ind=0):
    pad = " " * ind
    out = []
    if isinstance(v, dict):
        if not v:
            return pad + "{}\n"
        for k, x in v.items():
            if isinstance(x, dict) and x:
                out.append(f"{pad}{k}:\n" + emit(x, ind + 2))
            elif isinstance(x, list) and x:
                out.append(f"{pad}{k}:\n" + emit(x, ind + 2))
            elif isinstance(x, dict):
                out.append(f"{pad}{k}: {{}}\n")
            elif isinstance(x, list):
                out.append(f"{pad}{k}: []\n")
            else:
                out.append(f"{pad}{k}: {scalar(x)}\n")
        return "".join(out)
    if isinstance(v, list):
        for x in v:
            if isinstance(x, (dict, list)) and x:
                body = emit(x, ind + 2)
                out.append(pad + "- " + body[ind + 2:])
            elif isinstance(x, dict):
                out.append(pad + "- {}\n")
            elif isinstance(x, list):
                out.append(pad + "- []\n")
            else:
                out.append(f"{pad}- {scalar(x)}\n")
        return "".join(out)
    return pad + scalar(v) + "\n"


def docs(*objs):
    return "---\n".join(emit(o) for o in objs)


# ---------------------------------------------------------------------------
# object helpers
# ---------------------------------------------------------------------------
def ns(name, labels=None):
    md = {"name": name}
    if labels:
        md["labels"] = dict(labels)
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": md}


def c(name, image, **kw):
    d = {"name": name, "image": image}
    d.update(kw)
    return d


def pod_spec(containers, init=None, eph=None, **kw):
    s = {}
    for k in ("serviceAccountName", "securityContext", "hostPID", "hostIPC", "hostNetwork",
              "shareProcessNamespace", "restartPolicy"):
        if k in kw:
            s[k] = kw.pop(k)
    if init:
        s["initContainers"] = init
    s["containers"] = containers
    if eph:
        s["ephemeralContainers"] = eph
    s.update(kw)
    return s


APPS = {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"}


def wl(kind, namespace, name, spec, labels=None, replicas=None, extra=None, annotations=None):
    md = {"name": name, "namespace": namespace}
    lab = {"app": name}
    if labels:
        lab.update(labels)
    md["labels"] = lab
    if annotations:
        md["annotations"] = annotations
    spec = dict(spec)
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec}
    tmpl = {"metadata": {"labels": {"app": name}}, "spec": spec}
    if kind in APPS:
        s = {}
        if kind != "DaemonSet":
            s["replicas"] = 2 if replicas is None else replicas
        if kind == "StatefulSet":
            s["serviceName"] = name
        s["selector"] = {"matchLabels": {"app": name}}
        s["template"] = tmpl
        if extra:
            s.update(extra)
        return {"apiVersion": "apps/v1", "kind": kind, "metadata": md, "spec": s}
    spec.setdefault("restartPolicy", "Never" if kind == "Job" else "OnFailure")
    tmpl = {"spec": spec}
    if kind == "Job":
        s = {"backoffLimit": 2, "template": tmpl}
        if extra:
            s.update(extra)
        return {"apiVersion": "batch/v1", "kind": "Job", "metadata": md, "spec": s}
    if kind == "CronJob":
        s = {"schedule": "15 2 * * *"}
        if extra:
            s.update(extra)
        s["jobTemplate"] = {"spec": {"template": tmpl}}
        return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": md, "spec": s}
    raise ValueError(kind)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def pods_of(kind):
    return kind


KINDS = "namespaces,pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs"

FETCHER = "#!/bin/sh\nkubectl get %s -A -o json > collected_data.json\n" % KINDS
FETCH = '''#!/bin/sh
python3 - <<'PY'
import glob, json, os, yaml
items = []
for p in sorted(glob.glob(os.path.join("static-resources", "**", "*.y*ml"), recursive=True)):
    with open(p) as f:
        for d in yaml.safe_load_all(f):
            if isinstance(d, dict) and d.get("kind"):
                items.append(d)
with open("collected_data.json", "w") as f:
    json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f)
PY
'''

REGO_HEAD = '''package check

import rego.v1

default result := true

pod_spec(o) := o.spec if o.kind == "Pod"
pod_spec(o) := o.spec.template.spec if o.kind in {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"}
pod_spec(o) := o.spec.jobTemplate.spec.template.spec if o.kind == "CronJob"

all_containers(s) := array.concat(array.concat(object.get(s, "containers", []), object.get(s, "initContainers", [])), object.get(s, "ephemeralContainers", []))

ns_labels(n) := l if {
	some o in input.items
	o.kind == "Namespace"
	o.metadata.name == n
	l := object.get(o.metadata, "labels", {})
}

ns_labels(n) := {} if {
	not any_ns(n)
}

any_ns(n) if {
	some o in input.items
	o.kind == "Namespace"
	o.metadata.name == n
}
'''

def kyv_pod_rules(name, deny_cond_for, precond=None):
    """Kyverno ClusterPolicy with foreach deny per pod shape."""
    shapes = [("pods", ["Pod"], "request.object.spec"),
              ("controllers", ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"],
               "request.object.spec.template.spec"),
              ("cronjobs", ["CronJob"], "request.object.spec.jobTemplate.spec.template.spec")]
    rules = []
    for sname, kinds, path in shapes:
        fe = []
        for lst in ("containers", "initContainers", "ephemeralContainers"):
            fe.append({"list": f"{path}.{lst} || `[]`",
                       "deny": {"conditions": {"any": deny_cond_for}}})
        r = {"name": f"{name}-{sname}", "match": {"any": [{"resources": {"kinds": kinds}}]}}
        if precond:
            r["match"]["any"][0]["resources"]["namespaceSelector"] = precond
        r["validate"] = {"message": name, "foreach": fe}
        rules.append(r)
    return emit({"apiVersion": "kyverno.io/v1", "kind": "ClusterPolicy",
                 "metadata": {"name": name, "annotations": {"pod-policies.kyverno.io/autogen-controllers": "none"}},
                 "spec": {"validationFailureAction": "Audit", "background": True, "rules": rules}})


def scenario(sid, half, cis_id, req, viol_objs, comp_objs, truth, kyv, rego_body, notes):
    SCENARIOS.append(dict(id=sid, cis_id=cis_id, platform="kubernetes", requirement=req,
                          classes=K3, violating_resources=truth, notes=notes,
                          _v=viol_objs, _c=comp_objs, _k=kyv, _r=REGO_HEAD + rego_body, _half=half))


# --- scenario 1: privileged (catalogue) -------------------------------------
P = {"securityContext": {"privileged": True}}
NP = {"securityContext": {"privileged": False}}
v1 = [ns("edge"), ns("storage"), ns("web"),
      wl("DaemonSet", "edge", "cni-helper", pod_spec([c("app", "registry.corp.example/cni:1.4", **NP), c("agent", "registry.corp.example/agent:2", **P)])),
      wl("Job", "storage", "disk-wipe-0412", pod_spec([c("wipe", "registry.corp.example/wipe:1")], init=[c("prep", "busybox:1.36", **P)])),
      wl("Pod", "web", "frontend-debug", pod_spec([c("web", "nginx:1.27")], eph=[c("debugger", "busybox:1.36", **P)])),
      wl("Deployment", "web", "frontend", pod_spec([c("web", "nginx:1.27", **NP)]))]
c1 = [ns("edge"), ns("storage"), ns("web"),
      wl("DaemonSet", "edge", "cni-helper", pod_spec([c("app", "registry.corp.example/cni:1.4", **NP), c("agent", "registry.corp.example/agent:2", securityContext={"capabilities": {"add": ["NET_ADMIN"]}})])),
      wl("Job", "storage", "disk-wipe-0412", pod_spec([c("wipe", "registry.corp.example/wipe:1", env=[{"name": "PRIVILEGED", "value": "true"}])], hostPID=True)),
      wl("Pod", "web", "frontend-debug", pod_spec([c("web", "nginx:1.27", securityContext={"runAsUser": 0})])),
      wl("Deployment", "web", "frontend", pod_spec([c("web", "nginx:latest", **NP)]))]
scenario("set21-k-privileged", "catalogue", "5.2.2",
         "CIS 5.2.2 (adapted): No container in the cluster -- regular, init or ephemeral debug container, in any "
         "kind of workload -- may run with all host devices and kernel capabilities, i.e. in privileged mode. "
         "Report every workload that would start such a container.",
         v1, c1, ["DaemonSet/edge/cni-helper", "Job/storage/disk-wipe-0412", "Pod/web/frontend-debug"],
         kyv_pod_rules("no-privileged", [{"key": "{{ element.securityContext.privileged || `false` }}", "operator": "Equals", "value": True}]),
         '''
result := false if {
	some o in input.items
	s := pod_spec(o)
	some ct in all_containers(s)
	object.get(object.get(ct, "securityContext", {}), "privileged", false) == true
}
''', "privileged in 2nd container, init container, ephemeral container; compliant: privileged false, env PRIVILEGED, other controls")

# --- scenario 2: memory limits in prod namespaces (novel) -------------------
LIM = {"resources": {"limits": {"memory": "512Mi", "cpu": "500m"}}}
CPU = {"resources": {"limits": {"cpu": "1"}, "requests": {"memory": "256Mi"}}}
PROD = {"env.corp.example/stage": "prod"}
v2 = [ns("payments", PROD), ns("search", PROD), ns("scratch", {"env.corp.example/stage": "dev"}),
      wl("Deployment", "payments", "ledger", pod_spec([c("app", "registry.corp.example/ledger:3", **LIM), c("envoy", "registry.corp.example/envoy:1.30", **CPU)])),
      wl("StatefulSet", "search", "opensearch", pod_spec([c("os", "registry.corp.example/opensearch:2", **LIM)], init=[c("sysctl", "busybox:1.36")])),
      wl("CronJob", "payments", "settle-batch", pod_spec([c("run", "registry.corp.example/settle:7")])),
      wl("Deployment", "scratch", "toy", pod_spec([c("app", "nginx:1.27")]))]
c2 = [ns("payments", PROD), ns("search", PROD), ns("scratch", {"env.corp.example/stage": "dev"}),
      wl("Deployment", "payments", "ledger", pod_spec([c("app", "registry.corp.example/ledger:3", **LIM), c("envoy", "registry.corp.example/envoy:1.30", resources={"limits": {"memory": "128Mi"}})])),
      wl("StatefulSet", "search", "opensearch", pod_spec([c("os", "registry.corp.example/opensearch:2", **LIM)], init=[c("sysctl", "busybox:1.36", resources={"limits": {"memory": "32Mi"}}, securityContext={"privileged": True})])),
      wl("CronJob", "payments", "settle-batch", pod_spec([c("run", "registry.corp.example/settle:7", resources={"limits": {"memory": "1Gi"}})], hostNetwork=True)),
      wl("Deployment", "scratch", "toy", pod_spec([c("app", "nginx:1.27")]))]
scenario("set21-k-prod-memory-ceiling", "novel", None,
         "Ticket OPS-2291: after last week's node OOM cascade, anything running in a namespace labelled "
         "env.corp.example/stage=prod must have a hard memory ceiling on every container it starts "
         "(sidecars and init steps included; a request alone is not a ceiling). Dev/test namespaces are out of scope. "
         "Flag every workload that breaks this.",
         v2, c2, ["Deployment/payments/ledger", "StatefulSet/search/opensearch", "CronJob/payments/settle-batch"],
         kyv_pod_rules("prod-memory-limit", [{"key": "{{ element.resources.limits.memory || '' }}", "operator": "Equals", "value": ""}],
                       precond={"matchLabels": PROD}),
         '''
result := false if {
	some o in input.items
	o.kind != "Namespace"
	object.get(ns_labels(o.metadata.namespace), "env.corp.example/stage", "") == "prod"
	s := pod_spec(o)
	some ct in array.concat(object.get(s, "containers", []), object.get(s, "initContainers", []))
	not ct.resources.limits.memory
}
''', "sidecar with only cpu limit + memory request; init container without limits; CronJob; dev namespace exempt in both envs")


def kyv_generic(name, lists, cond, namespaces=None):
    shapes = [("pods", ["Pod"], "request.object.spec"),
              ("controllers", ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"],
               "request.object.spec.template.spec"),
              ("cronjobs", ["CronJob"], "request.object.spec.jobTemplate.spec.template.spec")]
    rules = []
    for sname, kinds, path in shapes:
        fe = [{"list": f"{path}.{lst} || `[]`", "deny": {"conditions": {"any": cond}}} for lst in lists]
        res = {"kinds": kinds}
        if namespaces:
            res["namespaces"] = namespaces
        rules.append({"name": f"{name}-{sname}", "match": {"any": [{"resources": res}]},
                      "validate": {"message": name, "foreach": fe}})
    return emit({"apiVersion": "kyverno.io/v1", "kind": "ClusterPolicy",
                 "metadata": {"name": name, "annotations": {"pod-policies.kyverno.io/autogen-controllers": "none"}},
                 "spec": {"validationFailureAction": "Audit", "background": True, "rules": rules}})


# --- scenario 3: hostPath volumes (catalogue, PSS baseline) -----------------
def vols(*v):
    return list(v)
HP = lambda n, p: {"name": n, "hostPath": {"path": p, "type": "Directory"}}
ED = lambda n: {"name": n, "emptyDir": {}}
v3 = [ns("logging"), ns("ci"), ns("ml"),
      wl("DaemonSet", "logging", "fluent-bit", pod_spec([c("fb", "registry.corp.example/fluent-bit:3")], volumes=[ED("buffer"), HP("varlog", "/var/log")])),
      wl("CronJob", "ci", "image-gc", pod_spec([c("gc", "registry.corp.example/crictl:1.30")], volumes=[{"name": "sock", "hostPath": {"path": "/run/containerd/containerd.sock", "type": "Socket"}}])),
      wl("ReplicaSet", "ml", "notebook-7f9c", pod_spec([c("nb", "registry.corp.example/jupyter:4")], volumes=[{"name": "data", "persistentVolumeClaim": {"claimName": "nb-data"}}, HP("models", "/mnt/models")])),
      wl("Deployment", "ml", "serving", pod_spec([c("srv", "registry.corp.example/triton:24")], volumes=[ED("host-path-cache")]))]
c3 = [ns("logging"), ns("ci"), ns("ml"),
      wl("DaemonSet", "logging", "fluent-bit", pod_spec([c("fb", "registry.corp.example/fluent-bit:3")], volumes=[ED("buffer"), ED("varlog")], hostNetwork=True)),
      wl("CronJob", "ci", "image-gc", pod_spec([c("gc", "registry.corp.example/crictl:1.30", securityContext={"privileged": True})], volumes=[{"name": "hostpath-sock", "csi": {"driver": "secrets-store.csi.k8s.io", "readOnly": True}}])),
      wl("ReplicaSet", "ml", "notebook-7f9c", pod_spec([c("nb", "registry.corp.example/jupyter:4", env=[{"name": "HOST_PATH", "value": "/mnt/models"}])], volumes=[{"name": "data", "persistentVolumeClaim": {"claimName": "nb-data"}}])),
      wl("Deployment", "ml", "serving", pod_spec([c("srv", "registry.corp.example/triton:24")], volumes=[ED("host-path-cache")]))]
SCENARIOS.append(dict(id="set21-k-no-node-filesystem", cis_id="5.2", platform="kubernetes",
    requirement="@platform-sec can we get a check that no workload mounts directories or sockets straight off the node's own filesystem? PVCs, emptyDirs, CSI etc. are all fine.",
    classes=K3, violating_resources=["DaemonSet/logging/fluent-bit", "CronJob/ci/image-gc", "ReplicaSet/ml/notebook-7f9c"],
    notes="hostPath always in 2nd volume or as a socket; compliant: emptyDir named host-path-cache, csi named hostpath-sock, env HOST_PATH",
    _v=v3, _c=c3, _half="catalogue",
    _k=kyv_generic("no-host-path", ["volumes"], [{"key": "{{ contains(keys(element), 'hostPath') }}", "operator": "Equals", "value": True}]),
    _r=REGO_HEAD + """
result := false if {
	some o in input.items
	s := pod_spec(o)
	some v in object.get(s, "volumes", [])
	v.hostPath
}
"""))

# --- scenario 4: digest-pinned images in pci-* namespaces (novel) -----------
DIG = "@sha256:" + "3f1a" * 16
v4 = [ns("pci-gateway"), ns("pci-vault"), ns("marketing"), ns("spci-tools"),
      wl("Deployment", "pci-gateway", "card-api", pod_spec([c("api", "registry.corp.example/card-api" + DIG), c("otel", "registry.corp.example/otel-collector:0.98")])),
      wl("StatefulSet", "pci-vault", "tokenizer", pod_spec([c("tok", "registry.corp.example/tokenizer" + DIG)], init=[c("migrate", "registry.corp.example/tokenizer-migrate:2.1")])),
      wl("Pod", "pci-gateway", "card-api-debug", pod_spec([c("api", "registry.corp.example/card-api" + DIG)], eph=[c("dbg", "busybox:1.36")])),
      wl("Deployment", "marketing", "cms", pod_spec([c("cms", "registry.corp.example/cms:latest")])),
      wl("Deployment", "spci-tools", "linter", pod_spec([c("l", "registry.corp.example/lint:1")]))]
c4 = [ns("pci-gateway"), ns("pci-vault"), ns("marketing"), ns("spci-tools"),
      wl("Deployment", "pci-gateway", "card-api", pod_spec([c("api", "registry.corp.example/card-api" + DIG), c("otel", "registry.corp.example/otel-collector:0.98" + DIG)])),
      wl("StatefulSet", "pci-vault", "tokenizer", pod_spec([c("tok", "registry.corp.example/tokenizer" + DIG, securityContext={"privileged": True})], init=[c("migrate", "registry.corp.example/tokenizer-migrate" + DIG)])),
      wl("Pod", "pci-gateway", "card-api-debug", pod_spec([c("api", "registry.corp.example/card-api" + DIG, env=[{"name": "IMAGE_TAG", "value": "latest"}])], hostPID=True)),
      wl("Deployment", "marketing", "cms", pod_spec([c("cms", "registry.corp.example/cms:latest")])),
      wl("Deployment", "spci-tools", "linter", pod_spec([c("l", "registry.corp.example/lint:1")]))]
SCENARIOS.append(dict(id="set21-k-pci-immutable-images", platform="kubernetes",
    requirement="Audit finding PCI-DSS 6.3 / F-0117: in the cardholder-data environment (every namespace whose name starts with \"pci-\") the exact bytes of every container image that can run -- including init steps and debug containers attached later -- must be fixed at deploy time, so that a re-pushed tag cannot change what runs. Tags alone do not satisfy this, even with a digest-looking version string. Other namespaces are out of scope.",
    classes=K3, violating_resources=["Deployment/pci-gateway/card-api", "StatefulSet/pci-vault/tokenizer", "Pod/pci-gateway/card-api-debug"],
    notes="name-prefix scope (spci-tools contains 'pci-' but does not start with it; marketing :latest in both envs); tag+digest form counts as pinned",
    _v=v4, _c=c4, _half="novel",
    _k=kyv_generic("pci-digest-images", ["containers", "initContainers", "ephemeralContainers"],
                   [{"key": "{{ contains(element.image, '@sha256:') }}", "operator": "Equals", "value": False}], namespaces=["pci-*"]),
    _r=REGO_HEAD + """
result := false if {
	some o in input.items
	o.kind != "Namespace"
	startswith(o.metadata.namespace, "pci-")
	s := pod_spec(o)
	some ct in all_containers(s)
	not contains(ct.image, "@sha256:")
}
"""))


# --- RHEL 9 ------------------------------------------------------------------
RHEL = []

SSHD_MAIN = """#\t$OpenBSD: sshd_config,v 1.104 2021/07/02 05:11:21 dtucker Exp $

# To modify the system-wide sshd configuration, create a  *.conf  file under
#  /etc/ssh/sshd_config.d/  which will be automatically included below
Include /etc/ssh/sshd_config.d/*.conf

#Port 22
#AddressFamily any
#ListenAddress 0.0.0.0

# Authentication:

#LoginGraceTime 2m
%s
#StrictModes yes
#MaxAuthTries 6
#MaxSessions 10

PubkeyAuthentication yes
AuthorizedKeysFile\t.ssh/authorized_keys
PasswordAuthentication no
%s
Subsystem\tsftp\t/usr/libexec/openssh/sftp-server
"""
REDHAT = """# This system is following system-wide crypto policy. The changes to
# crypto properties (Ciphers, MACs, ...) will not have any effect in
# this or following included files. To override some configuration option,
# write it before this block or in a subsequent file.
Include /etc/crypto-policies/back-ends/opensshserver.config

SyslogFacility AUTHPRIV
ChallengeResponseAuthentication no
GSSAPIAuthentication yes
GSSAPICleanupCredentials no
UsePAM yes
X11Forwarding %s
PrintMotd no
"""
RHEL.append(dict(id="set21-r-ssh-no-root-login", half="catalogue", cis_id="5.2.10",
    requirement="CIS Red Hat Enterprise Linux 9 Benchmark, 5.2.10 Ensure SSH root login is disabled (Automated). "
                "The root account must not be able to log in directly over SSH by any authentication method; administrators "
                "log in with their own accounts and escalate. Verify the value the SSH daemon actually uses on the host.",
    truth=["sshd//PermitRootLogin"],
    viol={"etc/ssh/sshd_config": SSHD_MAIN % ("PermitRootLogin no", ""),
          "etc/ssh/sshd_config.d/01-permitrootlogin.conf": "# Added by cloud image build\nPermitRootLogin yes\n",
          "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT % "no"},
    comp={"etc/ssh/sshd_config": SSHD_MAIN % ("#PermitRootLogin prohibit-password", "Match Address 10.9.0.0/16\n\tPermitRootLogin no\n"),
          "etc/ssh/sshd_config.d/01-permitrootlogin.conf": "# hardened 2026-03\npermitrootlogin   No\nPermitRootLogin yes\n",
          "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT % "yes"},
    notes="violating: main says 'no' but the cloud-image drop-in included before it says yes (first value wins); "
          "compliant: lowercase spaced 'No' first, later 'yes' ignored; X11Forwarding yes (other control)",
    playbook="""---
- name: collect sshd configuration
  hosts: rhel9_servers
  gather_facts: false
  tasks:
    - name: main file
      ansible.builtin.slurp:
        src: /etc/ssh/sshd_config
      register: main
    - name: drop-ins
      ansible.builtin.find:
        paths: /etc/ssh/sshd_config.d
        patterns: "*.conf"
      register: dropins
    - name: read drop-ins
      ansible.builtin.slurp:
        src: "{{ item.path }}"
      loop: "{{ dropins.files | sort(attribute='path') }}"
      register: dropin_text
    - name: save
      ansible.builtin.copy:
        dest: "{{ playbook_dir }}/collected_data.json"
        content: "{{ {'main': main.content | b64decode, 'dropins': dropin_text.results | map(attribute='content') | map('b64decode') | list} | to_json }}"
      delegate_to: localhost
""",
    rego="""package check

import rego.v1

default result := true

clean(l) := trim_space(l)

main_lines := split(input.main, "\\n")

inc_idx := i if {
	some i, l in main_lines
	startswith(lower(clean(l)), "include /etc/ssh/sshd_config.d/")
}

dropin_lines := [l | some t in input.dropins; some l in split(t, "\\n")]

seq := array.concat(array.concat(array.slice(main_lines, 0, inc_idx), dropin_lines), array.slice(main_lines, inc_idx + 1, count(main_lines)))

directives := [[lower(f[0]), lower(f[1])] |
	some l in seq
	c := clean(l)
	c != ""
	not startswith(c, "#")
	f := regex.split(`[\\s=]+`, c)
	count(f) >= 2
]

match_pos := [i | some i, d in directives; d[0] == "match"]

cut := min(match_pos) if count(match_pos) > 0
cut := count(directives) if count(match_pos) == 0

values := [d[1] | some i, d in directives; i < cut; d[0] == "permitrootlogin"]

result := false if count(values) == 0
result := false if {
	count(values) > 0
	values[0] != "no"
}
"""))

SUDOERS = """## Sudoers allows particular users to run various commands as
## the root user, without needing the root password.
Defaults   !visiblepw
Defaults    always_set_home
Defaults    match_group_by_gid
Defaults    env_reset

root\tALL=(ALL) \tALL

## Allows people in group wheel to run all commands
%wheel\tALL=(ALL)\tALL

## Same thing without a password
# %wheel\tALL=(ALL)\tNOPASSWD: ALL

## Read drop-in files from /etc/sudoers.d (the # here does not mean a comment)
#includedir /etc/sudoers.d
"""
RHEL.append(dict(id="set21-r-sudo-reauth", half="novel", cis_id=None,
    requirement="Security standard SEC-LNX-07 (ticket from the Linux platform team): nobody may gain root through sudo "
                "without typing their own password at that moment. The only sanctioned exception is the CI runner group "
                "(%ci-runners), whose unattended jobs need it. Check the sudo rules that are actually in effect on the host, "
                "main file and drop-ins.",
    truth=["sudoers//etc/sudoers.d/90-cloud-init-users", "sudoers//etc/sudoers.d/ops-oncall"],
    viol={"etc/sudoers": SUDOERS,
          "etc/sudoers.d/90-cloud-init-users": "# Created by cloud-init v. 23.4 on Tue, 03 Mar 2026\n\n# User rules for cloud-user\ncloud-user ALL=(ALL) NOPASSWD:ALL\n",
          "etc/sudoers.d/ops-oncall": "Cmnd_Alias SVC = /usr/bin/systemctl restart *, /usr/bin/journalctl\n%ops\tALL=(root)\tSVC\n%oncall ALL=(root) NOPASSWD: SVC\n",
          "etc/sudoers.d/ci-runners": "%ci-runners ALL=(ALL) NOPASSWD: ALL\n"},
    comp={"etc/sudoers": SUDOERS,
          "etc/sudoers.d/90-cloud-init-users": "# Created by cloud-init v. 23.4 on Tue, 03 Mar 2026\n\n# User rules for cloud-user\ncloud-user ALL=(ALL) ALL\n",
          "etc/sudoers.d/ops-oncall": "Cmnd_Alias SVC = /usr/bin/systemctl restart *, /usr/bin/journalctl\n%ops\tALL=(root)\tSVC\n%oncall ALL=(root) PASSWD: SVC\n",
          "etc/sudoers.d/ops-oncall.rpmsave": "%oncall ALL=(root) NOPASSWD: ALL\n",
          "etc/sudoers.d/ci-runners": "%ci-runners ALL=(ALL) NOPASSWD: ALL\n",
          "etc/ssh/sshd_config": "PermitRootLogin yes\n"},
    notes="NOPASSWD in a drop-in (cloud-init) and on one line of a multi-line drop-in; exempt %ci-runners in both; "
          "compliant: stock commented NOPASSWD, explicit PASSWD tag, NOPASSWD only in a .rpmsave file which sudo's includedir skips (names with '.'), "
          "PermitRootLogin yes (other control)",
    playbook="""---
- name: collect sudo rules
  hosts: rhel9_servers
  gather_facts: false
  tasks:
    - name: main file
      ansible.builtin.slurp:
        src: /etc/sudoers
      register: main
    - name: drop-ins
      ansible.builtin.find:
        paths: /etc/sudoers.d
        file_type: file
      register: dropins
    - name: read drop-ins
      ansible.builtin.slurp:
        src: "{{ item.path }}"
      loop: "{{ dropins.files | sort(attribute='path') }}"
      register: dropin_text
    - name: save
      ansible.builtin.copy:
        dest: "{{ playbook_dir }}/collected_data.json"
        content: "{{ {'main': main.content | b64decode, 'dropins': dropin_text.results | map(attribute='item') | map(attribute='path') | zip(dropin_text.results | map(attribute='content') | map('b64decode')) | list} | to_json }}"
      delegate_to: localhost
""",
    rego="""package check

import rego.v1

default result := true

basename(p) := b if {
	parts := split(p, "/")
	b := parts[count(parts) - 1]
}

read(p) if {
	b := basename(p)
	not contains(b, ".")
	not endswith(b, "~")
}

texts contains input.main

texts contains pair[1] if {
	some pair in input.dropins
	read(pair[0])
}

result := false if {
	some t in texts
	some l in split(t, "\\n")
	c := trim_space(l)
	not startswith(c, "#")
	contains(c, "NOPASSWD")
	f := regex.split(`\\s+`, c)
	f[0] != "%ci-runners"
}
"""))


def write_rhel(out):
    for s in RHEL:
        d = os.path.join(out, s["id"])
        meta = {"id": s["id"]}
        if s["cis_id"]:
            meta["cis_id"] = s["cis_id"]
        meta.update(platform="rhel9", requirement=s["requirement"], classes=RH,
                    violating_resources=s["truth"], notes=s["notes"])
        write(os.path.join(d, "scenario.yaml"), emit(meta))
        for env, files in (("violating", s["viol"]), ("compliant", s["comp"])):
            for rel, text in files.items():
                write(os.path.join(d, env, "host", rel), text)
        write(os.path.join(d, "solution", "playbook.yml"), s["playbook"])
        write(os.path.join(d, "solution", "policy.rego"), s["rego"])

# ---------------------------------------------------------------------------
def main(out):
    for s in SCENARIOS:
        d = os.path.join(out, s["id"])
        meta = {k: v for k, v in s.items() if not k.startswith("_") and v is not None}
        write(os.path.join(d, "scenario.yaml"), emit(meta))
        write(os.path.join(d, "violating", "resources.yaml"), docs(*s["_v"]))
        write(os.path.join(d, "compliant", "resources.yaml"), docs(*s["_c"]))
        write(os.path.join(d, "solution", "kyverno-policy.yaml"), s["_k"])
        write(os.path.join(d, "solution", "policy.rego"), s["_r"])
        write(os.path.join(d, "solution", "fetcher.sh"), FETCHER)
        write(os.path.join(d, "solution", "fetch.sh"), FETCH)
    write_rhel(out)


if __name__ == "__main__":
    main(sys.argv[1])
