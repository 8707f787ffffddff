#!/usr/bin/env python3
"""ciso-set10 (blind-ciso10): held-out CISO scenarios in the project's user format: 16 Kubernetes scenarios (kyverno,
kubectl-opa, opa-static) and 4 RHEL 9 ones (rhel9-ansible-opa) on limits of numeric fields and fields that must be
present, on controls that none of ciso-set2..9 has. Labels are fixed by construction below; every run self-checks every
scenario with my own predicate (PRED for Kubernetes, RPRED for RHEL 9): it must flag exactly violating_resources in
violating/ and nothing in compliant/. The YAML emitter, object helpers, the systemd-sysctl reader and the RHEL file
templates are copied from measurement/ciso-set9/gen.py (which copied them from ciso-set8). stdlib only, deterministic.
Usage: python3 gen.py OUTDIR"""
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




# ================================================================== ciso-set10 (blind-ciso10): own helpers
import math


def scaled(v, total, up=True):
    """an IntOrString against a total: percentages scaled (rounded up or down), integers as they are"""
    if isinstance(v, str) and v.endswith("%"):
        x = float(v[:-1]) * total / 100
        return math.ceil(x) if up else math.floor(x)
    return int(v)


def dep(n, name, replicas="unset", strategy=None, spec=None):
    o = wl("Deployment", n, name, spec or one(name))
    if replicas == "unset": o["spec"].pop("replicas", None)
    else: o["spec"]["replicas"] = replicas
    if strategy is not None: o["spec"]["strategy"] = strategy
    return o


def ctrs_of(sp, ephemeral=True):
    return sp.get("containers", []) + sp.get("initContainers", []) + (sp.get("ephemeralContainers", []) if ephemeral else [])


# k01 surge capped ---------------------------------------------------------------------------------------------
@scenario
def surge_cap():
    def objs(bad):
        return [ns("shop"), ns("api"), ns("ml"), ns("data"),
                dep("shop", "web", 12, None if bad else {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 2, "maxUnavailable": 0}}),
                dep("api", "orders", 6, {"rollingUpdate": {"maxSurge": "50%" if bad else "33%"}}),
                dep("ml", "serving", 3, {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 3, "maxUnavailable": 0}} if bad
                    else {"type": "Recreate"}),
                # near misses (both): default 25% of 8 = 2; replicas unset (1); StatefulSet; maxUnavailable 50% (other control)
                dep("shop", "search", 8),
                dep("api", "docs"),
                dict(wl("StatefulSet", "data", "pg", one("pg")), spec=dict(wl("StatefulSet", "data", "pg", one("pg"))["spec"], replicas=10)),
                dep("ml", "notebook", 4, {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": "50%"}})]

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] != "Deployment": continue
            st = o["spec"].get("strategy") or {}
            if st.get("type", "RollingUpdate") != "RollingUpdate": continue
            surge = (st.get("rollingUpdate") or {}).get("maxSurge", "25%")
            if scaled(surge, o["spec"].get("replicas", 1), up=True) > 2: out.add(rid(o))
        return out
    PRED["set10-rollout-extra-pods"] = bad
    return S("set10-rollout-extra-pods", None, "effect",
             "The clusters have little spare capacity, so rolling a Deployment to a new version must never run more than 2 "
             "pods beyond the Deployment's desired count at any moment. Out of the box a rolling Deployment may add a quarter "
             "of its desired count; a percentage is taken of the desired count and rounded up (so 25% of 12 is 3); a "
             "Deployment whose desired count is not written wants 1 pod; the strategy that replaces all pods at once adds "
             "none. How many pods may be unavailable during a rollout is a different rule. Only Deployments are judged.",
             objs(True), objs(False), ["Deployment/shop/web", "Deployment/api/orders", "Deployment/ml/serving"],
             "maxSurge (default 25%, percent of replicas rounded up) must be <= 2 for RollingUpdate Deployments. Violating: "
             "no strategy with 12 replicas (25% -> 3); \"50%\" of 6 -> 3; maxSurge 3. Compliant: maxSurge 2; \"33%\" of 6 "
             "-> ceil(1.98) = 2 (exactly on the bound); Recreate. Near misses (both): default 25% of 8 = 2 exactly; replicas "
             "unset (1 -> 1); a StatefulSet with 10 replicas; maxUnavailable 50% (another control).",
             "a rolling Deployment whose surge exceeds 2 pods (default 25% of 12, 50% of 6, 3)")


# k02 ready dwell for StatefulSets / DaemonSets -------------------------------------------------------------------
@scenario
def ready_dwell():
    def w(kind, n, name, mrs=None, sp=None):
        o = wl(kind, n, name, sp or one(name))
        if mrs is not None: o["spec"]["minReadySeconds"] = mrs
        return o

    def objs(bad):
        probe = {"httpGet": {"path": "/ready", "port": 8080}, "initialDelaySeconds": 60, "periodSeconds": 10}
        return [ns("data"), ns("logging"), ns("search"), ns("web"),
                w("StatefulSet", "data", "pg", None if bad else 30),
                w("DaemonSet", "logging", "fluentbit", 29 if bad else 45),
                w("StatefulSet", "search", "es", None if bad else 120,
                  sp=podspec([ctr("es", tagged("apps/es", "8.15"), readinessProbe=probe)])),
                # near misses: exactly 30 on a DaemonSet; Deployment with none (out of scope)
                w("DaemonSet", "logging", "node-exporter", 30),
                w("Deployment", "web", "frontend", None)]

    def bad(O):
        return {rid(o) for o in O if o["kind"] in ("StatefulSet", "DaemonSet") and o["spec"].get("minReadySeconds", 0) < 30}
    PRED["set10-rollout-ready-dwell"] = bad
    return S("set10-rollout-ready-dwell", None, "effect",
             "When a StatefulSet or DaemonSet replaces a pod during a rollout, the new pod must have stayed ready for at "
             "least half a minute before the controller counts it as available and moves on to the next pod, so that a "
             "version that passes its first checks and then crashes stops the rollout. Out of the box a pod counts as "
             "available the moment it is ready (0 seconds), which fails; a delay before the first readiness check does not "
             "achieve this. Deployments are not judged.", objs(True), objs(False),
             ["StatefulSet/data/pg", "DaemonSet/logging/fluentbit", "StatefulSet/search/es"],
             "minReadySeconds >= 30 on StatefulSets and DaemonSets (default 0). Violating: unset; 29; unset with a "
             "readinessProbe initialDelaySeconds 60 (look-alike). Compliant: exactly 30, 45, 120. Near misses (both): a "
             "DaemonSet with exactly 30; a Deployment without it (out of scope).",
             "StatefulSet/DaemonSet minReadySeconds below 30 (unset = 0, 29, a probe delay instead)")


# k03 DaemonSet update width -------------------------------------------------------------------------------------
@scenario
def ds_width():
    def d(n, name, ru=None, typ="RollingUpdate"):
        o = wl("DaemonSet", n, name, one(name))
        if ru is not None: o["spec"]["updateStrategy"] = {"type": typ, "rollingUpdate": ru}
        return o

    def objs(bad):
        return [ns("logging"), ns("monitoring"), ns("net"), ns("kube-system", {}),
                d("logging", "fluentbit", {"maxUnavailable": 2 if bad else 1}),
                d("monitoring", "node-exporter", {"maxUnavailable": "5%" if bad else "2%"}),
                d("net", "cilium-agent", {"maxUnavailable": "25%"} if bad else {"maxUnavailable": 0, "maxSurge": "25%"}),
                # near misses: default (1); kube-system exempt; maxSurge alone
                d("monitoring", "dcgm-exporter"),
                d("kube-system", "kube-proxy", {"maxUnavailable": "10%"}),
                d("net", "dns-cache", {"maxSurge": 0})]

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] != "DaemonSet" or o["metadata"]["namespace"] == "kube-system": continue
            ru = (o["spec"].get("updateStrategy") or {}).get("rollingUpdate") or {}
            if scaled(ru.get("maxUnavailable", 1), 40, up=True) > 1: out.add(rid(o))
        return out
    PRED["set10-node-agent-update-width"] = bad
    return S("set10-node-agent-update-width", None, "effect",
             "Every per-node agent (DaemonSet) in the material runs on all 40 nodes of the cluster. Updating an agent must "
             "never leave more than one node without its agent at the same time. Out of the box an update takes the agent "
             "away from one node at a time, which is fine; a percentage is taken of the 40 nodes and rounded up (so 5% is "
             "2 nodes); starting the new agent next to the old one before removing it leaves no node without it. Agents in "
             "kube-system are managed by the platform vendor and exempt.", objs(True), objs(False),
             ["DaemonSet/logging/fluentbit", "DaemonSet/monitoring/node-exporter", "DaemonSet/net/cilium-agent"],
             "DaemonSet updateStrategy.rollingUpdate.maxUnavailable (default 1; % of 40 rounded up) must be <= 1. "
             "Violating: 2; \"5%\" (2 nodes); \"25%\" (10). Compliant: 1; \"2%\" (ceil 0.8 = 1, on the bound); "
             "maxUnavailable 0 with maxSurge 25%. Near misses (both): no strategy (1); kube-proxy \"10%\" in kube-system "
             "(exempt); a strategy with only maxSurge 0 (maxUnavailable defaults to 1).",
             "DaemonSet whose update may take more than one node's agent away (2, 5% and 25% of 40)")


