#!/usr/bin/env python3
"""ciso-set9 (blind-ciso9): held-out CISO scenarios in the project's user format: 15 Kubernetes scenarios (kyverno,
kubectl-opa, opa-static) and 5 RHEL 9 ones (rhel9-ansible-opa), on controls that none of ciso-set2..8 has. Labels are
fixed by construction below; every run self-checks every scenario with my own predicate (PRED for Kubernetes, RPRED for
RHEL 9): it must flag exactly violating_resources in violating/ and nothing in compliant/. The YAML emitter, object
helpers, the systemd-sysctl and sshd readers and the RHEL file templates are copied from measurement/ciso-set8/gen.py.
stdlib only, deterministic.   Usage: python3 gen.py OUTDIR"""
import copy
import hashlib
import ipaddress
import json
import os
import re
import sys

K8S = ["kyverno", "kubectl-opa", "opa-static"]


# ------------------------------------------------------------------ YAML emitter (block style)
def scalar(v):
    if v is True: return "true"
    if v is False: return "false"
    if v is None: return "null"
    if isinstance(v, (int, float)): return str(v)
    s = str(v)
    if s == "" or re.search(r"[:#\[\]{},&*!|>'\"%@`]|^[-?\s]|\s$", s) or s.lower() in (
            "true", "false", "yes", "no", "on", "off", "null", "~") or re.match(r"^[0-9.+-eE]+$", s):
        return json.dumps(s)
    return s


def emit(v, ind, out):
    pad = "  " * ind
    if isinstance(v, dict):
        for k, x in v.items():
            kk = scalar(k)
            if isinstance(x, str) and "\n" in x:
                out.append(f"{pad}{kk}: |")
                out.extend(("  " * (ind + 1) + l) if l else "" for l in x.rstrip("\n").split("\n"))
            elif isinstance(x, dict) and x:
                out.append(f"{pad}{kk}:")
                emit(x, ind + 1, out)
            elif isinstance(x, list) and x:
                out.append(f"{pad}{kk}:")
                emit(x, ind + 1, out)
            elif isinstance(x, (dict, list)):
                out.append(f"{pad}{kk}: {'{}' if isinstance(x, dict) else '[]'}")
            else:
                out.append(f"{pad}{kk}: {scalar(x)}")
    else:
        for x in v:
            if isinstance(x, (dict, list)) and x:
                sub = []
                emit(x, ind + 1, sub)
                sub[0] = pad + "- " + sub[0][len(pad) + 2:]
                out.extend(sub)
            elif isinstance(x, (dict, list)):
                out.append(f"{pad}- {'{}' if isinstance(x, dict) else '[]'}")
            else:
                out.append(f"{pad}- {scalar(x)}")


def dump(v):
    out = []
    emit(v, 0, out)
    return "\n".join(out) + "\n"


def docs(objs):
    return "---\n".join(dump(o) for o in objs)


# ------------------------------------------------------------------ objects
def digest(s):
    return "sha256:" + hashlib.sha256(s.encode()).hexdigest()


def img(path, tag, pin=True):
    ref = f"harbor.acme.internal/{path}:{tag}"
    return ref + "@" + digest(ref) if pin else ref


HARD = {"allowPrivilegeEscalation": False, "runAsNonRoot": True, "readOnlyRootFilesystem": True,
        "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}}
LIM = {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}}


def sc(**over):
    h = copy.deepcopy(HARD)
    for k, v in over.items():
        if v is None: h.pop(k, None)
        else: h[k] = v
    return h


def ctr(name, image=None, secctx="hard", resources="lim", **kw):
    c = {"name": name, "image": image or img(f"apps/{name}", "1.8.2")}
    if secctx == "hard": c["securityContext"] = sc()
    elif secctx is not None: c["securityContext"] = secctx
    if resources == "lim": c["resources"] = copy.deepcopy(LIM)
    elif resources is not None: c["resources"] = resources
    c.update(kw)
    return c


def podspec(containers, init=None, **kw):
    s = {}
    if init: s["initContainers"] = init
    s["containers"] = containers
    s.update(kw)
    return s


def ns(name, labels=None):
    lab = {"kubernetes.io/metadata.name": name, "pod-security.kubernetes.io/warn": "restricted",
           "pod-security.kubernetes.io/audit": "restricted"}
    if labels is not None:
        lab = {"kubernetes.io/metadata.name": name}
        lab.update(labels)
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": lab}}


def meta(name, namespace=None, labels=None, annotations=None):
    m = {"name": name}
    if namespace: m["namespace"] = namespace
    if labels: m["labels"] = labels
    if annotations: m["annotations"] = annotations
    return m


def wl(kind, namespace, name, spec, tmpl_annotations=None):
    sel = {"app.kubernetes.io/name": name}
    tm = {"labels": dict(sel)}
    if tmpl_annotations: tm["annotations"] = tmpl_annotations
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": meta(name, namespace, dict(sel), tmpl_annotations), "spec": spec}
    if kind == "CronJob":
        spec = dict(spec, restartPolicy="OnFailure")
        return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta(name, namespace),
                "spec": {"schedule": "23 4 * * *", "jobTemplate": {"spec": {"template": {"metadata": tm, "spec": spec}}}}}
    if kind == "Job":
        spec = dict(spec, restartPolicy="Never")
        return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta(name, namespace),
                "spec": {"backoffLimit": 2, "template": {"metadata": tm, "spec": spec}}}
    body = {"selector": {"matchLabels": sel}, "template": {"metadata": tm, "spec": spec}}
    if kind in ("Deployment", "StatefulSet"): body = dict({"replicas": 2}, **body)
    if kind == "StatefulSet": body["serviceName"] = name
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": meta(name, namespace), "spec": body}


def cm(namespace, name, data):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(name, namespace), "data": data}


def svc(namespace, name, typ=None, port=80):
    s = {"selector": {"app.kubernetes.io/name": name}, "ports": [{"name": "http", "port": port, "targetPort": 8080}]}
    if typ: s["type"] = typ
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, namespace), "spec": s}


RBAC = "rbac.authorization.k8s.io"


def role(name, rules, namespace=None, labels=None):
    return {"apiVersion": f"{RBAC}/v1", "kind": "Role" if namespace else "ClusterRole",
            "metadata": meta(name, namespace, labels), "rules": rules}


def rule(groups, resources, verbs, names=None):
    r = {"apiGroups": groups, "resources": resources, "verbs": verbs}
    if names: r["resourceNames"] = names
    return r


def binding(name, role_kind, role_name, subjects, namespace=None):
    return {"apiVersion": f"{RBAC}/v1", "kind": "RoleBinding" if namespace else "ClusterRoleBinding",
            "metadata": meta(name, namespace), "roleRef": {"apiGroup": RBAC, "kind": role_kind, "name": role_name},
            "subjects": subjects}


def group(n): return {"apiGroup": RBAC, "kind": "Group", "name": n}


def rid(o):
    return f"{o['kind']}/{o['metadata'].get('namespace', '')}/{o['metadata']['name']}"


# ------------------------------------------------------------------ predicate helpers (self-check)
def pspec(o):
    k = o["kind"]
    if k == "Pod": return o["spec"], o["metadata"]
    if k == "CronJob":
        t = o["spec"]["jobTemplate"]["spec"]["template"]
        return t["spec"], t.get("metadata", {})
    if k in ("Deployment", "StatefulSet", "DaemonSet", "Job", "ReplicaSet"):
        t = o["spec"]["template"]
        return t["spec"], t.get("metadata", {})
    return None, None


def all_ctrs(sp):
    return sp.get("containers", []) + sp.get("initContainers", []) + sp.get("ephemeralContainers", [])


def workloads(objs):
    for o in objs:
        sp, pm = pspec(o)
        if sp is not None:
            yield o, sp, pm


def ctr_bad(objs, f, skip_ns=()):
    return {rid(o) for o, sp, pm in workloads(objs) if o["metadata"].get("namespace") not in skip_ns
            and any(f(c.get("securityContext") or {}, c, sp, pm) for c in all_ctrs(sp))}


def rules_of(objs, exempt=lambda o: o["metadata"]["name"].startswith("system:")):
    for o in objs:
        if o["kind"] in ("Role", "ClusterRole") and not exempt(o):
            yield o, o.get("rules") or []


def grants(r, groups, resources, verbs):
    return bool(set(r.get("apiGroups", [])) & (set(groups) | {"*"})) and \
        bool(set(r.get("resources", [])) & (set(resources) | {"*"})) and \
        bool(set(r.get("verbs", [])) & (set(verbs) | {"*"}))


# ------------------------------------------------------------------ scenarios
SCEN = []


def scenario(fn):
    SCEN.append(fn)
    return fn


def S(id_, cis, voice, req, v, c, bad, notes, why, platform="kubernetes", classes=None, debatable=None):
    return dict(id=id_, cis=cis, voice=voice, requirement=req, violating=v, compliant=c, bad=bad, notes=notes,
                why=why, platform=platform, classes=classes or K8S, debatable=debatable)


PRED = {}


def svcx(namespace, name, typ=None, ports=None, **extra):
    s = {"selector": {"app.kubernetes.io/name": name},
         "ports": ports or [{"name": "http", "port": 80, "targetPort": 8080}]}
    if typ: s["type"] = typ
    s.update(extra)
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta(name, namespace), "spec": s}


def sa(namespace, name):
    return {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta(name, namespace)}


def user(n): return {"apiGroup": RBAC, "kind": "User", "name": n}


def sasub(n, namespace): return {"kind": "ServiceAccount", "name": n, "namespace": namespace}


def secret(namespace, name, typ="Opaque", data=None, annotations=None):
    return {"apiVersion": "v1", "kind": "Secret", "metadata": meta(name, namespace, annotations=annotations),
            "type": typ, "data": data or {}}


def b64(s):
    import base64
    return base64.b64encode(s.encode()).decode()


def netpol(namespace, name, ingress=None, egress=None, selector=None, types=None):
    spec = {"podSelector": selector if selector is not None else {}}
    if types: spec["policyTypes"] = types
    if ingress is not None: spec["ingress"] = ingress
    if egress is not None: spec["egress"] = egress
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": meta(name, namespace), "spec": spec}


def ing(namespace, name, host, cls=None, annotations=None):
    spec = {}
    if cls: spec["ingressClassName"] = cls
    spec["rules"] = [{"host": host, "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": {
        "service": {"name": name, "port": {"number": 80}}}}]}}]
    spec["tls"] = [{"hosts": [host], "secretName": name + "-tls"}]
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta(name, namespace, annotations=annotations),
            "spec": spec}


NONROOT = {"runAsNonRoot": True, "runAsUser": 10001, "runAsGroup": 10001, "seccompProfile": {"type": "RuntimeDefault"}}