# k04 Job fan-out --------------------------------------------------------------------------------------------------
@scenario
def job_fanout():
    def j(n, name, par=None, comp=None, cron=False, indexed=False):
        o = job(n, name, one(name), backoff=2, cron=cron)
        js = jspec(o)
        if comp is not None: js["completions"] = comp
        if par is not None: js["parallelism"] = par
        if indexed: js["completionMode"] = "Indexed"
        return o

    def objs(bad):
        return [ns("etl"), ns("ml"), ns("reports"), ns("web"),
                j("etl", "backfill", 20 if bad else 8, comp=200),
                j("ml", "sweep", 12 if bad else 6, comp=48, cron=True, indexed=True),
                j("reports", "fanout", 9 if bad else 4, comp=9, cron=True),
                # near misses: unset parallelism with 100 completions (1 at a time); exactly 8; a Deployment of 30
                j("etl", "reindex", None, comp=100),
                j("ml", "embed", 8, comp=64, indexed=True),
                dep("web", "frontend", 30)]

    def bad(O):
        return {rid(o) for o in O if o["kind"] in ("Job", "CronJob") and jspec(o).get("parallelism", 1) > 8}
    PRED["set10-batch-fanout"] = bad
    return S("set10-batch-fanout", None, "effect",
             "A single batch run must not flood the cluster: no Job, and no Job that a CronJob will create, may be allowed "
             "to run more than 8 of its pods at the same time. Judge the number of pods the Job declares it may run at "
             "once, whatever its total number of completions; a Job that does not say runs one pod at a time. Long-running "
             "workloads (Deployments and the like) are not judged.", objs(True), objs(False),
             ["Job/etl/backfill", "CronJob/ml/sweep", "CronJob/reports/fanout"],
             "Job / CronJob jobTemplate parallelism (default 1) must be <= 8. Violating: 20; 12 in a CronJob template "
             "(Indexed); 9 in a CronJob template. Compliant: 8, 6, 4. Near misses (both): parallelism unset with 100 "
             "completions; exactly 8 on an Indexed Job; a Deployment with 30 replicas (out of scope).",
             "Job / CronJob template parallelism above 8")


# k05 disruptions do not burn retries -----------------------------------------------------------------------------
@scenario
def disruption_ignored():
    IGN = {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}

    def j(n, name, rules, cron=False):
        o = job(n, name, one(name), backoff=3, cron=cron)
        if rules is not None: jspec(o)["podFailurePolicy"] = {"rules": rules}
        return o

    def objs(bad):
        return [ns("etl"), ns("billing"), ns("ml"), ns("web"),
                j("etl", "import", None if bad else [IGN]),
                j("billing", "invoices", [{"action": "Count", "onPodConditions": [{"type": "DisruptionTarget"}]}] if bad
                  else [IGN, {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [42]}}], cron=True),
                j("ml", "train", [{"action": "FailJob", "onExitCodes": {"operator": "NotIn", "values": [0]}}, IGN] if bad
                  else [{"action": "FailJob", "onExitCodes": {"containerName": "train", "operator": "In", "values": [42, 43]}}, IGN]),
                # near misses: Ignore with explicit status True; a Deployment (out of scope)
                j("etl", "export", [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}], cron=True),
                dep("web", "frontend", 3)]

    def matches_disruption(r):
        if any(c.get("type") == "DisruptionTarget" and c.get("status", "True") == "True" for c in r.get("onPodConditions") or []):
            return True
        ec = r.get("onExitCodes")
        if ec:
            vals = set(ec.get("values") or [])
            if ec["operator"] == "In": return bool(vals & {137, 143})
            return not {137, 143} <= vals
        return False

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] not in ("Job", "CronJob"): continue
            rules = (jspec(o).get("podFailurePolicy") or {}).get("rules") or []
            first = next((r for r in rules if matches_disruption(r)), None)
            if not first or first["action"] != "Ignore": out.add(rid(o))
        return out
    PRED["set10-disruptions-spare-retries"] = bad
    return S("set10-disruptions-spare-retries", None, "effect",
             "A batch Job's retry budget must only be spent on real failures of the work: a pod that fails because it was "
             "evicted, preempted or removed by a node drain (Kubernetes marks such pods with the DisruptionTarget "
             "condition; their containers end with exit code 137 or 143) must not count as a failed attempt and must not "
             "fail the Job. This applies to Jobs and to the Jobs CronJobs create. Out of the box every failed pod counts. "
             "A Job's failure rules are checked in order and the first rule that matches a failed pod decides; a rule "
             "matching a disruption condition or one of those exit codes therefore decides for a disrupted pod.",
             objs(True), objs(False), ["Job/etl/import", "CronJob/billing/invoices", "Job/ml/train"],
             "podFailurePolicy: the first rule matching a disrupted pod (condition DisruptionTarget, or exit code 137/143) "
             "must be Ignore. Violating: no policy; action Count on DisruptionTarget (CronJob template); a FailJob rule on "
             "exit codes NotIn [0] placed before the Ignore rule. Compliant: Ignore; Ignore first then FailJob In [42]; "
             "FailJob In [42, 43] before Ignore (does not catch 137/143). Near misses (both): Ignore with explicit status "
             "True; a Deployment.",
             "no rule ignoring disruptions, a Count rule, or a FailJob-on-any-non-zero rule ahead of the Ignore rule")


# k06 CronJob time zone ----------------------------------------------------------------------------------------
@scenario
def cron_tz():
    def cj(n, name, tz=None, suspend=None, conc=None):
        o = job(n, name, one(name), backoff=2, cron=True, suspend=suspend, concurrency=conc)
        if tz is not None: o["spec"]["timeZone"] = tz
        return o

    def objs(bad):
        return [ns("ops"), ns("billing"), ns("reports"),
                cj("ops", "backup", None if bad else "Etc/UTC"),
                cj("billing", "settle", "Europe/Berlin" if bad else "UTC"),
                cj("reports", "weekly", None if bad else "Etc/UTC", suspend=True),
                # near misses: UTC with concurrency Allow (another control); a plain Job (no schedule)
                cj("ops", "rotate", "Etc/UTC", conc="Allow"),
                job("billing", "close-month", one("close-month"), backoff=1)]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "CronJob" and o["spec"].get("timeZone") not in ("Etc/UTC", "UTC")}
    PRED["set10-schedules-in-utc"] = bad
    return S("set10-schedules-in-utc", None, "auditor",
             "Audit check SCHED-02: every CronJob must state the time zone its schedule is read in, and that zone must be "
             "UTC (written as Etc/UTC or UTC). A CronJob that states no zone is read in whatever local zone the "
             "controller manager happens to run with, and is a finding; so is any other zone. Suspended CronJobs are in "
             "scope (they will run again). Jobs created by hand have no schedule and are not in scope; overlapping-run "
             "settings are audited elsewhere.", objs(True), objs(False),
             ["CronJob/ops/backup", "CronJob/billing/settle", "CronJob/reports/weekly"],
             "CronJob spec.timeZone must be Etc/UTC or UTC. Violating: unset; Europe/Berlin; unset on a suspended "
             "CronJob. Compliant: Etc/UTC, UTC. Near misses (both): Etc/UTC with concurrencyPolicy Allow (another "
             "control); a plain Job.",
             "CronJob without timeZone UTC (unset, Europe/Berlin, unset while suspended)")


# k07 HPA scale-down dwell -------------------------------------------------------------------------------------
def hpa(n, name, behavior=None, mn=2, mx=10):
    s = {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": name}, "minReplicas": mn,
         "maxReplicas": mx, "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {
             "type": "Utilization", "averageUtilization": 70}}}]}
    if behavior is not None: s["behavior"] = behavior
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": meta(name, n), "spec": s}


@scenario
def hpa_dwell():
    def objs(bad):
        pol = [{"type": "Pods", "value": 1, "periodSeconds": 60}]
        return [ns("shop"), ns("api"), ns("search"),
                hpa("shop", "web", {"scaleDown": {"stabilizationWindowSeconds": 60 if bad else 300}}),
                hpa("api", "gateway", {"scaleDown": {"stabilizationWindowSeconds": 0, "policies": pol}} if bad
                    else {"scaleDown": {"selectPolicy": "Disabled", "stabilizationWindowSeconds": 60}}),
                hpa("search", "query", {"scaleUp": {"stabilizationWindowSeconds": 600},
                                        "scaleDown": {"stabilizationWindowSeconds": 120 if bad else 900}}),
                # near misses: no behavior (default 300); scaleUp window 0 only; minReplicas 1 (other control)
                hpa("shop", "cart"),
                hpa("api", "auth", {"scaleUp": {"stabilizationWindowSeconds": 0}}, mn=1)]

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] != "HorizontalPodAutoscaler": continue
            sd = (o["spec"].get("behavior") or {}).get("scaleDown") or {}
            if sd.get("selectPolicy") == "Disabled": continue
            if sd.get("stabilizationWindowSeconds", 300) < 300: out.add(rid(o))
        return out
    PRED["set10-scale-in-dwell"] = bad
    return S("set10-scale-in-dwell", None, "effect",
             "After load drops, an autoscaler must not remove replicas until the lower recommendation has held for at "
             "least 5 minutes, so that short lulls do not make the service flap. Out of the box an autoscaler already "
             "waits 5 minutes (300 seconds) before scaling in, which passes; an autoscaler that never scales in also "
             "passes. How fast it scales out, and its minimum and maximum sizes, are other rules.", objs(True), objs(False),
             ["HorizontalPodAutoscaler/shop/web", "HorizontalPodAutoscaler/api/gateway", "HorizontalPodAutoscaler/search/query"],
             "HPA behavior.scaleDown.stabilizationWindowSeconds (default 300) must be >= 300 unless selectPolicy Disabled. "
             "Violating: 60; 0 with a Pods policy; scaleUp 600 (look-alike) but scaleDown 120. Compliant: exactly 300; "
             "scale-down Disabled (window 60 irrelevant); 900. Near misses (both): no behavior (300); only a scaleUp "
             "window 0 with minReplicas 1 (other controls).",
             "HPA scale-down stabilization window below 300 s (60, 0, 120 next to a 600 s scale-up window)")


# k08 liveness detection time ------------------------------------------------------------------------------------
@scenario
def liveness_time():
    def lp(period=None, fail=None, **kw):
        p = {"httpGet": {"path": "/healthz", "port": 8080}}
        if period is not None: p["periodSeconds"] = period
        if fail is not None: p["failureThreshold"] = fail
        p.update(kw)
        return p

    def objs(bad):
        shop = podspec([ctr("shop", tagged("apps/shop", "3.1"), livenessProbe=lp()),
                        ctr("envoy", tagged("proxy/envoy", "1.31"), livenessProbe=lp(60 if bad else 40, timeoutSeconds=5))])
        es = podspec([ctr("es", tagged("apps/es", "8.15"), livenessProbe=lp(fail=20 if bad else 12),
                          startupProbe=lp(10, 60), readinessProbe=lp(60))])
        side = ctr("tail", tagged("tools/tail", "1.0"), restartPolicy="Always", livenessProbe=lp(45 if bad else 30))
        agent = podspec([ctr("agent", tagged("apps/agent", "2.0"))], init=[ctr("setup", tagged("tools/setup", "1.0")), side])
        return [ns("web"), ns("data"), ns("logging"),
                wl("Deployment", "web", "shop", shop), wl("StatefulSet", "data", "es", es),
                wl("DaemonSet", "logging", "agent", agent),
                # near misses: 12 x 10 = 120 exactly; no liveness probe at all (other control)
                wl("Deployment", "web", "api", podspec([ctr("api", tagged("apps/api", "1.0"), livenessProbe=lp(12, 10))])),
                wl("Deployment", "data", "importer", one("importer"))]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            for c in ctrs_of(sp):
                p = c.get("livenessProbe")
                if p and p.get("periodSeconds", 10) * p.get("failureThreshold", 3) > 120: out.add(rid(o))
        return out
    PRED["set10-hung-container-restart"] = bad
    return S("set10-hung-container-restart", None, "effect",
             "A container that hangs must be restarted within 2 minutes: for every container that has a liveness check "
             "(including helper containers started next to the main one, such as sidecars declared among the init "
             "containers), the number of consecutive failed checks that triggers a restart times the interval between "
             "checks must be at most 120 seconds. Out of the box checks run every 10 seconds and 3 failures trigger a "
             "restart. The per-check timeout and any initial delay are not counted; checks that only gate start-up or "
             "traffic do not restart a running container and are not judged, nor are containers without a liveness "
             "check (another rule).", objs(True), objs(False),
             ["Deployment/web/shop", "StatefulSet/data/es", "DaemonSet/logging/agent"],
             "livenessProbe periodSeconds (10) x failureThreshold (3) <= 120 on every container incl. sidecar init "
             "containers. Violating: envoy (second container) period 60 (180 s); failureThreshold 20 (200 s) next to a "
             "600 s startupProbe; a restartPolicy Always init container with period 45 (135 s). Compliant: 40 x 3 and 12 x 10 "
             "(120 exactly), 30 x 3; a readiness period 60. Near misses (both): 12 x 10; a Deployment without probes.",
             "a liveness probe (second container, sidecar init container) whose period x threshold exceeds 120 s")


# k09 startup probe on slow starters ------------------------------------------------------------------------------
SLOW = "acme.io/slow-start"