def psc(**over):
    p = copy.deepcopy(NONROOT)
    p.update(over)
    return p


# ================================================================== helpers (ciso-set5/6)


def eph(name, image, **kw):
    e = {"name": name, "image": image, "targetContainerName": kw.pop("target", None) or "app"}
    e.update(kw)
    return e


def tagged(path, tag=None, host="harbor.acme.internal"):
    return f"{host}/{path}" + (f":{tag}" if tag else "")


# ================================================================== Kubernetes (ciso-set6)
def res(cpu_req="100m", mem_req="128Mi", mem_lim="256Mi", cpu_lim=None):
    r = {"requests": {}, "limits": {}}
    if cpu_req is not None: r["requests"]["cpu"] = cpu_req
    if mem_req is not None: r["requests"]["memory"] = mem_req
    if mem_lim is not None: r["limits"]["memory"] = mem_lim
    if cpu_lim is not None: r["limits"]["cpu"] = cpu_lim
    return {k: v for k, v in r.items() if v}


def cpu_zero(q):
    q = str(q).strip()
    if q.endswith("m"): q = q[:-1]
    try:
        return float(q) == 0
    except ValueError:
        return True



RHEL = ["rhel9-ansible-opa"]
RPRED = {}

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
SYSTEMD_50 = """# This file is part of systemd.
#
# See sysctl.d(5) and core(5) for documentation.

# To override settings in this file, create a local file in /etc
# (e.g. /etc/sysctl.d/90-override.conf), and put any assignments
# there.

# System Request functionality of the kernel (SYNC)
kernel.sysrq = 16

# Append the PID to the core filename
kernel.core_uses_pid = 1

# Source route verification
net.ipv4.conf.default.rp_filter = 2
net.ipv4.conf.*.rp_filter = 2
-net.ipv4.conf.all.rp_filter

# Do not accept source routing
net.ipv4.conf.default.accept_source_route = 0
net.ipv4.conf.*.accept_source_route = 0
-net.ipv4.conf.all.accept_source_route

# Promote secondary addresses when the primary address is removed
net.ipv4.conf.default.promote_secondaries = 1
net.ipv4.conf.*.promote_secondaries = 1
-net.ipv4.conf.all.promote_secondaries

# ping(8) without CAP_NET_ADMIN and CAP_NET_RAW
-net.ipv4.ping_group_range = 0 2147483647

# Fair Queue CoDel packet scheduler to fight bufferbloat
-net.core.default_qdisc = fq_codel

# Enable hard and soft link protection
fs.protected_hardlinks = 1
fs.protected_symlinks = 1

# Enable regular file and FIFO protection
fs.protected_regular = 1
fs.protected_fifos = 1
"""
SYSTEMD_50_PID = "# Bump the numeric PID range\nkernel.pid_max = 4194304\n"


def sysctl_effective(t):
    dirs = ["etc/sysctl.d", "run/sysctl.d", "usr/local/lib/sysctl.d", "usr/lib/sysctl.d"]
    seen = {}
    for d in dirs:
        for p in sorted(t):
            if p.startswith(d + "/") and p.endswith(".conf") and "/" not in p[len(d) + 1:]:
                seen.setdefault(p[len(d) + 1:], p)
    val = {}
    for name in sorted(seen):
        for line in t[seen[name]].splitlines():
            line = line.strip()
            if not line or line[0] in "#;" or "=" not in line: continue
            k, v = line.split("=", 1)
            k = k.strip().lstrip("-").replace("/", ".")
            val[k] = v.strip()
    return val


def modprobe_install(t, mod):
    dirs = ["etc/modprobe.d", "run/modprobe.d", "usr/local/lib/modprobe.d", "usr/lib/modprobe.d", "lib/modprobe.d"]
    seen = {}
    for d in dirs:
        for p in sorted(t):
            n = p[len(d) + 1:]
            if p.startswith(d + "/") and n.endswith(".conf") and "/" not in n and not n.startswith("."):
                seen.setdefault(n, p)
    for name in sorted(seen):
        for line in t[seen[name]].splitlines():
            w = line.split()
            if len(w) >= 3 and w[0] == "install" and w[1].replace("-", "_") == mod.replace("-", "_"):
                return " ".join(w[2:])
    return None


MODPROBE_BASE = {
    "etc/modprobe.d/firewalld-sysctls.conf": "install nf_conntrack /usr/sbin/modprobe --ignore-install nf_conntrack $CMDLINE_OPTS && /usr/sbin/sysctl --quiet --pattern 'net[.]netfilter[.]nf_conntrack.*' --system\n",
    "etc/modprobe.d/lockd.conf": "# Set the NFS lock manager grace period. n is measured in seconds.\n#options lockd nlm_grace_period=90\n",
    "usr/lib/modprobe.d/dist-blacklist.conf": "#\n# Listing a module here prevents modprobe from loading it via modalias (only\n# from hotplug, not modprobe using the module name).\n#\n\n# watchdog drivers\nblacklist i8xx_tco\n\n# framebuffer drivers\nblacklist aty128fb\nblacklist atyfb\nblacklist radeonfb\n",
    "usr/lib/modprobe.d/usb-storage-quirks.conf": "# vendor quirk table for USB mass storage enclosures\noptions usb-storage quirks=0x174c:0x55aa:u\n",
}


SYSTEM_AUTH = """# Generated by authselect on Thu Oct  8 09:14:22 2026
# Do not modify this file manually, use authselect instead. Any user changes will be overwritten.
# You can stop authselect from managing your configuration by calling 'authselect opt-out'.
# See authselect(8) for more details.

auth        required                                     pam_env.so
auth        required                                     pam_faillock.so preauth silent
auth        sufficient                                   pam_unix.so {{if not "without-nullok":nullok}}
auth        [default=die]                                pam_faillock.so authfail
auth        required                                     pam_deny.so

account     required                                     pam_faillock.so
account     required                                     pam_unix.so

password    requisite                                    pam_pwquality.so {pwq}
password    sufficient                                   pam_unix.so sha512 shadow use_authtok
password    required                                     pam_deny.so

session     optional                                     pam_keyinit.so revoke
session     required                                     pam_limits.so
-session    optional                                     pam_systemd.so
session     [success=1 default=ignore]                   pam_succeed_if.so service in crond quiet use_uid
session     required                                     pam_unix.so
""".replace('{{if not "without-nullok":nullok}}', "nullok")




# r01 ASLR ---------------------------------------------------------------------------------------------------


def sysbase():
    return {"etc/sysctl.conf": SYSCTL_CONF, "etc/sysctl.d/99-sysctl.conf": SYSCTL_CONF,
            "usr/lib/sysctl.d/50-default.conf": SYSTEMD_50, "usr/lib/sysctl.d/50-pid-max.conf": SYSTEMD_50_PID,
            "usr/lib/sysctl.d/10-default-yama-scope.conf":
                "# When yama is enabled in the kernel it might be used to filter any user\n"
                "# space access which requires PTRACE_MODE_ATTACH like ptrace attach, access\n"
                "# to /proc/PID/{mem,personality,stack,syscall}, and the syscalls\n"
                "# process_vm_readv and process_vm_writev which are used for interprocess\n"
                "# services, communication and introspection (like synchronisation, signaling,\n"
                "# debugging, tracing and profiling) of processes.\n#\n"
                "# Usage of ptrace attach is restricted by normal user permissions. Normal\n"
                "# unprivileged processes cannot interact through ptrace with processes\n"
                "# that they cannot send signals to or processes that are running set-uid or\n# set-gid.\n"
                "kernel.yama.ptrace_scope = 0\n"}



SSHD_MAIN = """#	$OpenBSD: sshd_config,v 1.104 2021/07/02 05:11:21 dtucker Exp $

# This is the sshd server system-wide configuration file.  See
# sshd_config(5) for more information.

# The strategy used for options in the default sshd_config shipped with
# OpenSSH is to specify options with their default value where
# possible, but leave them commented.  Uncommented options override the
# default value.

# To modify the system-wide sshd configuration, create a  *.conf  file under
#  /etc/ssh/sshd_config.d/  which will be automatically included below
Include /etc/ssh/sshd_config.d/*.conf

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
PermitRootLogin no
#StrictModes yes
{auth}#MaxSessions 10

#PubkeyAuthentication yes
AuthorizedKeysFile	.ssh/authorized_keys

#AllowAgentForwarding yes
#AllowTcpForwarding yes
#GatewayPorts no
{x11}#X11DisplayOffset 10
#X11UseLocalhost yes
#PermitTTY yes
#PrintMotd yes

# override default of no subsystems
Subsystem	sftp	/usr/libexec/openssh/sftp-server

# Example of overriding settings on a per-user basis
#Match User anoncvs
#	X11Forwarding no
#	AllowTcpForwarding no
#	PermitTTY no
#	ForceCommand cvs server
"""
REDHAT_50 = """# This system is following system-wide crypto policy. The changes to
# crypto properties (Ciphers, MACs, ...) will not have any effect in
# this or following included files. To override some configuration option,
# write it before this block or in the include file with lower number.
Include /etc/crypto-policies/back-ends/opensshserver.config

SyslogFacility AUTHPRIV

ChallengeResponseAuthentication no

GSSAPIAuthentication yes
GSSAPICleanupCredentials no

UsePAM yes

X11Forwarding yes

# It is recommended to use pam_motd in /etc/pam.d/sshd instead of PrintMotd,
# as it is more configurable and versatile than the built-in version.
PrintMotd no
"""


def sshd_effective(t):
    import fnmatch
    val = {}

    def read(path, depth=0):
        for line in t.get(path, "").splitlines():
            w = line.strip().split(None, 1)
            if not w or w[0].startswith("#"): continue
            k = w[0].lower()
            if k == "match": return False
            if k == "include":
                for pat in w[1].split():
                    pat = pat.lstrip("/")
                    for p in sorted(x for x in t if fnmatch.fnmatch(x, pat)):
                        if read(p, depth + 1) is False: return False
                continue
            val.setdefault(k, w[1].strip() if len(w) > 1 else "")
        return True
    read("etc/ssh/sshd_config")
    return val




# ================================================================== Kubernetes (ciso-set7)
def job(namespace, name, spec, deadline=None, backoff="unset", pod_deadline=None, cron=False, concurrency=None,
        suspend=None, starting=None):
    ps = dict(spec, restartPolicy="Never")
    if pod_deadline is not None: ps["activeDeadlineSeconds"] = pod_deadline
    js = {}
    if backoff != "unset": js["backoffLimit"] = backoff
    if deadline is not None: js["activeDeadlineSeconds"] = deadline
    js["template"] = {"metadata": {"labels": {"app.kubernetes.io/name": name}}, "spec": ps}
    if not cron:
        return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta(name, namespace), "spec": js}
    cs = {"schedule": "17 3 * * *"}
    if concurrency: cs["concurrencyPolicy"] = concurrency
    if suspend is not None: cs["suspend"] = suspend
    if starting is not None: cs["startingDeadlineSeconds"] = starting
    cs["jobTemplate"] = {"spec": js}
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta(name, namespace), "spec": cs}