@scenario
def startup_required():
    SP = {"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 10, "failureThreshold": 30}

    def objs(bad):
        ms = wl("Deployment", "ml", "model-server", podspec(
            [ctr("model-server", tagged("apps/model-server", "4.2"), startupProbe=SP),
             ctr("model-cache", tagged("apps/model-cache", "4.2"), **({} if bad else {"startupProbe": SP}))],
            init=[ctr("fetch-weights", tagged("tools/fetch", "1.0"))]))
        solr = wl("StatefulSet", "search", "solr", podspec([ctr("solr", tagged("apps/solr", "9.6"), **(
            {"livenessProbe": dict(SP, initialDelaySeconds=300)} if bad else {"startupProbe": SP, "livenessProbe": SP}))]))
        pod = wl("Pod", "ops", "legacy-erp", podspec([ctr("erp", tagged("apps/erp", "11.0"), **({} if bad else {"startupProbe": SP}))]))
        for o in (ms, solr, pod): tmpl(o)["labels"][SLOW] = "true"
        # near misses: label only on the Deployment object; label "false"
        meta_only = wl("Deployment", "ml", "trainer-ui", one("trainer-ui"))
        meta_only["metadata"]["labels"] = {SLOW: "true"}
        fast = wl("Deployment", "search", "frontend", one("frontend"))
        tmpl(fast)["labels"][SLOW] = "false"
        return [ns("ml"), ns("search"), ns("ops"), ms, solr, pod, meta_only, fast]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            if (pm.get("labels") or {}).get(SLOW) != "true": continue
            if any("startupProbe" not in c for c in sp.get("containers", [])): out.add(rid(o))
        return out
    PRED["set10-slow-start-probe"] = bad
    return S("set10-slow-start-probe", None, "operator",
             "Platform rule: pods that carry the label acme.io/slow-start: \"true\" (on the pod itself, i.e. on the pod "
             "template of a workload; a label on the Deployment or StatefulSet object alone does not mark its pods) must "
             "declare a startupProbe on every regular container, so the kubelet does not kill them while they warm up. A "
             "long initialDelaySeconds on a liveness probe is not a replacement. Init containers are not judged, and pods "
             "without the label (or with any other value) are out of scope.", objs(True), objs(False),
             ["Deployment/ml/model-server", "StatefulSet/search/solr", "Pod/ops/legacy-erp"],
             "pod label acme.io/slow-start=true -> every containers[] entry has startupProbe. Violating: the second "
             "container lacks one; a liveness probe with initialDelaySeconds 300 instead; a bare Pod without one. "
             "Compliant: all have one (init container without one is fine). Near misses (both): label only on the "
             "Deployment's own metadata; label value \"false\".",
             "a slow-start-labelled pod with a regular container lacking startupProbe")


# k10 UID range ------------------------------------------------------------------------------------------------
@scenario
def uid_range():
    def c(name, uid=None, **kw):
        s = sc()
        if uid is not None: s["runAsUser"] = uid
        return ctr(name, tagged(f"apps/{name}", "2.0"), secctx=s, **kw)

    def objs(bad):
        api = podspec([c("api")], init=[c("migrate", 1000 if bad else 10000)], securityContext=psc(runAsUser=10001))
        exp = podspec([c("export", 70000 if bad else 65535)], securityContext={"runAsNonRoot": True})
        dbg = podspec([c("shell", 20000)], securityContext={"runAsNonRoot": True, "fsGroup": 20000})
        dbg["ephemeralContainers"] = [eph("debugger-x7k2p", tagged("tools/netshoot", "0.13"), target="shell",
                                          securityContext=sc(runAsUser=None) if bad else sc(runAsUser=20000))]
        return [ns("payments"), ns("batch"), ns("ops"),
                wl("Deployment", "payments", "api", api),
                job("batch", "export", exp, backoff=2, cron=True),
                wl("Pod", "ops", "shell", dbg),
                # near misses: pod-level 20000 covers all; runAsGroup 0 (other control) with UID 10000
                wl("StatefulSet", "payments", "ledger", podspec([c("ledger")], init=[c("wait")], securityContext=psc(runAsUser=20000))),
                wl("Deployment", "batch", "worker", podspec([c("worker", 10000)], securityContext={"runAsNonRoot": True, "runAsGroup": 0}))]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            puid = (sp.get("securityContext") or {}).get("runAsUser")
            for cc in ctrs_of(sp):
                u = (cc.get("securityContext") or {}).get("runAsUser", puid)
                if u is None or not 10000 <= u <= 65535: out.add(rid(o))
        return out
    PRED["set10-uid-range"] = bad
    return S("set10-uid-range", None, "auditor",
             "Audit check ID-07: every container of every pod (regular, init and ephemeral debug containers alike) must "
             "run with a user ID from the range reserved for workloads, 10000 to 65535 inclusive. The user ID that counts "
             "is the container's own runAsUser if set, otherwise the pod's; if neither sets one, the image decides and "
             "this cannot be verified, which is a finding. Group IDs are audited elsewhere.", objs(True), objs(False),
             ["Deployment/payments/api", "CronJob/batch/export", "Pod/ops/shell"],
             "effective runAsUser (container over pod) in [10000, 65535] for every container incl. init and ephemeral; "
             "unset at both levels fails. Violating: init container 1000 under a pod-level 10001; 70000 in a CronJob "
             "template; an ephemeral container with no runAsUser in a pod without a pod-level one. Compliant: 10000 and "
             "65535 (bounds), the ephemeral container sets 20000. Near misses (both): pod-level 20000 covering containers "
             "and init containers; runAsGroup 0 with UID 10000 (another control).",
             "a container whose effective UID is outside 10000-65535 or unset (init, CronJob template, ephemeral)")


# k11 fsGroup for claims ---------------------------------------------------------------------------------------
@scenario
def fsgroup_claims():
    def pvc_vol(name, claim): return {"name": name, "persistentVolumeClaim": {"claimName": claim}}

    def mnt(name, path): return {"name": name, "mountPath": path}

    def objs(bad):
        pg = wl("StatefulSet", "data", "pg", podspec([ctr("pg", tagged("apps/pg", "16.4"), volumeMounts=[mnt("pgdata", "/var/lib/pg")])],
                                                      securityContext=psc() if bad else psc(fsGroup=26)))
        pg["spec"]["volumeClaimTemplates"] = [{"metadata": {"name": "pgdata"}, "spec": {
            "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "20Gi"}}}}]
        up = wl("Deployment", "media", "uploader", podspec([ctr("uploader", tagged("apps/uploader", "1.2"), volumeMounts=[mnt("files", "/srv")])],
                                                           volumes=[pvc_vol("files", "uploads")], securityContext=psc(fsGroup=0 if bad else 3000)))
        arc_sc = psc(supplementalGroups=[2000]) if bad else psc(supplementalGroups=[2000], fsGroup=2000, fsGroupChangePolicy="OnRootMismatch")
        arc = job("batch", "archive", podspec([ctr("archive", tagged("apps/archive", "1.0"), volumeMounts=[mnt("out", "/out")])],
                                              volumes=[pvc_vol("out", "archive")], securityContext=arc_sc), backoff=2, cron=True)
        eph_vol = {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"spec": {"accessModes": ["ReadWriteOnce"],
                                                                                     "resources": {"requests": {"storage": "5Gi"}}}}}}
        return [ns("data"), ns("media"), ns("batch"), ns("ml"), pg, up, arc,
                # near misses: a generic ephemeral claim with fsGroup; a pod with only emptyDir/configMap and no fsGroup
                job("ml", "prep", podspec([ctr("prep", tagged("apps/prep", "1.0"), volumeMounts=[mnt("scratch", "/scratch")])],
                                          volumes=[eph_vol], securityContext=psc(fsGroup=4000)), backoff=1),
                wl("Deployment", "media", "thumbs", podspec([ctr("thumbs", tagged("apps/thumbs", "1.0"), volumeMounts=[mnt("tmp", "/tmp"), mnt("cfg", "/etc/thumbs")])],
                                                            volumes=[{"name": "tmp", "emptyDir": {"sizeLimit": "1Gi"}},
                                                                     {"name": "cfg", "configMap": {"name": "thumbs"}}]))]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            claims = bool(o["kind"] == "StatefulSet" and o["spec"].get("volumeClaimTemplates")) or any(
                "persistentVolumeClaim" in v or "ephemeral" in v for v in sp.get("volumes", []))
            if claims and (sp.get("securityContext") or {}).get("fsGroup") in (None, 0): out.add(rid(o))
        return out
    PRED["set10-claims-group-owned"] = bad
    return S("set10-claims-group-owned", None, "operator",
             "Storage rule for all teams: a pod that mounts persistent storage claims (a persistentVolumeClaim volume, a "
             "StatefulSet volumeClaimTemplate, or a generic ephemeral volume, which is a claim too) must set a pod-level "
             "fsGroup other than 0, so the volume's files are group-owned by the workload and not by root. "
             "supplementalGroups does not do this. Pods that only use emptyDir, configMap, secret or projected volumes are "
             "out of scope.", objs(True), objs(False),
             ["StatefulSet/data/pg", "Deployment/media/uploader", "CronJob/batch/archive"],
             "pods with a PVC / volumeClaimTemplates / ephemeral volume need securityContext.fsGroup != 0. Violating: a "
             "StatefulSet whose only claim is a volumeClaimTemplate (no pod volumes) without fsGroup; fsGroup 0; a CronJob "
             "template with supplementalGroups [2000] but no fsGroup. Compliant: fsGroup 26 / 3000 / 2000 (with "
             "OnRootMismatch). Near misses (both): a Job with a generic ephemeral volume and fsGroup 4000; a Deployment "
             "with only emptyDir and configMap and no fsGroup.",
             "a claim-mounting pod without a non-zero fsGroup (claim template only, 0, supplementalGroups instead)")


# k12 ephemeral-storage cap -----------------------------------------------------------------------------------
@scenario
def scratch_cap():
    def c(name, eph_lim="1Gi"):
        r = res()
        if eph_lim is not None: r["limits"]["ephemeral-storage"] = eph_lim
        return ctr(name, tagged(f"apps/{name}", "1.0"), resources=r)

    def objs(bad):
        return [ns("logs"), ns("ml"), ns("data"),
                wl("Deployment", "logs", "collector", podspec([c("collector", "2Gi"), c("buffer", "3000M" if bad else "2G")])),
                job("ml", "prep", podspec([c("prep", 2147483648)], init=[c("unpack", "4Gi" if bad else "2048Mi")]), backoff=1),
                wl("StatefulSet", "data", "es", podspec([c("es", "2049Mi" if bad else "1.5Gi")])),
                # near misses: a container with no limit (another control); 2Gi exactly in a CronJob template
                wl("Deployment", "logs", "shipper", podspec([c("shipper", None)])),
                job("data", "compact", podspec([c("compact", "2Gi")]), backoff=1, cron=True)]

    def bad(O):
        out = set()
        for o, sp, pm in workloads(O):
            for cc in ctrs_of(sp):
                q = ((cc.get("resources") or {}).get("limits") or {}).get("ephemeral-storage")
                if q is not None and qbytes(q) > 2 * 2**30: out.add(rid(o))
        return out
    PRED["set10-scratch-limit-cap"] = bad
    return S("set10-scratch-limit-cap", None, "CIS",
             "Ensure that container ephemeral storage limits do not exceed 2 GiB (Manual). Profile Applicability: Level 2 - "
             "Worker Node. Description: where a container (regular, init or ephemeral) declares a limit on local ephemeral "
             "storage (resources.limits.ephemeral-storage), the limit must not exceed 2Gi = 2147483648 bytes. Quantities "
             "may use binary suffixes (Ki, Mi, Gi), decimal suffixes (k, M, G) or plain byte counts. Rationale: a single "
             "container should not be allowed to fill a node's disk. Containers that declare no such limit are covered by "
             "a separate recommendation and are not assessed here.", objs(True), objs(False),
             ["Deployment/logs/collector", "Job/ml/prep", "StatefulSet/data/es"],
             "limits.ephemeral-storage <= 2Gi where set, units converted. Violating: the second container 3000M (3.0e9 > "
             "2.147e9); an init container 4Gi; 2049Mi. Compliant: 2G (< 2Gi), 2048Mi and the integer 2147483648 (exactly "
             "2Gi), 1.5Gi. Near misses (both): a container without the limit (another control); 2Gi in a CronJob template.",
             "an ephemeral-storage limit above 2Gi (3000M in a second container, 4Gi init container, 2049Mi)")


# k13 Service owner annotation ---------------------------------------------------------------------------------
OWNER = "acme.io/owner-team"


@scenario
def svc_owner():
    def s(n, name, ann=None, labels=None, **extra):
        o = svcx(n, name, **extra)
        if ann is not None: o["metadata"]["annotations"] = ann
        if labels is not None: o["metadata"]["labels"] = labels
        return o

    def objs(bad):
        k = s("default", "kubernetes", ports=[{"name": "https", "port": 443, "targetPort": 6443}])
        k["spec"].pop("selector")
        return [ns("shop"), ns("api"), ns("ops"), k,
                s("shop", "cart", labels={OWNER: "checkout"}) if bad else s("shop", "cart", ann={OWNER: "checkout"}, labels={OWNER: "checkout"}),
                s("api", "gateway", ann={OWNER: "", "acme.io/oncall": "api-oncall"} if bad else {OWNER: "edge", "acme.io/oncall": "api-oncall"}),
                s("ops", "metrics", ann={"acme.io/owner_team": "sre"} if bad else {OWNER: "sre"}, clusterIP="None"),
                # near misses: headless with it; LoadBalancer with it (exposure is another control)
                s("ops", "alertmanager", ann={OWNER: "sre"}, clusterIP="None"),
                s("shop", "storefront", ann={OWNER: "web"}, typ="LoadBalancer")]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "Service" and rid(o) != "Service/default/kubernetes"
                and not ((o["metadata"].get("annotations") or {}).get(OWNER) or "").strip()}
    PRED["set10-service-owner-annotated"] = bad
    return S("set10-service-owner-annotated", None, "auditor",
             "Audit check OWN-04: every Service must carry the annotation acme.io/owner-team with a non-empty value naming "
             "the team that answers for it (headless Services included). A label with that key does not count, and the "
             "key must be spelled exactly. The API server's own Service default/kubernetes is exempt. How Services are "
             "exposed is audited elsewhere.", objs(True), objs(False),
             ["Service/shop/cart", "Service/api/gateway", "Service/ops/metrics"],
             "metadata.annotations[acme.io/owner-team] non-empty on every Service except default/kubernetes. Violating: only "
             "a label; an empty value (next to another acme.io annotation); a headless Service with acme.io/owner_team. "
             "Compliant: annotated. Near misses (both): default/kubernetes without it (exempt); a headless Service and a "
             "LoadBalancer Service with it.",
             "a Service without a non-empty acme.io/owner-team annotation (label only, empty, misspelt key)")


# k14 pod count quota ------------------------------------------------------------------------------------------
def quota(n, name, hard, scopes=None):
    s = {"hard": hard}
    if scopes: s["scopes"] = scopes
    return {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": meta(name, n), "spec": s}


@scenario
def pod_quota():
    def objs(bad):
        o = [ns("search"), ns("ml"), ns("sandbox"), ns("kube-system", {}), ns("default", {}), ns("platform-kube-ops")]
        o.append(quota("search", "pods", {"pods": "60" if bad else "50"}))
        o.append(quota("ml", "compute", {"requests.cpu": "40", "requests.memory": "160Gi", "limits.memory": "200Gi"}))
        if not bad: o.append(quota("ml", "objects", {"pods": 40, "services": "20"}))
        o.append(quota("sandbox", "best-effort", {"pods": "20"}, scopes=["BestEffort"]))
        if not bad: o.append(quota("sandbox", "all-pods", {"pods": "30", "count/jobs.batch": "10"}))
        # near misses: a namespace whose name starts with platform-kube (not exempt) covered; exempt ones uncovered
        o.append(quota("platform-kube-ops", "pods", {"pods": "50"}))
        return o

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] != "Namespace": continue
            n = o["metadata"]["name"]
            if n.startswith("kube-") or n == "default": continue
            ok = any(q["kind"] == "ResourceQuota" and q["metadata"]["namespace"] == n and not q["spec"].get("scopes")
                     and not q["spec"].get("scopeSelector") and "pods" in q["spec"]["hard"]
                     and float(q["spec"]["hard"]["pods"]) <= 50 for q in O)
            if not ok: out.add(rid(o))
        return out
    PRED["set10-namespace-pod-count-cap"] = bad
    return S("set10-namespace-pod-count-cap", None, "operator",
             "Cluster rule: every namespace except default and those whose names start with kube- must hold a "
             "ResourceQuota that caps the number of pods in the namespace (hard.pods) at 50 or fewer. A quota restricted "
             "by scopes or a scopeSelector only counts some pods and does not satisfy this; a namespace may have several "
             "quotas, and one unscoped quota with pods <= 50 is enough. Quotas on CPU, memory or other object kinds are not "
             "this rule. Report the namespace.", objs(True), objs(False),
             ["Namespace//search", "Namespace//ml", "Namespace//sandbox"],
             "an unscoped ResourceQuota with hard.pods <= 50 in every namespace but default/kube-*. Violating: pods \"60\"; "
             "only a compute quota; only a BestEffort-scoped quota with pods 20. Compliant: \"50\" (bound); a second quota "
             "with the integer 40; an unscoped quota with 30 next to the scoped one. Near misses (both): default and "
             "kube-system without quotas (exempt); platform-kube-ops (not exempt) covered with 50.",
             "a namespace without an unscoped pod-count quota <= 50 (60, compute only, BestEffort scope only)")


# k15 request body size ----------------------------------------------------------------------------------------
BODY = "nginx.ingress.kubernetes.io/proxy-body-size"


def nginx_size(v):
    v = str(v).strip()
    m = re.fullmatch(r"(\d+)([kKmMgG]?)", v)
    mult = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30}[m.group(2).lower()]
    return int(m.group(1)) * mult


@scenario
def body_size():
    def i(n, name, ann):
        return ing(n, name, f"{name}.acme.example", cls="nginx", annotations=ann)

    def objs(bad):
        return [ns("shop"), ns("media"), ns("docs"),
                i("shop", "upload", {BODY: "0" if bad else "10m"}),
                i("media", "api", {BODY: "1g" if bad else "10240k", "nginx.ingress.kubernetes.io/proxy-read-timeout": "120"}),
                i("docs", "wiki", {BODY: "20480k" if bad else "8M"}),
                # near misses: unset (1m default); a large client-body-buffer-size (another setting)
                i("shop", "store", None),
                i("media", "cdn", {"nginx.ingress.kubernetes.io/client-body-buffer-size": "64m", BODY: "2m"})]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "Ingress" and (
            lambda s: s == 0 or s > 10 * 2**20)(nginx_size((o["metadata"].get("annotations") or {}).get(BODY, "1m")))}
    PRED["set10-ingress-body-limit"] = bad
    return S("set10-ingress-body-limit", None, "operator",
             "Edge rule: all Ingresses here are served by ingress-nginx. The largest request body the proxy accepts for an "
             "Ingress (annotation nginx.ingress.kubernetes.io/proxy-body-size) must be at most 10 MiB. Sizes are nginx "
             "sizes: a number of bytes optionally followed by k/K (KiB), m/M (MiB) or g/G (GiB); 0 disables the check "
             "(unlimited) and fails. Without the annotation the controller's default of 1m applies, which passes. Other "
             "annotations (buffer sizes, timeouts) are not this rule.", objs(True), objs(False),
             ["Ingress/shop/upload", "Ingress/media/api", "Ingress/docs/wiki"],
             "proxy-body-size (default 1m) in (0, 10m]. Violating: \"0\" (unlimited); \"1g\"; \"20480k\" (20 MiB). "
             "Compliant: \"10m\" and \"10240k\" (exactly 10 MiB), \"8M\". Near misses (both): no annotation (1m); "
             "client-body-buffer-size 64m next to proxy-body-size 2m.",
             "an Ingress body-size limit that is unlimited (0) or above 10 MiB (1g, 20480k)")