def jspec(o):
    if o["kind"] == "Job": return o["spec"]
    if o["kind"] == "CronJob": return o["spec"]["jobTemplate"]["spec"]
    return None


def one(name, path=None, **kw):
    return podspec([ctr(name, tagged(path or f"apps/{name}", "2.4"))], **kw)



# ================================================================== Kubernetes (ciso-set8)
PROD = {"env": "production", "pod-security.kubernetes.io/enforce": "restricted"}


def tmpl(o):
    """the pod template metadata of a workload (or the Pod's metadata)"""
    if o["kind"] == "Pod": return o["metadata"]
    if o["kind"] == "CronJob": return o["spec"]["jobTemplate"]["spec"]["template"]["metadata"]
    return o["spec"]["template"]["metadata"]


def label_all(objs, extra):
    for o in objs:
        if pspec(o)[0] is not None:
            tmpl(o).setdefault("labels", {}).update(extra)
    return objs

ZONE = "topology.kubernetes.io/zone"


# ================================================================== ciso-set9 (blind-ciso9): own helpers
HOST = "kubernetes.io/hostname"


def selects(sel, labels):
    """a LabelSelector (matchLabels + matchExpressions In/NotIn/Exists/DoesNotExist) against labels"""
    for k, v in (sel.get("matchLabels") or {}).items():
        if labels.get(k) != v: return False
    for e in sel.get("matchExpressions") or []:
        k, op, vals = e["key"], e["operator"], e.get("values") or []
        if op == "In" and labels.get(k) not in vals: return False
        if op == "NotIn" and labels.get(k) in vals: return False
        if op == "Exists" and k not in labels: return False
        if op == "DoesNotExist" and k in labels: return False
    return True


def qbytes(q):
    SUF = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
    q = str(q)
    for s in sorted(SUF, key=len, reverse=True):
        if q.endswith(s): return float(q[:-len(s)]) * SUF[s]
    return float(q)


def reps(o):
    return o["spec"].get("replicas", 1)


# k01 hard anti-affinity for replicated workloads -------------------------------------------------------------
@scenario
def anti_affinity():
    def aff(name, hard=True, key=HOST, sel=None):
        term = {"labelSelector": sel or {"matchLabels": {"app.kubernetes.io/name": name}}, "topologyKey": key}
        if hard: return {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}
        return {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 100, "podAffinityTerm": term}]}}

    def w(kind, n, name, r, a):
        o = wl(kind, n, name, one(name, affinity=a) if a else one(name))
        if r is None: o["spec"].pop("replicas", None)
        else: o["spec"]["replicas"] = r
        return o

    def objs(bad):
        return [ns("shop"), ns("data"), ns("api"),
                w("Deployment", "shop", "web", 3, aff("web", hard=not bad)),
                w("StatefulSet", "data", "redis", 3, aff("redis", key=ZONE if bad else HOST)),
                w("Deployment", "api", "gateway", 4, aff("gateway", sel={"matchLabels": {"app.kubernetes.io/name": "gateway-v1" if bad else "gateway"}})),
                # near misses: 2 replicas; replicas unset (1); DaemonSet; matchExpressions In selector
                w("Deployment", "shop", "admin", 2, None),
                w("Deployment", "api", "docs", None, None),
                wl("DaemonSet", "data", "node-agent", one("node-agent")),
                w("StatefulSet", "data", "zk", 5, aff("zk", sel={"matchExpressions": [{"key": "app.kubernetes.io/name", "operator": "In", "values": ["zk", "zookeeper"]}]})),
                # other control (zone spread absent in production) not judged
                ]

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] not in ("Deployment", "StatefulSet") or reps(o) < 3: continue
            sp, pm = pspec(o)
            terms = ((sp.get("affinity") or {}).get("podAntiAffinity") or {}).get("requiredDuringSchedulingIgnoredDuringExecution") or []
            if not any(t.get("topologyKey") == HOST and selects(t.get("labelSelector") or {}, pm.get("labels", {})) for t in terms):
                out.add(rid(o))
        return out
    PRED["set9-replicas-on-separate-nodes"] = bad
    return S("set9-replicas-on-separate-nodes", None, "effect",
             "A workload that runs three or more copies must survive the loss of any single machine with at most one copy "
             "lost: the scheduler must be forbidden (not merely discouraged) from placing two pods of the same Deployment or "
             "StatefulSet on the same node, and the rule must actually match that workload's own pods. Spreading across "
             "zones instead of nodes does not achieve this. A workload whose replica count is not written runs one copy; "
             "workloads with one or two copies, and per-node agents (DaemonSets), are out of scope.",
             objs(True), objs(False), ["Deployment/shop/web", "StatefulSet/data/redis", "Deployment/api/gateway"],
             "replicas >= 3 needs a required podAntiAffinity term on kubernetes.io/hostname whose labelSelector matches the "
             "pod template labels. Violating: a preferred (soft) term only; a required term on the zone key; a required "
             "hostname term whose selector names gateway-v1 (pods are gateway). Near misses (both): replicas 2 and unset "
             "without affinity, a DaemonSet, a matchExpressions In selector covering zk.",
             "replicas >= 3 without a required hostname anti-affinity term selecting its own pods")


# k02 rolling update keeps capacity ----------------------------------------------------------------------------
@scenario
def keep_capacity():
    def d(n, name, strategy, r=4):
        o = wl("Deployment", n, name, one(name))
        o["spec"]["replicas"] = r
        if strategy is not None: o["spec"]["strategy"] = strategy
        return o

    def objs(bad):
        good = {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}}
        s = [ns("web"), ns("payments"), ns("auth"),
             d("web", "shop", None if bad else good),
             d("payments", "api", {"type": "Recreate"} if bad else {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "0%", "maxSurge": "25%"}}),
             d("auth", "sso", {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 2}} if bad else {"rollingUpdate": {"maxSurge": 2, "maxUnavailable": 0}}),
             # near misses: StatefulSet / DaemonSet out of scope
             wl("StatefulSet", "payments", "ledger", one("ledger")),
             wl("DaemonSet", "web", "log-agent", one("log-agent"))]
        s[-1]["spec"]["updateStrategy"] = {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}}
        return s

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] != "Deployment": continue
            st = o["spec"].get("strategy") or {}
            if st.get("type", "RollingUpdate") != "RollingUpdate" or \
                    str((st.get("rollingUpdate") or {}).get("maxUnavailable", "25%")) not in ("0", "0%"):
                out.add(rid(o))
        return out
    PRED["set9-updates-keep-capacity"] = bad
    return S("set9-updates-keep-capacity", None, "effect",
             "Updating a Deployment to a new version must never take serving capacity below the desired number of pods: "
             "no old pod may be stopped before a replacement is ready to take its place (extra pods during the update are "
             "fine). Out of the box a Deployment update may stop up to a quarter of the pods at once, and the strategy that "
             "replaces all pods at once stops all of them. Only Deployments are in scope (StatefulSets and DaemonSets are "
             "not judged).", objs(True), objs(False), ["Deployment/web/shop", "Deployment/payments/api", "Deployment/auth/sso"],
             "Deployment strategy must be RollingUpdate (default) with maxUnavailable 0 or 0% (default 25%). Violating: "
             "no strategy (25%); Recreate; rollingUpdate with only maxSurge 2 (maxUnavailable defaults to 25% of 4 = 1). "
             "Compliant: maxUnavailable 0 / \"0%\" (type omitted = RollingUpdate); a DaemonSet with maxUnavailable 1 and "
             "a StatefulSet are out of scope.",
             "Deployment whose update may stop pods before replacements are ready (default 25%, Recreate)")


# k03 StatefulSet / DaemonSet OnDelete ---------------------------------------------------------------------------
@scenario
def no_ondelete():
    def w(kind, n, name, us=None, **spec):
        o = wl(kind, n, name, one(name))
        if us is not None: o["spec"]["updateStrategy"] = us
        o["spec"].update(spec)
        return o
    OD = {"type": "OnDelete"}

    def objs(bad):
        return [ns("data"), ns("logging"), ns("monitoring"), ns("kube-system", {}),
                w("StatefulSet", "data", "pg", OD if bad else None),
                w("DaemonSet", "logging", "fluentbit", OD if bad else {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}}),
                w("DaemonSet", "monitoring", "node-exporter", OD if bad else {"type": "RollingUpdate"}),
                # near misses: kube-system exempt; Parallel pod management; partitioned rolling update; Deployment Recreate
                w("DaemonSet", "kube-system", "kube-proxy", OD),
                w("StatefulSet", "data", "kafka", None, podManagementPolicy="Parallel"),
                w("StatefulSet", "monitoring", "prometheus", {"type": "RollingUpdate", "rollingUpdate": {"partition": 1}}),
                dict(wl("Deployment", "data", "pgadmin", one("pgadmin")), spec=dict(wl("Deployment", "data", "pgadmin", one("pgadmin"))["spec"], strategy={"type": "Recreate"}))]

    def bad(O):
        return {rid(o) for o in O if o["kind"] in ("StatefulSet", "DaemonSet") and o["metadata"]["namespace"] != "kube-system"
                and (o["spec"].get("updateStrategy") or {}).get("type", "RollingUpdate") != "RollingUpdate"}
    PRED["set9-automatic-rollouts"] = bad
    return S("set9-automatic-rollouts", None, "operator",
             "Ops rule for our clusters: StatefulSets and DaemonSets have to roll out template changes by themselves. Their "
             "update strategy must be the rolling one (that is what you get if you leave it unset); the manual strategy "
             "where new pods only appear after someone deletes the old ones is not allowed, because patched images then sit "
             "unapplied for weeks. A rolling update that holds back some ordinals (a partition) is fine, and parallel pod "
             "management is a different thing and fine. kube-system is managed by the platform vendor and exempt. "
             "Deployments are not part of this rule.", objs(True), objs(False),
             ["StatefulSet/data/pg", "DaemonSet/logging/fluentbit", "DaemonSet/monitoring/node-exporter"],
             "updateStrategy.type OnDelete on a StatefulSet/DaemonSet outside kube-system. Near misses (both): kube-proxy "
             "OnDelete in kube-system; podManagementPolicy Parallel; a partitioned RollingUpdate; a Deployment with Recreate.",
             "StatefulSet/DaemonSet with updateStrategy OnDelete outside kube-system")