# k16 standalone pod lifetime -----------------------------------------------------------------------------------
@scenario
def pod_lifetime():
    def p(n, name, dl=None, owner=None):
        sp = one(name)
        if dl is not None: sp["activeDeadlineSeconds"] = dl
        o = wl("Pod", n, name, sp)
        if owner: o["metadata"]["ownerReferences"] = [owner]
        return o

    def objs(bad):
        rs_owner = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-6d8f7c9b5", "uid":
                    "6f1c2a7e-3b4d-4e5f-9a8b-7c6d5e4f3a2b", "controller": True, "blockOwnerDeletion": True}
        return [ns("ops"), ns("ci"), ns("data"), ns("web"),
                p("ops", "debug-shell", None if bad else 86400),
                p("ci", "runner-7", 172800 if bad else 3600),
                p("data", "migrate", 90000 if bad else 600),
                # near misses: a pod owned by a ReplicaSet (not standalone); a Deployment; a Job's pods (bounded elsewhere)
                p("web", "web-6d8f7c9b5-x2x9q", None, owner=rs_owner),
                dep("web", "web", 2),
                job("data", "reindex", one("reindex"), backoff=1)]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "Pod" and not o["metadata"].get("ownerReferences")
                and not 0 < o["spec"].get("activeDeadlineSeconds", 10**12) <= 86400}
    PRED["set10-standalone-pod-lifetime"] = bad
    return S("set10-standalone-pod-lifetime", None, "effect",
             "A pod created by hand (one that no controller owns) must be stopped automatically by Kubernetes no later "
             "than one day (24 hours) after it started, so forgotten debug and one-off pods do not live on. Out of the box "
             "such a pod runs forever. Pods created and owned by a controller (ReplicaSet, StatefulSet, Job and so on) "
             "and the controllers themselves are not judged here.", objs(True), objs(False),
             ["Pod/ops/debug-shell", "Pod/ci/runner-7", "Pod/data/migrate"],
             "bare Pods (no ownerReferences) need activeDeadlineSeconds <= 86400. Violating: unset; 172800 (2 days); "
             "90000 (25 h). Compliant: 86400 (bound), 3600, 600. Near misses (both): a Pod owned by a ReplicaSet without a "
             "deadline; a Deployment; a Job.",
             "a bare Pod without activeDeadlineSeconds <= 86400 (unset, 2 days, 25 hours)")


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


# ================================================================== RHEL 9 (ciso-set10)
def sys_keys(t):
    return {k: v for k, v in sysctl_effective(t).items() if "*" not in k}


def with_conf(t, extra):
    t["etc/sysctl.conf"] = SYSCTL_CONF + extra
    t["etc/sysctl.d/99-sysctl.conf"] = t["etc/sysctl.conf"]
    return t