# k04 CronJob history limits -------------------------------------------------------------------------------------
@scenario
def cron_history():
    def cj(n, name, succ=None, fail=None, suspend=None):
        o = job(n, name, one(name), cron=True, suspend=suspend)
        if succ is not None: o["spec"]["successfulJobsHistoryLimit"] = succ
        if fail is not None: o["spec"]["failedJobsHistoryLimit"] = fail
        return o

    def objs(bad):
        return [ns("ops"), ns("billing"), ns("ml"),
                cj("ops", "backup", 3, 0 if bad else 1),
                cj("billing", "settle", 10 if bad else 3),
                cj("ml", "retrain", fail=0 if bad else 2, suspend=True),
                # near misses: defaults; 0 successful kept; 5 failed kept; a Job (not a CronJob)
                cj("ops", "rotate"), cj("billing", "invoices", 0, 5),
                job("ml", "one-off", one("one-off"))]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "CronJob" and (o["spec"].get("successfulJobsHistoryLimit", 3) > 3
                                                                 or o["spec"].get("failedJobsHistoryLimit", 1) < 1)}
    PRED["set9-cron-history-kept"] = bad
    return S("set9-cron-history-kept", None, "auditor",
             "Audit finding template, scheduled jobs: every CronJob must keep at least one failed Job for investigation "
             "and must keep no more than three successful Jobs (to bound the objects left in the namespace). When a "
             "CronJob does not set these numbers Kubernetes keeps 3 successful and 1 failed Job, which passes. Suspended "
             "CronJobs are audited too. Plain Jobs are not in scope. List every CronJob that fails either part.",
             objs(True), objs(False), ["CronJob/ops/backup", "CronJob/billing/settle", "CronJob/ml/retrain"],
             "successfulJobsHistoryLimit <= 3 (default 3) and failedJobsHistoryLimit >= 1 (default 1). Violating: failed 0; "
             "successful 10; a suspended CronJob with failed 0. Near misses (both): defaults; successful 0 / failed 5; a Job.",
             "CronJob keeping no failed Job or more than 3 successful ones")


# k05 terminationMessagePolicy -------------------------------------------------------------------------------------
@scenario
def term_msg():
    FB = "FallbackToLogsOnError"

    def c(name, pol=FB, **kw):
        x = ctr(name, tagged(f"apps/{name}", "3.1"), **kw)
        if pol: x["terminationMessagePolicy"] = pol
        return x

    def objs(bad):
        pod = wl("Pod", "shop", "debug-1", podspec([c("app")]))
        pod["spec"]["ephemeralContainers"] = [eph("dbg", tagged("tools/busybox", "1.36"))]
        return [ns("shop"), ns("etl"), ns("reports"),
                wl("Deployment", "shop", "cart", podspec([c("cart"), c("envoy", None if bad else FB)])),
                wl("Job", "etl", "load", podspec([c("load")], init=[c("wait-db", "File" if bad else FB)])),
                job("reports", "daily", podspec([c("daily", "File" if bad else FB, terminationMessagePath="/tmp/msg")]), cron=True),
                # near misses: ephemeral container without the policy (exempt); a custom message path with fallback
                pod, wl("StatefulSet", "etl", "queue", podspec([c("queue", terminationMessagePath="/var/run/msg")]))]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O)
                if any(x.get("terminationMessagePolicy", "File") != FB for x in sp.get("containers", []) + sp.get("initContainers", []))}
    PRED["set9-failure-reason-visible"] = bad
    return S("set9-failure-reason-visible", None, "effect",
             "When a container fails, the reason must show up in the pod's status even if the application wrote nothing "
             "to its termination-message file: Kubernetes must be told to fall back to the last lines of the container's "
             "log in that case. By default it only reads the file. This applies to every regular and init container of "
             "every kind of workload (Pods, Deployments, StatefulSets, DaemonSets, Jobs, CronJobs); temporary debug "
             "containers added to a running pod are exempt. Where the message file is located does not matter.",
             objs(True), objs(False), ["Deployment/shop/cart", "Job/etl/load", "CronJob/reports/daily"],
             "terminationMessagePolicy must be FallbackToLogsOnError (default File) on containers and initContainers. "
             "Violating: the second (envoy) container has none; an init container with File; a CronJob container with "
             "File and a custom path. Near misses (both): an ephemeral container without it; a custom path with fallback.",
             "a regular or init container whose terminationMessagePolicy is not FallbackToLogsOnError")


# k06 memory limit <= 2x request --------------------------------------------------------------------------------
@scenario
def mem_ratio():
    def c(name, req, lim):
        r = {"requests": {"cpu": "100m"}, "limits": {"memory": lim}}
        if req: r["requests"]["memory"] = req
        return ctr(name, tagged(f"apps/{name}", "2.0"), resources=r)

    def objs(bad):
        return [ns("api"), ns("data"), ns("batch"),
                wl("Deployment", "api", "search", podspec([c("search", "256Mi", "1Gi" if bad else "512Mi")])),
                wl("StatefulSet", "data", "cache", podspec([c("cache", "1Gi", "3G" if bad else "2G")])),
                job("batch", "etl", podspec([c("etl", "1Gi", "2Gi")], init=[c("fetch", "256Mi", "600Mi" if bad else "0.5Gi")]), cron=True),
                # near misses: a limit without a request (request defaults to the limit); exactly 2x in bytes
                wl("Deployment", "api", "auth", podspec([c("auth", None, "4Gi")])),
                wl("DaemonSet", "data", "agent", podspec([c("agent", "100Mi", "209715200")]))]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            for x in sp.get("containers", []) + sp.get("initContainers", []):
                r = x.get("resources") or {}
                lim = (r.get("limits") or {}).get("memory")
                req = (r.get("requests") or {}).get("memory", lim)
                if lim is None or qbytes(lim) > 2 * qbytes(req): out.add(rid(o))
        return out
    PRED["set9-memory-limit-ratio"] = bad
    return S("set9-memory-limit-ratio", None, "operator",
             "Capacity team rule: to keep node overcommit predictable, every regular and init container must have a memory "
             "limit, and that limit may be at most twice the container's memory request (exactly twice is fine). Compare "
             "the quantities in bytes (binary Ki/Mi/Gi and decimal k/M/G units both occur). A container that sets a limit "
             "but no request gets a request equal to its limit, which passes. CPU is not part of this rule. Report each "
             "workload with at least one offending container.", objs(True), objs(False),
             ["Deployment/api/search", "StatefulSet/data/cache", "CronJob/batch/etl"],
             "limits.memory <= 2 x requests.memory (request defaults to limit). Violating: 1Gi vs 256Mi (4x); 3G = 3e9 vs "
             "1Gi = 1.07e9 (2.79x); an init container 600Mi vs 256Mi (2.34x). Compliant: 512Mi/256Mi; 2G vs 1Gi (1.86x); "
             "0.5Gi vs 256Mi (2x). Near misses (both): a limit without request; 209715200 bytes vs 100Mi (exactly 2x).",
             "a container whose memory limit exceeds twice its request (units converted)")