# r01 IPv6 router advertisements ------------------------------------------------------------------------------------
@scenario
def r_accept_ra():
    cis = "# CIS 3.3.9 (CHG-10101)\nnet.ipv6.conf.all.accept_ra = 0\nnet.ipv6.conf.default.accept_ra = 0\n"
    vendor = "# shipped by acme-cloud-net-1.3: let the VPC router configure IPv6\nnet/ipv6/conf/all/accept_ra = 1\n"
    v = sysbase()
    v["etc/sysctl.d/60-cis-ipv6.conf"] = cis
    v["usr/lib/sysctl.d/65-acme-cloud-net.conf"] = vendor
    v = with_conf(v, "\n# lab VLAN autoconf (TKT-10102)\n   net.ipv6.conf.default.accept_ra=1\n")
    c = sysbase()
    c["etc/sysctl.d/60-cis-ipv6.conf"] = cis
    c["usr/lib/sysctl.d/65-acme-cloud-net.conf"] = vendor
    c["etc/sysctl.d/65-acme-cloud-net.conf"] = "# masks the vendor file of the same name (CHG-10103)\n"
    c["etc/sysctl.d/80-lab-autoconf.conf.disabled"] = "net.ipv6.conf.default.accept_ra = 1\n"
    c["etc/sysctl.d/70-martians.conf"] = "# noisy on the storage VLAN (TKT-10104)\nnet.ipv4.conf.all.log_martians = 0\n"
    c = with_conf(c, "\n# lab VLAN autoconf (TKT-10102) -- withdrawn\n#   net.ipv6.conf.default.accept_ra=1\n")
    KEYS = ["net.ipv6.conf.all.accept_ra", "net.ipv6.conf.default.accept_ra"]

    def bad(t):
        e = sys_keys(t)
        return {"sysctl//" + k for k in KEYS if e.get(k, "1") != "0"}
    RPRED["set10-rhel-ignore-router-adverts"] = bad
    return S("set10-rhel-ignore-router-adverts", None, "effect",
             "This server must not let any router on its networks configure its IPv6 addresses and routes: IPv6 router "
             "advertisements must be ignored on every existing interface and on every interface created later. Judge the "
             "persistent kernel parameters as systemd-sysctl applies them at boot: files ending in .conf in /etc/sysctl.d, "
             "/run/sysctl.d, /usr/local/lib/sysctl.d and /usr/lib/sysctl.d are read in order of file name across all "
             "directories, a file in /etc masks a file of the same name in /usr/lib, later assignments win, keys may be "
             "written with dots or slashes, and /etc/sysctl.d/99-sysctl.conf is /etc/sysctl.conf. The kernel accepts "
             "router advertisements by default, so a setting that is never written fails. Other kernel parameters are "
             "other controls.", v, c, ["sysctl//" + k for k in KEYS],
             "net.ipv6.conf.all.accept_ra and .default.accept_ra must be 0 (kernel default 1). Violating: the CIS file "
             "60-cis-ipv6.conf sets both 0, but the vendor /usr/lib/sysctl.d/65-acme-cloud-net.conf (read later, slash "
             "key) sets all to 1, and /etc/sysctl.conf (= 99-sysctl.conf) sets default to 1 on an indented line. Compliant: "
             "an empty /etc file of the same name masks the vendor file; the sysctl.conf line is commented; "
             "80-lab-autoconf.conf.disabled is not read; log_martians = 0 is another control (not labelled).",
             "vendor file after the CIS file sets all.accept_ra=1 (slash key); sysctl.conf sets default.accept_ra=1 (indented)",
             platform="rhel9", classes=RHEL)


# r02 pam_limits: core dumps and concurrent logins --------------------------------------------------------------------
LIMITS_CONF = """# /etc/security/limits.conf
#
#This file sets the resource limits for the users logged in via PAM.
#It does not affect resource limits of the system services.
#
#Also note that configuration files in /etc/security/limits.d directory,
#which are read in alphabetical order, override the settings in this
#file in case the domain is the same or more specific.
#That means, for example, that setting a limit for wildcard domain here
#can be overridden with a wildcard setting in a config file in the
#subdirectory, but a user specific setting here can be overridden only
#with a user specific setting in the subdirectory.
#
#Each line describes a limit for a user in the form:
#
#<domain>        <type>  <item>  <value>
#
#<domain> can be:
#        - a user name
#        - a group name, with @group syntax
#        - the wildcard *, for default entry
#
#<type> can have the two values:
#        - "soft" for enforcing the soft limits
#        - "hard" for enforcing hard limits
#        - "-" for both
#
#*               soft    core            0
#*               hard    rss             10000
#@student        hard    nproc           20
#@faculty        soft    nproc           20
#ftp             hard    nproc           0
#@student        -       maxlogins       4

{body}
# End of file
"""


def limits_hard(t, item):
    """effective hard value per domain: limits.conf then limits.d/*.conf by name; later lines win per domain"""
    files = ["etc/security/limits.conf"] + sorted(p for p in t if p.startswith("etc/security/limits.d/")
                                                   and p.endswith(".conf") and "/" not in p[len("etc/security/limits.d/"):])
    val = {}
    for p in files:
        for line in t.get(p, "").splitlines():
            w = line.split("#", 1)[0].split()
            if len(w) == 4 and w[2] == item and w[1] in ("hard", "-"):
                val[w[0]] = w[3]
    return val


@scenario
def r_limits():
    base = "*               hard    core            0\n*               hard    maxlogins       4\n"
    v = {"etc/security/limits.conf": LIMITS_CONF.format(body=base),
         "etc/security/limits.d/20-developers.conf": "# developers debug crashes locally (TKT-10201)\n"
                                                     "@developers     -       core            unlimited\n",
         "etc/security/limits.d/90-batch.conf": "# batch hosts open many sessions (TKT-10202)\n"
                                                "*               hard    maxlogins       12\n"}
    c = {"etc/security/limits.conf": LIMITS_CONF.format(body=base),
         "etc/security/limits.d/20-developers.conf": "# developers debug crashes locally (TKT-10201) -- rejected by SEC\n"
                                                     "#@developers     -       core            unlimited\n"
                                                     "@developers     soft    core            0\n",
         "etc/security/limits.d/90-batch.conf.rpmsave": v["etc/security/limits.d/90-batch.conf"],
         "etc/security/limits.d/95-ops.conf": "@ops            hard    maxlogins       4\nbatch           hard    maxlogins       2\n"
                                              "*               hard    nproc           4096\n*               soft    nofile          1024\n"}

    def bad(t):
        out = set()
        core = limits_hard(t, "core")
        if core.get("*") != "0" or any(x != "0" for x in core.values()): out.add("limits//core")
        ml = limits_hard(t, "maxlogins")
        if "*" not in ml or any(x in ("unlimited", "infinity", "-1") or int(x) > 4 for x in ml.values()):
            out.add("limits//maxlogins")
        return out
    RPRED["set10-rhel-login-limits"] = bad
    return S("set10-rhel-login-limits", None, "operator",
             "Ops standard for interactive hosts (pam_limits, /etc/security/limits.conf and the files ending in .conf in "
             "/etc/security/limits.d): (1) core dumps are off for every user: the hard core limit is 0 for the default "
             "domain `*` and no user or group entry raises it; (2) nobody may hold more than 4 concurrent logins: the "
             "hard maxlogins limit is at most 4 for `*` and for every user or group that has its own entry. Type `-` sets "
             "both the soft and the hard limit. pam_limits reads limits.conf first and then the limits.d files in name "
             "order; an entry for a user beats one for a group (@name), which beats the `*` entry, and among entries for "
             "the same domain the last one read wins. Without any entry core dumps are unlimited and logins are not "
             "limited, which fails. Other limits (processes, open files) are not this standard.", v, c,
             ["limits//core", "limits//maxlogins"],
             "hard core 0 and hard maxlogins <= 4 for * and every other domain. Violating: limits.conf is right, but "
             "limits.d/20-developers.conf sets `@developers - core unlimited` (`-` = soft and hard; the group entry beats "
             "`*`), and limits.d/90-batch.conf sets `* hard maxlogins 12` (read later, same domain). Compliant: the "
             "developers line is commented and only a soft core 0 remains; 90-batch.conf is an .rpmsave (not read); "
             "@ops 4 and user batch 2; nproc/nofile lines are other settings.",
             "`@developers - core unlimited` in a limits.d file; `* hard maxlogins 12` in a later limits.d file",
             platform="rhel9", classes=RHEL)


# r03 sshd: no passwords, no TCP tunnels (Match blocks) -----------------------------------------------------------
def sshd_blocks(t):
    """(global, [match blocks]) in read order; global values first-wins, each Match block's values first-wins"""
    import fnmatch
    glob, blocks = {}, []
    cur = [glob]

    def read(path):
        for line in t.get(path, "").splitlines():
            w = line.strip().split(None, 1)
            if not w or w[0].startswith("#"): continue
            k = w[0].lower()
            x = w[1].strip() if len(w) > 1 else ""
            if k == "match":
                blocks.append({})
                cur[0] = blocks[-1]
                continue
            if k == "include":
                for pat in x.split():
                    pat = pat.lstrip("/")
                    for p in sorted(y for y in t if fnmatch.fnmatch(y, pat)): read(p)
                continue
            cur[0].setdefault(k, x.lower())
    read("etc/ssh/sshd_config")
    return glob, blocks