# k07 emptyDir caps ----------------------------------------------------------------------------------------------
@scenario
def emptydir_cap():
    def p(name, vols):
        x = ctr(name, tagged(f"apps/{name}", "1.2"))
        x["volumeMounts"] = [{"name": v["name"], "mountPath": "/v/" + v["name"]} for v in vols]
        return podspec([x], volumes=vols)

    def ed(name, **kw): return {"name": name, "emptyDir": kw}

    def objs(bad):
        eph_vol = {"name": "work", "ephemeral": {"volumeClaimTemplate": {"spec": {
            "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "50Gi"}}}}}}
        return [ns("web"), ns("data"), ns("ops"),
                wl("Deployment", "web", "render", p("render", [{"name": "conf", "configMap": {"name": "render"}},
                                                               ed("tmp") if bad else ed("tmp", sizeLimit="2Gi")])),
                wl("StatefulSet", "data", "kafka", p("kafka", [ed("shm", medium="Memory", sizeLimit="4Gi" if bad else "1Gi")])),
                job("ops", "scan", p("scan", [ed("cache", sizeLimit="10Gi"), ed("ram", medium="Memory")
                                              if bad else ed("ram", medium="Memory", sizeLimit="1024Mi")]), cron=True),
                # near misses: a generic ephemeral volume (claim) is not judged; a 20Gi disk-backed cap is fine
                wl("Deployment", "data", "builder", p("builder", [eph_vol, ed("scratch", sizeLimit="20Gi")]))]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            for v in sp.get("volumes", []):
                if "emptyDir" not in v: continue
                e = v["emptyDir"] or {}
                if "sizeLimit" not in e or (e.get("medium") == "Memory" and qbytes(e["sizeLimit"]) > 2**30):
                    out.add(rid(o))
        return out
    PRED["set9-scratch-space-capped"] = bad
    return S("set9-scratch-space-capped", None, "effect",
             "Scratch directories that a pod keeps on its node for the pod's lifetime must not be able to fill the node: "
             "every such directory must declare a size cap, and one that lives in the node's memory (RAM-backed) must be "
             "capped at 1 GiB or less. Scratch space provided through a per-pod volume claim, and every other kind of "
             "volume, are not judged. Applies to all workload kinds.", objs(True), objs(False),
             ["Deployment/web/render", "StatefulSet/data/kafka", "CronJob/ops/scan"],
             "emptyDir needs sizeLimit; medium Memory needs sizeLimit <= 1Gi. Violating: emptyDir {} as the second volume; "
             "a Memory emptyDir capped at 4Gi; a second Memory emptyDir with no cap next to a capped one. Compliant: 2Gi, "
             "1Gi, 1024Mi (= 1Gi). Near misses (both): an ephemeral volumeClaimTemplate; a 20Gi disk-backed cap.",
             "an emptyDir without sizeLimit, or RAM-backed above 1Gi")


# k08 user namespaces for tenant namespaces ---------------------------------------------------------------------
@scenario
def user_ns():
    def w(kind, n, name, hu):
        sp = one(name)
        if hu is not None: sp["hostUsers"] = hu
        return wl(kind, n, name, sp) if kind != "CronJob" else job(n, name, sp, cron=True)

    def objs(bad):
        return [ns("tenant-a", {"isolation": "userns"}), ns("tenant-b", {"isolation": "userns"}),
                ns("shared", {"isolation": "none"}), ns("web"),
                w("Deployment", "tenant-a", "web", None if bad else False),
                w("CronJob", "tenant-b", "report", True if bad else False),
                w("Pod", "tenant-a", "shell", None if bad else False),
                # near misses: namespaces not labelled userns
                w("Deployment", "shared", "api", None), w("Deployment", "web", "frontend", True)]

    def bad(O):
        tenant = {o["metadata"]["name"] for o in O if o["kind"] == "Namespace"
                  and o["metadata"]["labels"].get("isolation") == "userns"}
        return {rid(o) for o, sp, pm in workloads(O) if o["metadata"]["namespace"] in tenant and sp.get("hostUsers", True) is not False}
    PRED["set9-tenant-user-namespaces"] = bad
    return S("set9-tenant-user-namespaces", None, "operator",
             "Platform rule for tenant namespaces (namespaces carrying the label isolation=userns): every pod there must "
             "run in its own Linux user namespace, so that root inside the container maps to an unprivileged user on the "
             "node. Pods share the node's user namespace unless their spec explicitly opts out of it, so leaving the "
             "setting out does not pass. This covers bare Pods and pod templates of every controller. Namespaces without "
             "that label (including isolation=none) are not covered.", objs(True), objs(False),
             ["Deployment/tenant-a/web", "CronJob/tenant-b/report", "Pod/tenant-a/shell"],
             "hostUsers must be false (default true) in namespaces labelled isolation=userns. Violating: unset; true in a "
             "CronJob template; unset on a bare Pod. Near misses (both): isolation=none and an unlabelled namespace with "
             "hostUsers unset / true.", "a pod in an isolation=userns namespace without hostUsers: false")


# k09 PriorityClass preemption ----------------------------------------------------------------------------------
@scenario
def no_preempt():
    def pc(name, value, pol=None, gd=None):
        o = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name}, "value": value,
             "description": name}
        if pol: o["preemptionPolicy"] = pol
        if gd is not None: o["globalDefault"] = gd
        return o

    def objs(bad):
        nv = "Never"
        p = wl("Pod", "batch", "runner", one("runner", priorityClassName="batch-high"))
        return [ns("batch"), pc("batch-high", 100000, None if bad else nv),
                pc("critical-api", 900000, "PreemptLowerPriority" if bad else nv),
                pc("default-tier", 1000, None if bad else nv, gd=True),
                # near misses: system classes exempt; a pod using a class is not judged
                pc("system-cluster-critical", 2000000000), pc("system-node-critical", 2000001000, "PreemptLowerPriority"),
                pc("low", 10, nv), p]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "PriorityClass" and not o["metadata"]["name"].startswith("system-")
                and o.get("preemptionPolicy", "PreemptLowerPriority") != "Never"}
    PRED["set9-no-preempting-priorities"] = bad
    return S("set9-no-preempting-priorities", None, "effect",
             "No priority level defined on the cluster may let its pods evict running lower-priority pods to make room "
             "for themselves; high priority may only move them ahead in the scheduling queue. A priority level evicts "
             "others unless it explicitly says it never does. The two built-in levels whose names start with system- "
             "are exempt. Whether a level is the cluster default, and which pods use it, are not judged.",
             objs(True), objs(False), ["PriorityClass//batch-high", "PriorityClass//critical-api", "PriorityClass//default-tier"],
             "PriorityClass preemptionPolicy must be Never (default PreemptLowerPriority); system-* exempt. Violating: "
             "unset; explicit PreemptLowerPriority; a globalDefault class unset. Near misses (both): system-cluster-critical "
             "and system-node-critical; a Pod naming a class.",
             "a non-system PriorityClass whose preemptionPolicy is not Never (default preempts)")


# k10 IngressClass default ----------------------------------------------------------------------------------------
@scenario
def no_default_ic():
    A = "ingressclass.kubernetes.io/is-default-class"

    def ic(name, ctrl, ann=None, labels=None):
        return {"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass",
                "metadata": meta(name, labels=labels, annotations=ann), "spec": {"controller": ctrl}}

    def objs(bad):
        return [ic("nginx-public", "k8s.io/ingress-nginx", {A: "true" if bad else "false"}),
                ic("internal-nginx", "k8s.io/ingress-nginx", {A: "true", "meta.helm.sh/release-name": "ingress"} if bad
                   else {"meta.helm.sh/release-name": "ingress"}),
                # near misses: the marker as a label, not an annotation; an Ingress with the legacy class annotation
                ic("traefik", "traefik.io/ingress-controller", labels={A: "true"}),
                ns("shop"), ing("shop", "store", "store.acme.example", annotations={"kubernetes.io/ingress.class": "nginx-public"})]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "IngressClass" and (o["metadata"].get("annotations") or {}).get(A) == "true"}
    PRED["set9-no-default-ingress-class"] = bad
    return S("set9-no-default-ingress-class", None, "auditor",
             "Audit item NET-14: no IngressClass may be marked as the cluster's default class (the is-default-class "
             "annotation set to true), so that an Ingress that names no class is never picked up by an internet-facing "
             "controller by accident. A class annotated false, a label of the same name (labels do not make a default), "
             "and the Ingress objects themselves are not findings. List each IngressClass marked as default.",
             objs(True), objs(False), ["IngressClass//nginx-public", "IngressClass//internal-nginx"],
             "metadata.annotations[ingressclass.kubernetes.io/is-default-class] == \"true\". Violating: nginx-public; "
             "internal-nginx (two defaults, the annotation beside a helm one). Near misses (both): traefik carries it as a "
             "label; an Ingress with the legacy kubernetes.io/ingress.class annotation.",
             "an IngressClass annotated as the default class")


# k11 LimitRange maximum per namespace -----------------------------------------------------------------------------
@scenario
def limitrange_max():
    def lr(n, name, limits):
        return {"apiVersion": "v1", "kind": "LimitRange", "metadata": meta(name, n), "spec": {"limits": limits}}

    def objs(bad):
        return [ns("search"), ns("ml"), ns("sandbox"), ns("default", {}), ns("kube-system", {}),
                lr("search", "limits", [{"type": "Pod", "max": {"memory": "8Gi"}}] if bad else
                   [{"type": "Pod", "max": {"memory": "8Gi"}}, {"type": "Container", "max": {"memory": "4Gi"}}]),
                lr("ml", "limits", [{"type": "Container", "max": {"memory": "16Gi", "cpu": "8"}}] if bad else
                   [{"type": "Container", "max": {"memory": "4096Mi", "cpu": "8"}}]),
                lr("sandbox", "limits", [{"type": "Container", "default": {"memory": "512Mi"}, "defaultRequest": {"memory": "256Mi"}}] if bad
                   else [{"type": "Container", "default": {"memory": "512Mi"}, "max": {"memory": "1Gi"}}]),
                # near misses: exempt namespaces have none; a ResourceQuota does not count (other control)
                {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": meta("quota", "search"),
                 "spec": {"hard": {"limits.memory": "64Gi"}}}]

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] != "Namespace" or o["metadata"]["name"] in ("default", "kube-system", "kube-public", "kube-node-lease"): continue
            n = o["metadata"]["name"]
            ok = any(l.get("type") == "Container" and "memory" in (l.get("max") or {}) and qbytes(l["max"]["memory"]) <= 4 * 2**30
                     for x in O if x["kind"] == "LimitRange" and x["metadata"]["namespace"] == n for l in x["spec"]["limits"])
            if not ok: out.add(rid(o))
        return out
    PRED["set9-namespace-container-memory-max"] = bad
    return S("set9-namespace-container-memory-max", None, "CIS",
             "Ensure that every application namespace bounds the memory of a single container (Manual). Rationale: "
             "without a per-container maximum enforced at admission, one container can claim the memory of a whole node. "
             "Audit: for each namespace other than default, kube-system, kube-public and kube-node-lease, verify that a "
             "LimitRange in that namespace sets a maximum memory for the Container type of at most 4Gi. Defaults and "
             "default requests are not maxima; a maximum for the Pod type, and namespace-wide quotas, do not satisfy this "
             "recommendation. Report the Namespace.", objs(True), objs(False),
             ["Namespace//search", "Namespace//ml", "Namespace//sandbox"],
             "a LimitRange limit of type Container with max.memory <= 4Gi in the namespace. Violating: only a Pod-type max; "
             "a Container max of 16Gi; only default/defaultRequest. Compliant: 4Gi, 4096Mi (= 4Gi), 1Gi. Near misses: "
             "exempt namespaces without a LimitRange; a ResourceQuota.",
             "an application namespace without a Container-type LimitRange max.memory <= 4Gi")


# k12 postStart hooks forbidden -----------------------------------------------------------------------------------
@scenario
def no_poststart():
    def c(name, hook=None):
        x = ctr(name, tagged(f"apps/{name}", "5.0"))
        if hook is not None: x["lifecycle"] = hook
        return x
    PRE = {"preStop": {"exec": {"command": ["/bin/sh", "-c", "sleep 5"]}}}

    def objs(bad):
        return [ns("web"), ns("db"), ns("batch"),
                wl("Deployment", "web", "app", podspec([c("app", PRE), c("sidecar", {"postStart": {"exec": {"command": ["/bin/register"]}}, **PRE} if bad else PRE)])),
                wl("StatefulSet", "db", "pg", podspec([c("pg", {"postStart": {"httpGet": {"path": "/warm", "port": 8080}}} if bad else {})])),
                job("batch", "sync", podspec([c("sync", {"postStart": {"sleep": {"seconds": 3}}} if bad else None)]), cron=True),
                # near misses: shutdown hooks only; an empty lifecycle
                wl("DaemonSet", "web", "agent", podspec([c("agent", PRE)])), wl("Pod", "db", "tool", podspec([c("tool", {})]))]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if any((x.get("lifecycle") or {}).get("postStart") for x in all_ctrs(sp))}
    PRED["set9-no-start-hooks"] = bad
    return S("set9-no-start-hooks", None, "effect",
             "Nothing may run inside a container at start-up except its own entry point: a container must not declare a "
             "hook that Kubernetes runs right after the container starts, whatever the hook does (a command, an HTTP call "
             "or a pause). Hooks that run when a container is being stopped are allowed. Applies to every container of "
             "every workload kind.", objs(True), objs(False), ["Deployment/web/app", "StatefulSet/db/pg", "CronJob/batch/sync"],
             "no lifecycle.postStart on any container. Violating: the second (sidecar) container's exec postStart next to "
             "a preStop; an httpGet postStart; a sleep postStart in a CronJob. Near misses (both): preStop only; an empty "
             "lifecycle.", "a container with a postStart hook (any handler)")


# k13 rollout progress deadline -----------------------------------------------------------------------------------
@scenario
def progress_deadline():
    def d(n, name, pds=None, mrs=None):
        o = wl("Deployment", n, name, one(name))
        if pds is not None: o["spec"]["progressDeadlineSeconds"] = pds
        if mrs is not None: o["spec"]["minReadySeconds"] = mrs
        return o

    def objs(bad):
        return [ns("web"), ns("api"), ns("payments"),
                d("web", "shop", 900 if bad else 600),
                d("api", "gateway", 3600 if bad else 300, mrs=30),
                d("payments", "ledger", 2147483647 if bad else None),
                # near misses: default (600); a long minReadySeconds is a different field; a StatefulSet
                d("api", "docs", None, mrs=900), wl("StatefulSet", "payments", "db", one("db"))]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "Deployment" and o["spec"].get("progressDeadlineSeconds", 600) > 600}
    PRED["set9-stalled-rollouts-fail-fast"] = bad
    return S("set9-stalled-rollouts-fail-fast", None, "effect",
             "A Deployment rollout that stops making progress must be reported as failed within 10 minutes, so that the "
             "pipeline rolls back instead of waiting. Kubernetes reports a stall after 10 minutes when nothing else is "
             "configured, which passes. How long a new pod must stay ready before it counts as available is a different "
             "setting and not judged. Only Deployments are in scope.", objs(True), objs(False),
             ["Deployment/web/shop", "Deployment/api/gateway", "Deployment/payments/ledger"],
             "progressDeadlineSeconds <= 600 (default 600). Violating: 900; 3600; 2147483647 (the 'never' value). "
             "Compliant: 600, 300, unset. Near misses (both): minReadySeconds 900 with the default deadline; a StatefulSet.",
             "a Deployment whose progress deadline is above 600 s")


# k14 default-deny egress per namespace -----------------------------------------------------------------------------
@scenario
def deny_egress():
    DNS = [{"to": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}}}],
            "ports": [{"protocol": "UDP", "port": 53}]}]

    def objs(bad):
        return [ns("shop"), ns("etl"), ns("ml"), ns("kube-system", {}), ns("ops"),
                netpol("shop", "default-deny", ingress=[]) if bad else netpol("shop", "default-deny", ingress=[], types=["Ingress", "Egress"]),
                netpol("etl", "deny-egress", selector={"matchLabels": {"app.kubernetes.io/name": "loader"}}, types=["Egress"]) if bad
                else netpol("etl", "deny-egress", types=["Egress"]),
                netpol("ops", "ml-deny-egress", types=["Egress"]) if bad else netpol("ml", "allow-dns-only", egress=DNS),
                # near misses: ops has a deny-all-egress policy with DNS allowed; kube-system exempt
                netpol("ops", "egress-dns", egress=DNS, types=["Egress"])]

    def bad(O):
        out = set()
        for o in O:
            n = o["metadata"]["name"]
            if o["kind"] != "Namespace" or n.startswith("kube-"): continue
            ok = False
            for p in O:
                if p["kind"] != "NetworkPolicy" or p["metadata"]["namespace"] != n: continue
                s = p["spec"]
                types = s.get("policyTypes") or (["Ingress"] + (["Egress"] if "egress" in s else []))
                if s.get("podSelector") == {} and "Egress" in types: ok = True
            if not ok: out.add(rid(o))
        return out
    PRED["set9-namespace-egress-default-deny"] = bad
    return S("set9-namespace-egress-default-deny", None, "auditor",
             "Auditor's check, outbound traffic: every namespace except those whose names start with kube- must contain "
             "a NetworkPolicy that selects every pod of the namespace (an empty pod selector) and isolates them for "
             "egress, so outbound connections are denied unless another rule allows them. Such a policy may itself allow "
             "some destinations (DNS, for example) and still counts. Note how Kubernetes decides the policy types when a "
             "policy does not list them: ingress always, egress only if the policy has an egress section. A policy that "
             "selects only some pods, or that sits in another namespace, does not count. Report the Namespace.",
             objs(True), objs(False), ["Namespace//shop", "Namespace//etl", "Namespace//ml"],
             "a NetworkPolicy in the namespace with podSelector {} and Egress in its effective policyTypes. Violating: "
             "shop's policy has no policyTypes and no egress section (ingress only); etl's selects only the loader pods; "
             "ml has none (a policy for it sits in ops). Compliant: types [Ingress, Egress]; podSelector {} Egress; ml's "
             "policy has an egress section and no policyTypes (= Ingress+Egress). Near misses: ops allows DNS egress only; "
             "kube-system exempt.", "a namespace without an all-pods egress-isolating NetworkPolicy")


# k15 quota / limit range writers ---------------------------------------------------------------------------------
@scenario
def quota_writers():
    def objs(bad):
        return [role("namespace-admin-lite", [rule([""], ["configmaps", "services"], ["*"]),
                                              rule([""], ["resourcequotas"], ["get", "list", "patch"] if bad else ["get", "list"])]),
                role("team-lead", [rule(["apps"], ["deployments"], ["*"]),
                                   rule([""], ["limitranges", "pods"], ["*"] if bad else ["get", "list", "watch"])], namespace="team-a"),
                role("ops-all", [rule(["*"] if bad else ["apps"], ["*"], ["delete", "get"])]),
                # near misses: platform-* and system:* exempt; another group's quota kind; read-only wildcards
                role("platform-quota-manager", [rule([""], ["resourcequotas", "limitranges"], ["*"])]),
                role("system:controller:resourcequota-controller", [rule([""], ["resourcequotas/status"], ["update"])]),
                role("openshift-quota", [rule(["quota.openshift.io"], ["clusterresourcequotas"], ["create", "update"])]),
                role("viewer", [rule(["*"], ["*"], ["get", "list", "watch"])])]
    W = ["create", "update", "patch", "delete", "deletecollection"]

    def bad(O):
        return {rid(o) for o, rules in rules_of(O, exempt=lambda o: o["metadata"]["name"].startswith(("system:", "platform-")))
                if any(grants(r, [""], ["resourcequotas", "limitranges"], W) for r in rules)}
    PRED["set9-quota-writers"] = bad
    return S("set9-quota-writers", None, "operator",
             "Only the platform team may change the per-namespace resource quotas and limit ranges. Find every Role or "
             "ClusterRole that lets its holder create, update, patch, delete or delete-collection resource quotas or limit "
             "ranges of the core API group, whether named directly or reached through a wildcard (for groups, resources or "
             "verbs). Roles whose names start with platform- (ours) or system: (built in) are exempt, read-only access is "
             "fine, and quota kinds of other API groups are not covered.", objs(True), objs(False),
             ["ClusterRole//namespace-admin-lite", "Role/team-a/team-lead", "ClusterRole//ops-all"],
             "a write verb (or *) on resourcequotas/limitranges (or *) in the core group (or *) in a role not named "
             "platform-* / system:*. Violating: patch in a second rule; * verbs on limitranges next to pods; delete on * "
             "resources in * groups. Near misses (both): platform-quota-manager, the system quota controller, "
             "clusterresourcequotas of quota.openshift.io, a read-only wildcard viewer.",
             "a write verb on resourcequotas/limitranges (directly or via *) in a non-exempt role")


# ================================================================== RHEL 9 (ciso-set9)
def sys_keys(t):
    return {k: v for k, v in sysctl_effective(t).items() if "*" not in k}


def with_conf(t, extra):
    t["etc/sysctl.conf"] = SYSCTL_CONF + extra
    t["etc/sysctl.d/99-sysctl.conf"] = t["etc/sysctl.conf"]
    return t


# r01 protected symlinks / fifos -------------------------------------------------------------------------------
@scenario
def r_protected_links():
    v = sysbase()
    v["etc/sysctl.d/60-cis-fs.conf"] = "# CIS 1.5 (CHG-9101)\nfs.suid_dumpable = 0\nfs.protected_symlinks = 1\n"
    v["usr/lib/sysctl.d/70-legacy-spool.conf"] = ("# shipped by legacy-spool-2.4 (old mail spool uses /tmp symlinks)\n"
                                                  "fs/protected_symlinks = 0\n")
    v["etc/sysctl.d/99-zz-app.conf"] = "# named pipes in sticky /srv/drop shared with the scanner (TKT-9102)\nfs.protected_fifos=0\n"
    v = with_conf(v, "")
    c = sysbase()
    c["etc/sysctl.d/60-cis-fs.conf"] = v["etc/sysctl.d/60-cis-fs.conf"]
    c["usr/lib/sysctl.d/70-legacy-spool.conf"] = v["usr/lib/sysctl.d/70-legacy-spool.conf"]
    c["etc/sysctl.d/70-legacy-spool.conf"] = "# masks the vendor file (CHG-9103)\n"
    c["etc/sysctl.d/99-zz-app.conf"] = ("# named pipes in sticky /srv/drop shared with the scanner (TKT-9102)\n"
                                        "; fs.protected_fifos=0   -- rejected, scanner moved to a private dir\n"
                                        "fs.protected_regular = 0\n")
    c = with_conf(c, "#fs.protected_symlinks = 0\n")

    def bad(t):
        e = sys_keys(t)
        return {"sysctl//" + k for k in ("fs.protected_symlinks", "fs.protected_fifos") if int(e.get(k, "0")) < 1}
    RPRED["set9-rhel-sticky-dir-link-protection"] = bad
    return S("set9-rhel-sticky-dir-link-protection", None, "effect",
             "Users must not be able to trick privileged programs through shared world-writable sticky directories such "
             "as /tmp: following a symbolic link there must only be allowed when the link's owner matches the follower or "
             "the directory's owner, and opening a named pipe there that belongs to someone else must be refused for "
             "writers that create files. Judge the state after a reboot from the persistent kernel-parameter files, in "
             "every location the boot-time loader reads and with its precedence rules; the bare kernel protects neither "
             "when no file sets them. Protection of regular files is a different control.", v, c,
             ["sysctl//fs.protected_symlinks", "sysctl//fs.protected_fifos"],
             "fs.protected_symlinks = 1 and fs.protected_fifos >= 1 (systemd's 50-default.conf sets both to 1; kernel "
             "default 0). Violating: a vendor /usr/lib/sysctl.d/70-legacy-spool.conf (slash key) sorts after the CIS file "
             "and sets symlinks 0; /etc/sysctl.d/99-zz-app.conf sorts after 99-sysctl.conf and sets fifos=0. Compliant: "
             "an empty /etc/sysctl.d/70-legacy-spool.conf masks the vendor file; the fifos line is a ';' comment; "
             "sysctl.conf has only a commented value; fs.protected_regular = 0 is another control (not labelled).",
             "vendor 70-legacy-spool.conf after the CIS file (symlinks 0); 99-zz-app.conf after 99-sysctl.conf (fifos 0)",
             platform="rhel9", classes=RHEL)