@scenario
def r_sshd_pw_fwd():
    main = SSHD_MAIN.replace("{auth}", "PasswordAuthentication no\n").replace("{x11}", "X11Forwarding no\n") + \
        "\nAllowTcpForwarding no\n"
    v = {"etc/ssh/sshd_config": main + "\n# contractors have no keys yet (TKT-10301)\nMatch Group contractors\n"
                                       "\tPasswordAuthentication yes\n\tX11Forwarding no\n",
         "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50,
         "etc/ssh/sshd_config.d/30-devtunnels.conf": "# developers reach staging databases through port forwards (TKT-10302)\n"
                                                     "AllowTcpForwarding local\n"}
    c = {"etc/ssh/sshd_config": main + "\n# contractors have no keys yet (TKT-10301) -- rejected, keys issued\n"
                                       "Match Group contractors\n\t#PasswordAuthentication yes\n\tX11Forwarding no\n"
                                       "\tAllowTcpForwarding no\n\nMatch Address 10.20.0.0/16\n\tPasswordAuthentication no\n",
         "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50,
         "etc/ssh/sshd_config.d/20-cis.conf": "# CIS 5.2.x: all forwarding off (CHG-10303)\nDisableForwarding yes\n",
         "etc/ssh/sshd_config.d/30-devtunnels.conf": "# developers reach staging databases through port forwards (TKT-10302)\n"
                                                     "AllowTcpForwarding yes\n",
         "etc/ssh/sshd_config.d/40-gssapi.conf.bak": "PasswordAuthentication yes\n"}

    def bad(t):
        g, blocks = sshd_blocks(t)
        out = set()
        if g.get("passwordauthentication", "yes") != "no" or any(b.get("passwordauthentication", "no") != "no" for b in blocks):
            out.add("sshd//PasswordAuthentication")
        df = g.get("disableforwarding", "no") == "yes" and all(b.get("disableforwarding", "yes") == "yes" for b in blocks)
        if not df and (g.get("allowtcpforwarding", "yes") != "no" or any(b.get("allowtcpforwarding", "no") != "no" for b in blocks)):
            out.add("sshd//AllowTcpForwarding")
        return out
    RPRED["set10-rhel-ssh-no-passwords-no-tunnels"] = bad
    return S("set10-rhel-ssh-no-passwords-no-tunnels", None, "effect",
             "Over SSH, (1) nobody may log in with a password, whoever they are and wherever they connect from, and (2) "
             "an SSH connection must not be usable to tunnel TCP traffic in either direction, for any user. Judge the SSH "
             "daemon as it will actually run: it reads /etc/ssh/sshd_config and the files it includes (sshd_config.d/*.conf "
             "first, in name order, and the crypto-policy file), keeps the first value it reads for each option, and "
             "applies the options inside a Match block, instead of the general ones, to the connections that block "
             "matches. Option names are case-insensitive. Out of the box OpenSSH allows password login and TCP "
             "forwarding, which fails; an option that switches off every kind of forwarding achieves (2) whatever the "
             "TCP-specific option says. Keyboard-interactive login is off in every variant of the material, and other "
             "forwarding kinds are not judged.", v, c, ["sshd//PasswordAuthentication", "sshd//AllowTcpForwarding"],
             "PasswordAuthentication no globally and in every Match block (default yes); TCP forwarding off: "
             "AllowTcpForwarding no (default yes) globally and in every Match block, or DisableForwarding yes. Violating: "
             "the global PasswordAuthentication no is undone for `Match Group contractors`; 30-devtunnels.conf "
             "(`AllowTcpForwarding local`, still a tunnel) is read before the main file's `no`. Compliant: the Match line is "
             "commented; 20-cis.conf sets DisableForwarding yes, so 30-devtunnels.conf's `yes` has no effect; a Match "
             "Address block repeats `no`; a .bak drop-in is not included.",
             "a Match Group block re-enables passwords; a drop-in read first sets AllowTcpForwarding local",
             platform="rhel9", classes=RHEL)


# r04 sudo never without a password ---------------------------------------------------------------------------------
def sudo_lines(t):
    """non-comment lines in read order; #includedir skips file names containing a dot or ending in ~"""
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
            out.append(s)
    read("etc/sudoers")
    return out


@scenario
def r_sudo_auth():
    stock = SUDOERS.format(defaults="").replace(
        "%wheel\tALL=(ALL)\tALL\n", "%wheel\tALL=(ALL)\tALL\n\n## Same thing without a password\n# %wheel\tALL=(ALL)\tNOPASSWD: ALL\n")
    v = {"etc/sudoers": stock,
         "etc/sudoers.d/10-ops": "# ops on-call\n%ops ALL=(ALL) ALL\nDefaults:%ops timestamp_timeout=30\n",
         "etc/sudoers.d/20-deploy": "# deploy pipeline restarts (TKT-10401)\n"
                                    "Cmnd_Alias DEPLOY = /usr/bin/systemctl restart app-*, /usr/bin/rsync\n"
                                    "Defaults!DEPLOY !authenticate\ndeploy ALL=(root) DEPLOY\n",
         "etc/sudoers.d/30-backup": "# backup operator (TKT-10402)\nbackup ALL=(root) PASSWD: /usr/bin/tar, NOPASSWD: /usr/bin/rsync\n"}
    c = {"etc/sudoers": stock,
         "etc/sudoers.d/10-ops": v["etc/sudoers.d/10-ops"],
         "etc/sudoers.d/20-deploy": "# deploy pipeline restarts (TKT-10401)\n"
                                    "Cmnd_Alias DEPLOY = /usr/bin/systemctl restart app-*, /usr/bin/rsync\n"
                                    "Defaults!DEPLOY !requiretty\ndeploy ALL=(root) DEPLOY\n",
         "etc/sudoers.d/30-backup": "# backup operator (TKT-10402)\nbackup ALL=(root) PASSWD: /usr/bin/tar, /usr/bin/rsync\n",
         "etc/sudoers.d/40-ci.conf": "# CI runner (TKT-10403) -- file name has a dot, sudo never reads it\n"
                                     "ci ALL=(ALL) NOPASSWD: ALL\nDefaults:ci !authenticate\n"}

    def bad(t):
        out = set()
        for s in sudo_lines(t):
            if s.startswith("Defaults"):
                items = [x.strip() for x in s.split(None, 1)[1].split(",")]
                if "!authenticate" in items: out.add("sudoers//authenticate")
            elif re.search(r"\bNOPASSWD\s*:", s): out.add("sudoers//NOPASSWD")
        return out
    RPRED["set10-rhel-sudo-always-reauth"] = bad
    return S("set10-rhel-sudo-always-reauth", None, "auditor",
             "Audit check PRIV-11 (RHEL 9): no sudo rule may let anyone run a command without authenticating. Finding if "
             "anything sudo reads gives a rule the NOPASSWD tag, or contains a Defaults entry that turns off "
             "authenticate (!authenticate), whether global or limited to particular users, hosts, run-as users or "
             "commands. sudo reads /etc/sudoers and the files named by its #includedir line (that # is a directive, not a "
             "comment), skipping included files whose names contain a dot or end in ~; other lines starting with # are "
             "comments. A tag applies to the commands after it on the same line until another tag changes it; PASSWD "
             "requires the password. Credential caching times and other Defaults are audited elsewhere.", v, c,
             ["sudoers//NOPASSWD", "sudoers//authenticate"],
             "no NOPASSWD tag and no !authenticate Defaults in anything sudo reads. Violating: a command-scoped "
             "`Defaults!DEPLOY !authenticate` in an included drop-in; `PASSWD: /usr/bin/tar, NOPASSWD: /usr/bin/rsync` "
             "(the second tag). Compliant: the stock `# %wheel ... NOPASSWD: ALL` is a comment; `Defaults!DEPLOY "
             "!requiretty` (look-alike); both backup commands under PASSWD; 40-ci.conf (dot in the name) is skipped; "
             "`Defaults:%ops timestamp_timeout=30` and `!visiblepw` are other settings.",
             "`Defaults!DEPLOY !authenticate` in an included drop-in; a NOPASSWD tag after a PASSWD one on the same line",
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