# r02 faillock for root ------------------------------------------------------------------------------------------
FAILLOCK = """# Configuration for locking the user after multiple failed
# authentication attempts.
#
# The directory where the user files with the failure records are kept.
# The default is /var/run/faillock.
# dir = /var/run/faillock
#
# Will log the user name into the system log if the user is not found.
# Enabled if option is present.
# audit
#
# Don't print informative messages.
# Enabled if option is present.
# silent
#
# Deny access if the number of consecutive authentication failures
# for this user during the recent interval exceeds n tries.
# The default is 3.
deny = 5
#
# The length of the interval during which the consecutive
# authentication failures must happen for the user account
# lock out is <replaceable>n</replaceable> seconds.
# The default is 900 (15 minutes).
# fail_interval = 900
#
# The access will be re-enabled after n seconds after the lock out.
# The value 0 has the same meaning as value `never` - the access
# will not be re-enabled without resetting the faillock
# entries by the `faillock` command.
# The default is 600 (10 minutes).
unlock_time = 900
#
# Root account can become locked as well as regular accounts.
# Enabled if option is present.
{edr}
#
# This option implies the `even_deny_root` option.
# Allow access after n seconds to root account after the
# account is locked. In case the root account is locked
# due to the consecutive authentication failures, the access
# will be re-enabled after n seconds.
# The default is the same as the value of the unlock_time option.
{rut}
"""


def faillock_eff(t, stack):
    val = {"even_deny_root": False, "unlock_time": 600, "root_unlock_time": None}
    for line in t.get("etc/security/faillock.conf", "").splitlines():
        line = line.strip()
        if not line or line.startswith("#"): continue
        if "=" in line:
            k, x = (s.strip() for s in line.split("=", 1))
            if k in ("unlock_time", "root_unlock_time"): val[k] = int(x)
            if k == "root_unlock_time": val["even_deny_root"] = True
        elif line == "even_deny_root": val["even_deny_root"] = True
    for l in t[stack].splitlines():
        w = l.split()
        if len(w) > 2 and w[2] == "pam_faillock.so" and not w[0].startswith("#"):
            for a in w[3:]:
                if a == "even_deny_root": val["even_deny_root"] = True
                elif "=" in a and a.split("=")[0] in ("unlock_time", "root_unlock_time"):
                    val[a.split("=")[0]] = int(a.split("=")[1])
                    if a.startswith("root_unlock_time"): val["even_deny_root"] = True
    rut = val["root_unlock_time"] if val["root_unlock_time"] is not None else val["unlock_time"]
    return val["even_deny_root"], rut


@scenario
def r_faillock_root():
    def stack(pre="", fail=""):
        return SYSTEM_AUTH.replace("{pwq}", "local_users_only").replace(
            "pam_faillock.so preauth silent", ("pam_faillock.so preauth silent " + pre).rstrip()).replace(
            "pam_faillock.so authfail", ("pam_faillock.so authfail " + fail).rstrip())
    v = {"etc/security/faillock.conf": FAILLOCK.format(edr="# even_deny_root", rut="# root_unlock_time = 900"),
         "etc/pam.d/system-auth": stack("even_deny_root", "even_deny_root"),
         "etc/pam.d/password-auth": stack("", "root_unlock_time=10")}
    c = {"etc/security/faillock.conf": FAILLOCK.format(edr="even_deny_root", rut="# root_unlock_time = 900"),
         "etc/pam.d/system-auth": stack(),
         "etc/pam.d/password-auth": stack("", "deny=10").replace("auth        sufficient", "#auth       required      pam_faillock.so authfail root_unlock_time=5\nauth        sufficient", 1)}

    def bad(t):
        out = set()
        for st in ("etc/pam.d/system-auth", "etc/pam.d/password-auth"):
            edr, rut = faillock_eff(t, st)
            # root_unlock_time implies even_deny_root in pam_faillock; judged separately as the text asks
            has_flag = "even_deny_root" in [l.strip() for l in t["etc/security/faillock.conf"].splitlines()] or \
                any("even_deny_root" in l.split() for l in t[st].splitlines() if "pam_faillock.so" in l and not l.startswith("#"))
            if not has_flag: out.add("faillock//even_deny_root")
            if edr and rut != 0 and rut < 60: out.add("faillock//root_unlock_time")
        return out
    RPRED["set9-rhel-root-lockout"] = bad
    return S("set9-rhel-root-lockout", None, "auditor",
             "Audit item AUTH-22 (account lockout for root): (1) the failed-login lockout must apply to the root account "
             "too; the lockout module leaves root alone unless its even_deny_root option is present in its configuration "
             "file or on the module's lines of a stack, and this audit requires that option itself to be present for "
             "both stacks (system-auth and password-auth). (2) Once root is locked it must stay locked for at least 60 "
             "seconds (0, meaning until an administrator unlocks it, also passes); root's lock time defaults to the "
             "general unlock time when it is not set. Arguments on a module line override the configuration file for "
             "that stack. The number of allowed failures is another control.", v, c,
             ["faillock//even_deny_root", "faillock//root_unlock_time"],
             "/etc/security/faillock.conf then pam_faillock.so arguments per stack. Violating: the file has even_deny_root "
             "only as a comment; system-auth's lines carry it, password-auth's do not (sshd uses password-auth); "
             "password-auth's authfail line sets root_unlock_time=10 (< 60, overriding unlock_time 900). Compliant: "
             "even_deny_root in the file; root lock time = unlock_time 900; a commented line with root_unlock_time=5; "
             "deny=10 on a line is another control (not labelled).",
             "even_deny_root only commented in the file and missing on password-auth's lines; root_unlock_time=10 on password-auth",
             platform="rhel9", classes=RHEL, debatable="root_unlock_time implies even_deny_root in pam_faillock; the text asks for the option itself")


# r03 sudo credential cache ----------------------------------------------------------------------------------------
SUDOERS = """## Sudoers allows particular users to run various commands as
## the root user, without needing the root password.
##
## This file must be edited with the 'visudo' command.

Defaults   !visiblepw
Defaults    always_set_home
Defaults    match_group_by_gid
Defaults    always_query_group_plugin
Defaults    env_reset
Defaults    secure_path = /sbin:/bin:/usr/sbin:/usr/bin
{defaults}
## Allow root to run any commands anywhere
root	ALL=(ALL) 	ALL

## Allows people in group wheel to run all commands
%wheel	ALL=(ALL)	ALL

## Read drop-in files from /etc/sudoers.d (the # here does not mean a comment)
#includedir /etc/sudoers.d
"""


def sudo_timeouts(t):
    """returns the list of (scope, value) Defaults timestamp_timeout in read order; sudo skips includedir files
    whose names contain a dot or end in ~"""
    out = []

    def read(path):
        for line in t.get(path, "").splitlines():
            s = line.strip()
            if s.startswith(("#includedir", "@includedir")):
                d = s.split(None, 1)[1].strip().lstrip("/")
                for p in sorted(x for x in t if x.startswith(d + "/") and "/" not in x[len(d) + 1:]):
                    n = p[len(d) + 1:]
                    if "." not in n and not n.endswith("~"): read(p)
                continue
            if not s or s.startswith("#"): continue
            m = re.match(r"Defaults([:@!>]\S+)?\s+(.*)$", s)
            if not m: continue
            for item in m.group(2).split(","):
                kv = [x.strip() for x in item.split("=", 1)]
                if kv[0] == "timestamp_timeout" and len(kv) == 2:
                    out.append((m.group(1) or "", float(kv[1])))
    read("etc/sudoers")
    return out


@scenario
def r_sudo_timeout():
    v = {"etc/sudoers": SUDOERS.format(defaults="Defaults    timestamp_timeout=5\n"),
         "etc/sudoers.d/10-ops": "# ops on-call\n%ops ALL=(ALL) ALL\n",
         "etc/sudoers.d/50-developers": "# developers complained about password prompts (TKT-9131)\n"
                                        "Defaults:%developers    timestamp_timeout=-1\n%developers ALL=(ALL) /usr/bin/systemctl\n"}
    c = {"etc/sudoers": SUDOERS.format(defaults="Defaults    timestamp_timeout=15\n#Defaults timestamp_timeout=-1\n"),
         "etc/sudoers.d/10-ops": "# ops on-call\n%ops ALL=(ALL) ALL\n",
         "etc/sudoers.d/50-developers.conf": v["etc/sudoers.d/50-developers"],
         "etc/sudoers.d/zz-final": "# CHG-9132: cached sudo credentials at most 2 minutes\nDefaults timestamp_timeout = 2\n"}

    def bad(t):
        vals = sudo_timeouts(t)
        glob = [x for s, x in vals if not s]
        scoped = [x for s, x in vals if s]
        final = glob[-1] if glob else 5.0
        ok = 0 <= final <= 5 and all(0 <= x <= 5 for x in scoped)
        return set() if ok else {"sudoers//timestamp_timeout"}
    RPRED["set9-rhel-sudo-reauth"] = bad
    return S("set9-rhel-sudo-reauth", None, "effect",
             "After a user authenticates to sudo, the cached authentication must expire within 5 minutes for every user, "
             "so that an unattended terminal cannot run privileged commands for long; a cache that never expires (a "
             "negative value) fails, and asking every time passes. Judge what sudo will actually use: its main policy "
             "file and the drop-in files it includes (sudo skips drop-in files whose names contain a dot or end with ~); "
             "among unscoped defaults the last one read wins, and a default scoped to particular users or groups applies "
             "to them whatever its position. Out of the box the cache lasts 5 minutes. Other sudo settings are not judged.",
             v, c, ["sudoers//timestamp_timeout"],
             "timestamp_timeout in [0, 5] for every scope (default 5). `#includedir` is a directive, not a comment. "
             "Violating: /etc/sudoers sets 5, but the included sudoers.d/50-developers sets "
             "`Defaults:%developers timestamp_timeout=-1`. Compliant: /etc/sudoers sets 15 but the included zz-final "
             "(read later) sets 2; the developers' file is named 50-developers.conf and is skipped; a commented -1.",
             "a group-scoped timestamp_timeout=-1 in an included drop-in", platform="rhel9", classes=RHEL)


# r04 auditd disk-space actions ---------------------------------------------------------------------------------------
AUDITD = """#
# This file controls the configuration of the audit daemon
#

local_events = yes
write_logs = yes
log_file = /var/log/audit/audit.log
log_group = root
log_format = ENRICHED
flush = INCREMENTAL_ASYNC
freq = 50
max_log_file = 8
num_logs = 5
priority_boost = 4
name_format = NONE
##name = mydomain
max_log_file_action = {mlfa}
space_left = 75
{sla}
verify_email = yes
action_mail_acct = root
admin_space_left = 50
{asla}
disk_full_action = SUSPEND
disk_error_action = SUSPEND
use_libwrap = yes
##tcp_listen_port = 60
tcp_listen_queue = 5
tcp_max_per_addr = 1
##tcp_client_ports = 1024-65535
tcp_client_max_idle = 0
transport = TCP
krb5_principal = auditd
##krb5_key_file = /etc/audit/audit.key
distribute_network = no
q_depth = 2000
overflow_action = SYSLOG
max_restarts = 10
plugin_dir = /etc/audit/plugins.d
end_of_event_timeout = 2
"""


def auditd_eff(text):
    val = {"space_left_action": "syslog", "admin_space_left_action": "suspend"}
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("#") or "=" not in s: continue
        k, x = (p.strip() for p in s.split("=", 1))
        val[k.lower()] = x.lower()
    return val


@scenario
def r_auditd_space():
    v = {"etc/audit/auditd.conf": AUDITD.format(mlfa="ROTATE", sla="# CIS 4.1.2.3: space_left_action = email\nspace_left_action = SYSLOG",
                                                asla="#admin_space_left_action = single")}
    c = {"etc/audit/auditd.conf": AUDITD.format(mlfa="ROTATE", sla="space_left_action = EMAIL",
                                                asla="admin_space_left_action=Single"),
         "etc/audit/auditd.conf.rpmnew": AUDITD.format(mlfa="ROTATE", sla="space_left_action = SYSLOG",
                                                       asla="admin_space_left_action = SUSPEND")}

    def bad(t):
        e = auditd_eff(t["etc/audit/auditd.conf"])
        out = set()
        if e["space_left_action"] not in ("email", "exec", "single", "halt"): out.add("auditd//space_left_action")
        if e["admin_space_left_action"] not in ("single", "halt"): out.add("auditd//admin_space_left_action")
        return out
    RPRED["set9-rhel-audit-disk-low"] = bad
    return S("set9-rhel-audit-disk-low", None, "CIS",
             "Ensure the system is acted upon when audit log storage is low (Automated). Profile Applicability: Level 2 - "
             "Server. Description: the audit daemon (/etc/audit/auditd.conf) must, when free space first falls to the "
             "space_left threshold, notify an administrator (email, or an exec/single/halt action; syslog alone is not "
             "enough), and when it falls to the admin_space_left threshold, switch to single-user mode or halt (single or "
             "halt). Values are case-insensitive. When unset, the daemon only writes a syslog message at the first "
             "threshold and suspends logging at the second, which fails. What happens when a log file reaches its "
             "maximum size is a different recommendation.", v, c,
             ["auditd//space_left_action", "auditd//admin_space_left_action"],
             "auditd.conf: space_left_action in {email, exec, single, halt} (default SYSLOG); admin_space_left_action in "
             "{single, halt} (default SUSPEND). Violating: SYSLOG under a comment showing email; the admin action only "
             "commented. Compliant: EMAIL and `admin_space_left_action=Single` (case); an auditd.conf.rpmnew with bad values "
             "is not read; max_log_file_action = ROTATE is another control (not labelled).",
             "space_left_action SYSLOG; admin_space_left_action only commented (default SUSPEND)",
             platform="rhel9", classes=RHEL)


# r05 sshd MACs + MaxStartups ------------------------------------------------------------------------------------------
OSSH_BACKEND = ("Ciphers aes256-gcm@openssh.com,chacha20-poly1305@openssh.com,aes256-ctr,aes128-gcm@openssh.com,aes128-ctr\n"
                "MACs hmac-sha2-256-etm@openssh.com,hmac-sha2-512-etm@openssh.com,hmac-sha2-256,hmac-sha2-512\n"
                "GSSAPIKexAlgorithms gss-curve25519-sha256-,gss-nistp256-sha256-,gss-group14-sha256-,gss-group16-sha512-\n"
                "KexAlgorithms curve25519-sha256,curve25519-sha256@libssh.org,ecdh-sha2-nistp256,ecdh-sha2-nistp384,"
                "ecdh-sha2-nistp521,diffie-hellman-group-exchange-sha256,diffie-hellman-group14-sha256,"
                "diffie-hellman-group16-sha512,diffie-hellman-group18-sha512\n"
                "HostKeyAlgorithms ecdsa-sha2-nistp256,ssh-ed25519,rsa-sha2-256,rsa-sha2-512\n"
                "PubkeyAcceptedAlgorithms ecdsa-sha2-nistp256,ssh-ed25519,rsa-sha2-256,rsa-sha2-512\n"
                "CASignatureAlgorithms ecdsa-sha2-nistp256,ssh-ed25519,rsa-sha2-256,rsa-sha2-512\n")
SHA2_MACS = {"hmac-sha2-256", "hmac-sha2-512", "hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com"}


@scenario
def r_sshd_macs_startups():
    main = SSHD_MAIN.replace("{auth}", "").replace("{x11}", "X11Forwarding no\n") + "\nMaxStartups 10:30:60\n"
    v = {"etc/ssh/sshd_config": main, "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50,
         "etc/crypto-policies/back-ends/opensshserver.config": OSSH_BACKEND,
         "etc/ssh/sshd_config.d/10-legacy-macs.conf": "# old network switches back up over scp (TKT-9151)\n"
                                                      "MACs hmac-sha2-256,hmac-sha2-512,hmac-sha1\n",
         "etc/ssh/sshd_config.d/20-tuning.conf": "# CI runners open many sessions at once (TKT-9152)\nmaxstartups 100\n"}
    c = {"etc/ssh/sshd_config": main, "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50,
         "etc/crypto-policies/back-ends/opensshserver.config": OSSH_BACKEND,
         "etc/ssh/sshd_config.d/10-legacy-macs.conf.bak": v["etc/ssh/sshd_config.d/10-legacy-macs.conf"],
         "etc/ssh/sshd_config.d/05-cis.conf": "# CIS 5.2.x\nMaxStartups 10:30:60\nCiphers aes128-cbc,aes256-ctr\n",
         "etc/ssh/sshd_config.d/20-tuning.conf": v["etc/ssh/sshd_config.d/20-tuning.conf"]}

    def bad(t):
        e = sshd_effective(t)
        out = set()
        macs = e.get("macs", "umac-64-etm@openssh.com,hmac-sha1-etm@openssh.com,hmac-sha1").split(",")
        if not set(m.strip() for m in macs) <= SHA2_MACS: out.add("sshd//MACs")
        ms = [int(x) for x in e.get("maxstartups", "10:30:100").split(":")]
        start, full = ms[0], ms[-1]
        if start > 10 or full > 60: out.add("sshd//MaxStartups")
        return out
    RPRED["set9-rhel-ssh-integrity-and-flood"] = bad
    return S("set9-rhel-ssh-integrity-and-flood", None, "effect",
             "The SSH daemon, as it will actually run with all the files it reads (including the system crypto-policy "
             "file it includes), must (1) protect the integrity of sessions only with SHA-2 based HMACs, offering nothing "
             "based on MD5, SHA-1 or 64-bit UMAC (when nothing is configured, OpenSSH also offers SHA-1 and UMAC-64, which "
             "fails), and (2) resist floods of unauthenticated connections: it must start refusing new unauthenticated "
             "connections at no more than 10 pending and refuse all of them at no more than 60 pending (the built-in "
             "default only refuses all at 100, which fails). Ciphers and key exchange are other controls.", v, c,
             ["sshd//MACs", "sshd//MaxStartups"],
             "sshd keeps the first value it reads; sshd_config includes sshd_config.d/*.conf first (name order) and "
             "50-redhat.conf includes the crypto-policy back-end. Violating: 10-legacy-macs.conf (read before the policy) "
             "adds hmac-sha1; 20-tuning.conf (`maxstartups 100`, lower case) is read before the main file's 10:30:60. "
             "Compliant: 05-cis.conf sets 10:30:60 first; the legacy MACs file is a .bak (not included) so the policy's "
             "SHA-2 list applies; Ciphers aes128-cbc is another control (not labelled).",
             "a drop-in adds hmac-sha1 before the crypto policy; `maxstartups 100` read before the main file's 10:30:60",
             platform="rhel9", classes=RHEL)

# ------------------------------------------------------------------ output
def write(out):
    os.makedirs(out, exist_ok=True)
    table = []
    for fn in SCEN:
        s = fn()
        d = os.path.join(out, s["id"])
        os.makedirs(d, exist_ok=True)
        m = {"id": s["id"]}
        if s["cis"]:
            m["cis_id"] = s["cis"]
        m.update({"platform": s["platform"], "requirement": s["requirement"], "classes": s["classes"],
                  "violating_resources": s["bad"], "notes": s["notes"]})
        with open(os.path.join(d, "scenario.yaml"), "w") as f:
            f.write(dump(m))
        for env, content in (("violating", s["violating"]), ("compliant", s["compliant"])):
            e = os.path.join(d, env)
            os.makedirs(e, exist_ok=True)
            if s["platform"] == "kubernetes":
                with open(os.path.join(e, "manifests.yaml"), "w") as f:
                    f.write(docs(content))
            else:
                for path, text in sorted(content.items()):
                    if path == "host-attributes.yaml":
                        with open(os.path.join(e, path), "w") as f:
                            f.write(dump(text))
                        continue
                    p = os.path.join(e, "host", path)
                    os.makedirs(os.path.dirname(p), exist_ok=True)
                    with open(p, "w") as f:
                        f.write(text)
        if s["platform"] == "kubernetes":
            ids = {rid(o) for o in s["violating"]}
            assert not [b for b in s["bad"] if b not in ids], s["id"]
            assert not [b for b in s["bad"] if b not in {rid(o) for o in s["compliant"]}], s["id"]
            got_v, got_c = PRED[s["id"]](s["violating"]), PRED[s["id"]](s["compliant"])
            # leave-one-in cleanliness: an object not listed as violating must be compliant in both environments
        else:
            got_v, got_c = RPRED[s["id"]](s["violating"]), RPRED[s["id"]](s["compliant"])
        assert got_v == set(s["bad"]), (s["id"], sorted(got_v), s["bad"])
        assert not got_c, (s["id"], sorted(got_c))
        table.append({"id": s["id"], "cis": s["cis"], "voice": s["voice"], "platform": s["platform"],
                      "classes": s["classes"], "violating": s["bad"], "why": s["why"], "notes": s["notes"],
                      "debatable": s["debatable"]})
    with open(os.path.join(out, "labels.json"), "w") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    for t in table:
        print(f"| `{t['id']}` | {t['cis'] or '—'} | {t['voice']} | {', '.join(t['classes'])} | "
              f"{'<br>'.join('`' + v + '`' for v in t['violating'])} | {t['why']}{' (debatable)' if t['debatable'] else ''} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen.py OUTDIR")
    write(sys.argv[1])
