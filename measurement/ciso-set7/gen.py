#!/usr/bin/env python3
"""ciso-set7 (blind-ciso7): held-out CISO scenarios in the project's user format: 15 Kubernetes scenarios (kyverno,
kubectl-opa, opa-static) and 5 RHEL 9 ones (rhel9-ansible-opa), on controls that none of ciso-set2..6 has. Labels are
fixed by construction below; every run self-checks every scenario with my own predicate (PRED for Kubernetes, RPRED for
RHEL 9): it must flag exactly violating_resources in violating/ and nothing in compliant/. The YAML emitter, object
helpers, the systemd-sysctl and sshd readers and the RHEL file templates are copied from measurement/ciso-set6/gen.py.
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


# k01 hostAliases ------------------------------------------------------------------------------------------
@scenario
def host_aliases():
    HA = [{"ip": "10.20.0.15", "hostnames": ["ledger.bank.example", "api.bank.example"]}]

    def objs(bad):
        return [ns("web"), ns("batch"), ns("ops"),
                wl("Deployment", "web", "frontend", one("frontend", hostAliases=HA if bad else [])),
                wl("CronJob", "batch", "ledger-export", podspec([ctr("export", tagged("batch/export", "1.1"))],
                                                                **({"hostAliases": [{"ip": "127.0.0.1", "hostnames": ["s3.local"]}]} if bad else {}))),
                wl("Pod", "ops", "net-debug", podspec([ctr("shell", tagged("tools/netshoot", "0.11"))],
                                                      **({"hostAliases": HA} if bad else {"hostname": "net-debug", "subdomain": "tools"}))),
                # near misses: hostname/subdomain (the pod's own name); custom nameservers (another control); a ConfigMap called hosts
                wl("StatefulSet", "web", "cache", one("cache", hostname="cache", subdomain="cache")),
                wl("Deployment", "batch", "resolver", one("resolver", dnsPolicy="None",
                                                          dnsConfig={"nameservers": ["10.0.0.2"], "searches": ["corp.example"]})),
                cm("ops", "hosts", {"hosts": "10.20.0.15 ledger.bank.example\n"})]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if sp.get("hostAliases")}
    PRED["set7-no-private-hosts-entries"] = bad
    return S("set7-no-private-hosts-entries", None, "effect",
             "No workload may make its pods resolve host names differently from everyone else by having Kubernetes write "
             "extra name-to-address entries into the pods' hosts file. This applies to every pod, created directly or from "
             "any controller template (Deployment, StatefulSet, DaemonSet, Job, CronJob). Setting the pod's own host name "
             "or subdomain, and choosing DNS servers, are not covered by this requirement.",
             objs(True), objs(False), ["Deployment/web/frontend", "CronJob/batch/ledger-export", "Pod/ops/net-debug"],
             "These are spec.hostAliases entries. Violating: a Deployment, a CronJob's pod template, a bare Pod. Near misses "
             "(both): `hostAliases: []` (no entries) on the compliant Deployment, hostname/subdomain on a StatefulSet and a "
             "Pod, a Deployment with dnsPolicy None + dnsConfig nameservers (another control), a ConfigMap named hosts.",
             "a pod spec with hostAliases entries")


# k02 termination grace --------------------------------------------------------------------------------------
@scenario
def grace_bounds():
    def objs(bad):
        probe = {"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 10, "terminationGracePeriodSeconds": 1}
        return [ns("ops"), ns("data"), ns("batch"),
                wl("Pod", "ops", "fast-kill", one("fast-kill", terminationGracePeriodSeconds=0 if bad else 15)),
                wl("StatefulSet", "data", "pg", one("pg", terminationGracePeriodSeconds=600 if bad else 120)),
                wl("CronJob", "batch", "cleanup", one("cleanup", terminationGracePeriodSeconds=5 if bad else 10)),
                # near misses: no value (30 s default); exactly 10 and 120; a probe-level grace of 1 s; a preStop sleep
                wl("Deployment", "ops", "api", podspec([ctr("api", tagged("ops/api", "3.0"), livenessProbe=probe)])),
                wl("DaemonSet", "ops", "agent", one("agent", terminationGracePeriodSeconds=120)),
                wl("Deployment", "data", "proxy", podspec([ctr("proxy", tagged("data/proxy", "1.0"),
                                                               lifecycle={"preStop": {"exec": {"command": ["sleep", "200"]}}})],
                                                          terminationGracePeriodSeconds=10))]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if not 10 <= sp.get("terminationGracePeriodSeconds", 30) <= 120}
    PRED["set7-shutdown-grace-window"] = bad
    return S("set7-shutdown-grace-window", None, "operator",
             "Platform rule for all namespaces: when a pod is asked to stop, it must be given at least 10 and at most 120 "
             "seconds (both inclusive) to shut down before it is killed. Pods that do not state a shutdown period get "
             "Kubernetes' default of 30 seconds, which is within the window. The shorter period some clusters apply after a "
             "failed liveness check is a per-check override and is not what this rule is about. Check every pod and every "
             "pod template.",
             objs(True), objs(False), ["Pod/ops/fast-kill", "StatefulSet/data/pg", "CronJob/batch/cleanup"],
             "terminationGracePeriodSeconds of the pod spec. Violating: 0 on a bare Pod, 600 on a StatefulSet, 5 in a "
             "CronJob's template. Near misses (both): no value (30), exactly 10 and exactly 120, a livenessProbe with "
             "terminationGracePeriodSeconds 1 (probe-level), a preStop sleep 200 (not the grace period).",
             "pod terminationGracePeriodSeconds outside 10..120 (default 30)")


# k03 job deadline -------------------------------------------------------------------------------------------
@scenario
def job_deadline():
    def objs(bad):
        return [ns("etl"), ns("reports"), ns("ml"),
                job("etl", "backfill", one("backfill"), deadline=None if bad else 7200, backoff=2),
                job("reports", "weekly", one("weekly"), deadline=None if bad else 3600, pod_deadline=3600, cron=True,
                    concurrency="Forbid", backoff=2, starting=300),
                job("ml", "retrain", one("retrain"), deadline=86400 if bad else 14400, cron=True, concurrency="Forbid", backoff=1),
                # near misses: exactly 14400; a long-running Deployment (not batch); a startingDeadlineSeconds with a real deadline
                job("etl", "compact", one("compact"), deadline=14400, backoff=3),
                job("ml", "features", one("features"), deadline=600, cron=True, concurrency="Replace", starting=86400, backoff=0),
                wl("Deployment", "etl", "scheduler", one("scheduler"))]

    def bad(O):
        out = set()
        for o in O:
            js = jspec(o)
            if js is not None and not (0 < js.get("activeDeadlineSeconds", 0) <= 14400): out.add(rid(o))
        return out
    PRED["set7-batch-time-limit"] = bad
    return S("set7-batch-time-limit", None, "effect",
             "No batch job may run without a time limit: every Job, including each Job a CronJob starts, must be "
             "terminated by Kubernetes once it has been active for at most 4 hours (14400 seconds) in total, whatever "
             "retries happen in between. A time limit on the individual pods of a Job does not bound the Job (a pod that is "
             "stopped is replaced by a new one), and a limit on how late a scheduled run may start does not bound how long "
             "it runs. Long-running services are out of scope.",
             objs(True), objs(False), ["Job/etl/backfill", "CronJob/reports/weekly", "CronJob/ml/retrain"],
             "Job spec.activeDeadlineSeconds (for a CronJob: spec.jobTemplate.spec.activeDeadlineSeconds), present and "
             "<= 14400. Violating: a Job with none; a CronJob whose only deadline is the pod template's "
             "activeDeadlineSeconds (plus startingDeadlineSeconds 300); a CronJob with 86400. Near misses (both): exactly "
             "14400, a CronJob with startingDeadlineSeconds 86400 and a 600 s Job deadline, a Deployment without any.",
             "a Job or CronJob job template without activeDeadlineSeconds <= 14400 (pod-level deadlines do not count)")


# k04 job retries ---------------------------------------------------------------------------------------------
@scenario
def job_retries():
    def objs(bad):
        return [ns("etl"), ns("billing"), ns("ops"),
                job("etl", "import", one("import"), deadline=3600, backoff="unset" if bad else 3),
                job("billing", "invoices", one("invoices"), deadline=3600, backoff=10 if bad else 1, cron=True, concurrency="Forbid"),
                job("ops", "rotate", one("rotate"), deadline=600, backoff="unset" if bad else 0, cron=True, concurrency="Replace"),
                # near misses: 0 and 3, parallel Job with completions, a Deployment
                job("etl", "shards", dict(one("shards")), deadline=3600, backoff=3),
                wl("Deployment", "billing", "api", one("api"))]

    def bad(O):
        return {rid(o) for o in O if jspec(o) is not None and jspec(o).get("backoffLimit", 6) > 3}
    PRED["set7-bounded-retries"] = bad
    return S("set7-bounded-retries", None, "effect",
             "A failing batch job must give up quickly: no Job, including the Jobs that CronJobs create, may retry its "
             "failed pods more than 3 times before the Job is marked failed. When a Job does not state a retry limit, "
             "Kubernetes retries up to 6 times. Long-running services are out of scope.",
             objs(True), objs(False), ["Job/etl/import", "CronJob/billing/invoices", "CronJob/ops/rotate"],
             "Job spec.backoffLimit (CronJob: jobTemplate.spec.backoffLimit), default 6, must be <= 3. Violating: a Job "
             "with none, a CronJob with 10, a CronJob with none. Near misses (both): 0, 1 and 3, a Deployment.",
             "backoffLimit absent (6) or above 3 on a Job or CronJob job template")


# k05 cron overlap -----------------------------------------------------------------------------------------
@scenario
def cron_overlap():
    def objs(bad):
        return [ns("billing"), ns("ops"), ns("ml"),
                job("billing", "settle", one("settle"), deadline=3600, backoff=1, cron=True, concurrency=None if bad else "Forbid"),
                job("ops", "backup", one("backup"), deadline=3600, backoff=1, cron=True, concurrency="Allow" if bad else "Replace"),
                job("ml", "nightly-train", one("trainer"), deadline=7200, backoff=1, cron=True, suspend=True,
                    concurrency=None if bad else "Forbid", starting=600),
                # near misses: a plain Job (no schedule); Forbid with a start deadline
                job("ops", "one-off", one("one-off"), deadline=600, backoff=0),
                job("billing", "reconcile", one("reconcile"), deadline=1800, backoff=1, cron=True, concurrency="Forbid", starting=120)]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "CronJob" and o["spec"].get("concurrencyPolicy", "Allow") not in ("Forbid", "Replace")}
    PRED["set7-no-overlapping-runs"] = bad
    return S("set7-no-overlapping-runs", None, "effect",
             "A scheduled job must never have two of its runs active at the same time: if a run is still going when the "
             "next one is due, the new run must either be skipped or take the place of the old one. Unless a schedule says "
             "otherwise, Kubernetes starts the new run alongside the one still running. Schedules that are currently "
             "paused are in scope too (they can be resumed at any time). One-off jobs are out of scope.",
             objs(True), objs(False), ["CronJob/billing/settle", "CronJob/ops/backup", "CronJob/ml/nightly-train"],
             "CronJob spec.concurrencyPolicy must be Forbid or Replace (default Allow). Violating: none set, Allow, none "
             "set on a suspended CronJob (with a startingDeadlineSeconds, which does not prevent overlap). Near misses: a "
             "plain Job; Forbid with startingDeadlineSeconds; Replace.",
             "CronJob concurrencyPolicy absent or Allow (suspended ones included)")


# k06 production replicas --------------------------------------------------------------------------------
@scenario
def prod_replicas():
    def objs(bad):
        o = [ns("payments", {"env": "production", "team": "payments"}), ns("checkout", {"env": "production"}),
             ns("analytics", {"env": "preproduction"}), ns("staging", {"env": "staging"})]
        d = wl("Deployment", "payments", "api", one("api"))
        if bad: del d["spec"]["replicas"]
        s = wl("StatefulSet", "payments", "ledger-db", one("ledger-db"))
        s["spec"]["replicas"] = 1 if bad else 3
        c = wl("Deployment", "checkout", "cart", one("cart"))
        c["spec"]["replicas"] = 0 if bad else 2
        o += [d, s, c]
        # near misses: a preproduction and a staging Deployment with 1 replica; a production DaemonSet; a CronJob
        for n, nsn in (("report-ui", "analytics"), ("preview", "staging")):
            x = wl("Deployment", nsn, n, one(n))
            x["spec"]["replicas"] = 1
            o.append(x)
        o.append(wl("DaemonSet", "payments", "log-agent", one("log-agent")))
        o.append(job("checkout", "prune", one("prune"), deadline=600, backoff=1, cron=True, concurrency="Forbid"))
        return o

    def bad(O):
        prod = {n["metadata"]["name"] for n in O if n["kind"] == "Namespace" and n["metadata"]["labels"].get("env") == "production"}
        return {rid(o) for o in O if o["kind"] in ("Deployment", "StatefulSet") and o["metadata"]["namespace"] in prod
                and o["spec"].get("replicas", 1) < 2}
    PRED["set7-production-redundancy"] = bad
    return S("set7-production-redundancy", None, "operator",
             "Platform rule: every Deployment and StatefulSet in a namespace labelled `env: production` must be declared "
             "with at least 2 replicas, so that losing one pod or node never takes the service down. When a replica "
             "count is not given, Kubernetes runs 1. Namespaces with any other `env` value (staging, preproduction, ...) "
             "are out of scope, as are DaemonSets, Jobs and CronJobs. Judge the declared objects (there are no "
             "autoscalers in these clusters).",
             objs(True), objs(False), ["Deployment/payments/api", "StatefulSet/payments/ledger-db", "Deployment/checkout/cart"],
             "spec.replicas (default 1) >= 2 in env=production namespaces. Violating: no replicas field, replicas 1, "
             "replicas 0 (scaled to zero). Near misses (both): env=preproduction (contains 'production') and env=staging "
             "namespaces with 1 replica, a production DaemonSet and CronJob.",
             "Deployment/StatefulSet in an env=production namespace with replicas absent (1), 1 or 0")


# k07 control-plane tolerations -----------------------------------------------------------------------------
CP_KEYS = ("node-role.kubernetes.io/control-plane", "node-role.kubernetes.io/master")


def tolerates(t, key, value, effect):
    op = t.get("operator", "Equal")
    if t.get("effect") and t["effect"] != effect: return False
    if not t.get("key"): return op == "Exists"
    if t["key"] != key: return False
    return op == "Exists" or t.get("value", "") == value


@scenario
def cp_tolerations():
    def objs(bad):
        ne = [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]
        return [ns("monitoring"), ns("ci"), ns("ops"), ns("kube-system", {}),
                wl("DaemonSet", "monitoring", "node-exporter", one("node-exporter",
                   tolerations=[{"operator": "Exists"}] if bad else [{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}])),
                wl("Deployment", "ci", "runner", one("runner", tolerations=ne + (
                    [{"key": "node-role.kubernetes.io/master", "operator": "Exists", "effect": "NoSchedule"}] if bad else []))),
                wl("CronJob", "ops", "etcd-check", one("etcd-check", tolerations=[
                    {"key": "node-role.kubernetes.io/control-plane", "operator": "Exists"} if bad else
                    {"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoExecute"}])),
                # near misses: kube-system may; a key-less Exists limited to NoExecute; Equal with a value the taint lacks
                wl("DaemonSet", "kube-system", "kube-proxy", one("kube-proxy", tolerations=[{"operator": "Exists"}])),
                wl("DaemonSet", "monitoring", "log-shipper", one("log-shipper", tolerations=[{"operator": "Exists", "effect": "NoExecute"}])),
                wl("Deployment", "ops", "console", one("console", tolerations=[
                    {"key": "node-role.kubernetes.io/control-plane", "operator": "Equal", "value": "true", "effect": "NoSchedule"}]))]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if o["metadata"].get("namespace") != "kube-system"
                and any(tolerates(t, k, "", "NoSchedule") for t in sp.get("tolerations", []) for k in CP_KEYS)}
    PRED["set7-keep-off-control-plane"] = bad
    return S("set7-keep-off-control-plane", None, "effect",
             "Workloads outside kube-system must not be able to run on control-plane nodes. Control-plane nodes carry the "
             "taint `node-role.kubernetes.io/control-plane` with no value and effect NoSchedule (older nodes: "
             "`node-role.kubernetes.io/master`, no value, NoSchedule); a pod can be placed there only if it tolerates that "
             "taint. A toleration covers a taint when the keys match (a toleration without a key that uses the Exists "
             "operator covers every key), the values match (Exists covers any value; Equal needs the same value, and "
             "these taints have none), and the effects match (a toleration without an effect covers every effect). Report "
             "every object whose pods could be placed on a control-plane node.",
             objs(True), objs(False), ["DaemonSet/monitoring/node-exporter", "Deployment/ci/runner", "CronJob/ops/etcd-check"],
             "Violating: a key-less `operator: Exists` (tolerates everything); the legacy master key with Exists/NoSchedule "
             "next to a not-ready toleration; the control-plane key with Exists and no effect in a CronJob. Near misses "
             "(both): kube-proxy in kube-system (exempt), key-less Exists limited to NoExecute, control-plane key with "
             "Exists/NoExecute, Equal with value \"true\" (the taint has no value), a dedicated=gpu toleration.",
             "a toleration matching node-role.kubernetes.io/{control-plane,master}:NoSchedule outside kube-system")


# k08 nodeName -------------------------------------------------------------------------------------------
@scenario
def node_pinning():
    def objs(bad):
        aff = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["worker-2"]}]}]}}}
        return [ns("ops"), ns("data"),
                wl("Pod", "ops", "debug-node-7", one("debug", **({"nodeName": "worker-7"} if bad else {"nodeSelector": {"kubernetes.io/hostname": "worker-7"}}))),
                wl("StatefulSet", "data", "zk", one("zk", **({"nodeName": "worker-3"} if bad else {"affinity": aff}))),
                wl("CronJob", "ops", "disk-check", one("disk-check", **({"nodeName": "worker-1"} if bad else {}))),
                # near misses: hostname (the pod's own name), nodeSelector on hostname, matchFields affinity
                wl("Deployment", "data", "etl", one("etl", hostname="worker-1", nodeSelector={"kubernetes.io/hostname": "worker-1"})),
                wl("DaemonSet", "ops", "node-agent", one("node-agent", affinity=aff))]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if sp.get("nodeName")}
    PRED["set7-no-scheduler-bypass"] = bad
    return S("set7-no-scheduler-bypass", None, "auditor",
             "Audit item: no pod may be bound to a node directly by name, bypassing the scheduler (and with it its "
             "resource, taint and affinity checks). Steering pods with node labels or node affinity is acceptable, even "
             "when the label or field used is the node's name, because the scheduler still evaluates it. Check bare pods "
             "and every pod template, and report each object whose pods would be bound directly.",
             objs(True), objs(False), ["Pod/ops/debug-node-7", "StatefulSet/data/zk", "CronJob/ops/disk-check"],
             "spec.nodeName in a pod or pod template. Violating: a bare Pod, a StatefulSet, a CronJob template. Near "
             "misses (both): nodeSelector kubernetes.io/hostname, required nodeAffinity matchFields metadata.name, "
             "`hostname: worker-1` (the pod's own host name).",
             "nodeName set in a pod or pod template")


# k09 probes ---------------------------------------------------------------------------------------------
def probe(path="/healthz", port=8080): return {"httpGet": {"path": path, "port": port}, "periodSeconds": 10}


@scenario
def health_probes():
    def full(name, path=None, **kw):
        return ctr(name, tagged(path or f"apps/{name}", "2.4"), livenessProbe=probe(), readinessProbe=probe("/ready"), **kw)

    def objs(bad):
        envoy = ctr("envoy", tagged("mesh/envoy", "1.29"), readinessProbe=probe("/ready", 9901),
                    **({} if bad else {"livenessProbe": probe("/server_info", 9901)}))
        es = ctr("es", tagged("search/es", "8.13"), livenessProbe=probe(), startupProbe=probe(),
                 **({} if bad else {"readinessProbe": probe("/_cluster/health")}))
        fd = ctr("fluentd", tagged("logging/fluentd", "1.16"), readinessProbe=probe(),
                 **({"startupProbe": probe()} if bad else {"livenessProbe": probe()}))
        return [ns("shop"), ns("search"), ns("logging"),
                wl("Deployment", "shop", "cart", podspec([full("cart"), envoy])),
                wl("StatefulSet", "search", "es", podspec([es], init=[ctr("sysctl-wait", tagged("tools/busybox", "1.36"))])),
                wl("DaemonSet", "logging", "fluentd", podspec([fd])),
                # near misses: init containers, Jobs/CronJobs and bare Pods without probes; all three probes
                wl("Deployment", "shop", "checkout", podspec([full("checkout", startupProbe=probe())],
                                                            init=[ctr("migrate", tagged("shop/migrate", "1.0"))])),
                job("search", "reindex", one("reindex"), deadline=3600, backoff=1, cron=True, concurrency="Forbid"),
                wl("Pod", "logging", "debug-shell", one("shell"))]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if o["kind"] in ("Deployment", "StatefulSet", "DaemonSet")
                and any(not (c.get("livenessProbe") and c.get("readinessProbe")) for c in sp.get("containers", []))}
    PRED["set7-health-checks-declared"] = bad
    return S("set7-health-checks-declared", None, "auditor",
             "Audit item: every long-running container must declare both a liveness check (so a hung process is restarted) "
             "and a readiness check (so it gets no traffic until it can serve). Long-running containers are the regular "
             "containers of Deployments, StatefulSets and DaemonSets, sidecars included. Init containers, debug "
             "containers, Jobs, CronJobs and bare Pods are out of scope. A startup check replaces neither. Report each "
             "workload with at least one container that lacks either check.",
             objs(True), objs(False), ["Deployment/shop/cart", "StatefulSet/search/es", "DaemonSet/logging/fluentd"],
             "Violating: the second (envoy) container of a Deployment has readiness only; a StatefulSet with liveness + "
             "startup but no readiness; a DaemonSet with readiness + startup. Near misses (both): init containers "
             "without probes, a CronJob and a bare Pod without probes, a container with all three.",
             "a regular container of a Deployment/StatefulSet/DaemonSet without both livenessProbe and readinessProbe")


# k10 ConfigMap immutability -----------------------------------------------------------------------------
@scenario
def cm_immutable():
    def icm(namespace, name, data, immutable="unset", annotations=None):
        o = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(name, namespace, annotations=annotations), "data": data}
        if immutable != "unset": o["immutable"] = immutable
        return o

    def objs(bad):
        return [ns("payments", {"env": "production"}), ns("checkout", {"env": "production"}), ns("staging", {"env": "staging"}),
                icm("payments", "api-config", {"LOG_LEVEL": "info", "TIMEOUT": "30s"}, "unset" if bad else True),
                icm("payments", "feature-flags", {"flags.json": "{\"newCheckout\": false}\n"}, False if bad else True),
                icm("checkout", "nginx-conf", {"nginx.conf": "worker_processes 2;\n"}, "unset" if bad else True,
                    annotations={"config.acme.io/immutable": "true"}),
                # near misses: kube-root-ca.crt (exempt), staging ConfigMaps, a mutable Secret in production
                icm("payments", "kube-root-ca.crt", {"ca.crt": "-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----\n"}),
                icm("staging", "api-config", {"LOG_LEVEL": "debug"}, False),
                secret("payments", "api-keys", data={"token": b64("not-a-real-token")})]

    def bad(O):
        prod = {n["metadata"]["name"] for n in O if n["kind"] == "Namespace" and n["metadata"]["labels"].get("env") == "production"}
        return {rid(o) for o in O if o["kind"] == "ConfigMap" and o["metadata"]["namespace"] in prod
                and o["metadata"]["name"] != "kube-root-ca.crt" and o.get("immutable") is not True}
    PRED["set7-frozen-production-config"] = bad
    return S("set7-frozen-production-config", None, "operator",
             "Change-management rule: in namespaces labelled `env: production`, every ConfigMap must be marked immutable "
             "when it is created, so that configuration changes reach production only as a new ConfigMap and a rollout. "
             "ConfigMaps are mutable unless marked otherwise. The `kube-root-ca.crt` ConfigMap that Kubernetes publishes "
             "into every namespace is exempt. Secrets, and ConfigMaps in other namespaces, are out of scope.",
             objs(True), objs(False), ["ConfigMap/payments/api-config", "ConfigMap/payments/feature-flags", "ConfigMap/checkout/nginx-conf"],
             "ConfigMap `immutable: true`. Violating: no field; `immutable: false`; no field but an annotation "
             "`config.acme.io/immutable: \"true\"` (an annotation changes nothing). Near misses (both): kube-root-ca.crt "
             "without the field (exempt), a mutable ConfigMap in env=staging, a mutable Secret in production.",
             "a ConfigMap in an env=production namespace (not kube-root-ca.crt) without immutable: true")


# k11 client source IP ------------------------------------------------------------------------------------
@scenario
def source_ip():
    LB = [{"name": "https", "port": 443, "targetPort": 8443}]

    def objs(bad):
        return [ns("shop"), ns("ops"), ns("api"),
                svcx("shop", "storefront", "LoadBalancer", LB, **({} if bad else {"externalTrafficPolicy": "Local"})),
                svcx("ops", "ssh-bastion", "NodePort", [{"name": "ssh", "port": 22, "targetPort": 22, "nodePort": 30022}],
                     externalTrafficPolicy="Cluster" if bad else "Local"),
                svcx("api", "gateway", "LoadBalancer", LB, **({"internalTrafficPolicy": "Local"} if bad else
                                                             {"externalTrafficPolicy": "Local", "internalTrafficPolicy": "Cluster"})),
                # near misses: ClusterIP and headless Services without the setting
                svcx("shop", "cart", None, internalTrafficPolicy="Local"),
                svcx("api", "gateway-peers", None, clusterIP="None")]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "Service" and o["spec"].get("type") in ("NodePort", "LoadBalancer")
                and o["spec"].get("externalTrafficPolicy", "Cluster") != "Local"}
    PRED["set7-preserve-client-address"] = bad
    return S("set7-preserve-client-address", None, "effect",
             "Backends behind every Service that is reachable from outside the cluster (through node ports or a cloud load "
             "balancer) must see the real client address: traffic arriving from outside must be delivered only to pods on "
             "the node that received it, never forwarded to another node with its source address rewritten. Kubernetes "
             "forwards external traffic across nodes (and rewrites the source) unless a Service asks otherwise. How "
             "traffic from inside the cluster is routed does not matter here, and Services reachable only inside the "
             "cluster are out of scope.",
             objs(True), objs(False), ["Service/shop/storefront", "Service/ops/ssh-bastion", "Service/api/gateway"],
             "spec.externalTrafficPolicy must be Local on NodePort and LoadBalancer Services (default Cluster). "
             "Violating: a LoadBalancer without it; a NodePort with Cluster; a LoadBalancer with internalTrafficPolicy "
             "Local only (the wrong direction). Near misses (both): a ClusterIP Service with internalTrafficPolicy Local, "
             "a headless Service.",
             "NodePort/LoadBalancer Service whose externalTrafficPolicy is not Local (default Cluster)")


# k12 RWX claims -----------------------------------------------------------------------------------------
def pvc(namespace, name, modes, size="10Gi", sc_="standard"):
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": meta(name, namespace),
            "spec": {"accessModes": modes, "storageClassName": sc_, "resources": {"requests": {"storage": size}}}}


@scenario
def shared_rw():
    def objs(bad):
        st = wl("StatefulSet", "data", "shared-cache", one("cache", volumes=[]))
        st["spec"]["template"]["spec"].pop("volumes")
        st["spec"]["template"]["spec"]["containers"][0]["volumeMounts"] = [{"name": "cache", "mountPath": "/var/cache/app"}]
        st["spec"]["volumeClaimTemplates"] = [{"metadata": {"name": "meta"}, "spec": {"accessModes": ["ReadWriteOnce"],
                                                "resources": {"requests": {"storage": "1Gi"}}}},
                                               {"metadata": {"name": "cache"}, "spec": {
                                                   "accessModes": ["ReadWriteMany"] if bad else ["ReadWriteOncePod"],
                                                   "resources": {"requests": {"storage": "50Gi"}}}}]
        web = wl("Deployment", "media", "web", one("web", volumes=[{"name": "assets", "persistentVolumeClaim": {"claimName": "assets", "readOnly": True}}]))
        return [ns("media"), ns("data"), ns("ml"),
                pvc("media", "uploads", ["ReadWriteOnce", "ReadWriteMany"] if bad else ["ReadWriteOnce"]),
                st,
                pvc("ml", "datasets", ["ReadWriteMany"] if bad else ["ReadOnlyMany"], "500Gi", "nfs"),
                # near misses: ReadOnlyMany, ReadWriteOncePod, a read-only mount; an NFS PersistentVolume offering RWX
                pvc("media", "assets", ["ReadOnlyMany"], "20Gi", "nfs"), web,
                {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": meta("nfs-datasets"),
                 "spec": {"capacity": {"storage": "500Gi"}, "accessModes": ["ReadWriteMany", "ReadOnlyMany"],
                          "persistentVolumeReclaimPolicy": "Retain", "storageClassName": "nfs",
                          "nfs": {"server": "10.0.8.20", "path": "/exports/datasets"}}}]

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] == "PersistentVolumeClaim" and "ReadWriteMany" in o["spec"].get("accessModes", []): out.add(rid(o))
            if o["kind"] == "StatefulSet" and any("ReadWriteMany" in t["spec"].get("accessModes", [])
                                                  for t in o["spec"].get("volumeClaimTemplates", [])): out.add(rid(o))
        return out
    PRED["set7-no-multi-node-writers"] = bad
    return S("set7-no-multi-node-writers", None, "effect",
             "No storage claim may allow pods on more than one node to write to the same volume at the same time. Claims "
             "that are read-only when shared across nodes, or writable by a single node or a single pod, are fine. This "
             "covers claims created directly and the claims a StatefulSet creates from its templates; judge what each "
             "claim requests (what a pre-provisioned volume could offer does not matter).",
             objs(True), objs(False), ["PersistentVolumeClaim/media/uploads", "StatefulSet/data/shared-cache",
                                       "PersistentVolumeClaim/ml/datasets"],
             "accessModes containing ReadWriteMany. Violating: a PVC asking [ReadWriteOnce, ReadWriteMany] (second mode), "
             "the second volumeClaimTemplate of a StatefulSet, a PVC with ReadWriteMany on nfs. Near misses (both): "
             "ReadOnlyMany, ReadWriteOncePod, a Deployment mounting a claim readOnly, an NFS PersistentVolume offering "
             "ReadWriteMany (a volume, not a claim).",
             "a PVC or StatefulSet volumeClaimTemplate requesting ReadWriteMany")


# k13 reclaim policy ------------------------------------------------------------------------------------
@scenario
def reclaim():
    def sclass(name, policy=None, default=False, provisioner="ebs.csi.aws.com"):
        o = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
             "metadata": meta(name, annotations={"storageclass.kubernetes.io/is-default-class": "true"} if default else None),
             "provisioner": provisioner, "parameters": {"type": "gp3"}, "volumeBindingMode": "WaitForFirstConsumer"}
        if policy: o["reclaimPolicy"] = policy
        return o

    def pv(name, policy=None):
        o = {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": meta(name),
             "spec": {"capacity": {"storage": "200Gi"}, "accessModes": ["ReadWriteOnce"], "storageClassName": "",
                      "nfs": {"server": "10.0.8.21", "path": "/exports/" + name}}}
        if policy: o["spec"]["persistentVolumeReclaimPolicy"] = policy
        return o

    def objs(bad):
        return [sclass("fast-ssd", None if bad else "Retain"),
                sclass("standard", "Delete" if bad else "Retain", default=True),
                pv("nfs-legacy-01", "Recycle" if bad else "Retain"),
                # near misses: a hand-made PV without a policy (Retain), Retain with expansion, a claim
                pv("nfs-archive-02"),
                dict(sclass("bulk", "Retain", provisioner="efs.csi.aws.com"), allowVolumeExpansion=True),
                pvc("ml", "scratch", ["ReadWriteOnce"], "100Gi", "standard")]

    def bad(O):
        out = set()
        for o in O:
            if o["kind"] == "StorageClass" and o.get("reclaimPolicy", "Delete") != "Retain": out.add(rid(o))
            if o["kind"] == "PersistentVolume" and o["spec"].get("persistentVolumeReclaimPolicy", "Retain") != "Retain": out.add(rid(o))
        return out
    PRED["set7-keep-released-volumes"] = bad
    return S("set7-keep-released-volumes", None, "auditor",
             "Audit item: deleting a claim must never destroy the data behind it. Every storage class must keep the volumes "
             "it provisions when they are released (a class that says nothing deletes them), and every persistent volume "
             "must keep its data when released (a volume created by hand that says nothing keeps it). Scrubbing a volume "
             "for reuse counts as destroying its data. Report each storage class and volume that falls short.",
             objs(True), objs(False), ["StorageClass//fast-ssd", "StorageClass//standard", "PersistentVolume//nfs-legacy-01"],
             "StorageClass reclaimPolicy (default Delete) and PersistentVolume persistentVolumeReclaimPolicy (default "
             "Retain for static PVs) must be Retain. Violating: a class without reclaimPolicy, the default class with "
             "Delete, a PV with Recycle (scrub). Near misses (both): a hand-made PV without a policy, a Retain class with "
             "allowVolumeExpansion, a PVC.",
             "StorageClass without Retain (default Delete); PV with Delete/Recycle")


# k14 ServiceAccount automount -----------------------------------------------------------------------------
@scenario
def sa_automount():
    def sacc(namespace, name, auto="unset"):
        o = sa(namespace, name)
        if auto != "unset": o["automountServiceAccountToken"] = auto
        return o

    def objs(bad):
        dep = wl("Deployment", "billing", "invoicer", one("invoicer", serviceAccountName="default", automountServiceAccountToken=False))
        return [ns("shop"), ns("billing"), ns("kube-system", {}),
                sacc("shop", "default", "unset" if bad else False),
                sacc("shop", "cart", True if bad else False),
                sacc("billing", "default", "unset" if bad else False),
                dep,
                # near misses: kube-system accounts without the field; an account set to false used by a pod that opts in
                sacc("kube-system", "default"), sacc("kube-system", "coredns"),
                sacc("billing", "invoice-sync", False),
                wl("Deployment", "shop", "token-reviewer", one("reviewer", serviceAccountName="cart", automountServiceAccountToken=True))]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "ServiceAccount"
                and o["metadata"]["namespace"] not in ("kube-system", "kube-public", "kube-node-lease")
                and o.get("automountServiceAccountToken") is not False}
    PRED["set7-accounts-no-auto-token"] = bad
    return S("set7-accounts-no-auto-token", None, "operator",
             "Platform rule: in application namespaces every ServiceAccount, including the `default` account Kubernetes "
             "creates in each namespace, must itself switch off the automatic mounting of its API token into pods; pods "
             "that really need a token opt in individually. Accounts that do not say so have their token mounted. A "
             "setting on the pods that use an account does not fix the account. ServiceAccounts in kube-system, "
             "kube-public and kube-node-lease are out of scope. Report the non-compliant ServiceAccounts.",
             objs(True), objs(False), ["ServiceAccount/shop/default", "ServiceAccount/shop/cart", "ServiceAccount/billing/default"],
             "ServiceAccount automountServiceAccountToken: false. Violating: shop/default without it, shop/cart with true, "
             "billing/default without it although the only Deployment using it turns automount off in the pod. Near "
             "misses (both): kube-system accounts without it, a pod opting in with an account set to false (the pod "
             "setting is another control).",
             "a ServiceAccount outside kube-* namespaces without automountServiceAccountToken: false")


# k15 SELinux user / role -----------------------------------------------------------------------------------
@scenario
def selinux_user_role():
    def objs(bad):
        init = ctr("mount-prep", tagged("storage/prep", "1.0"), secctx=sc(seLinuxOptions={"role": "system_r", "level": "s0"} if bad else {"level": "s0"}))
        snap2 = ctr("uploader", tagged("backup/uploader", "2.2"),
                    secctx=sc(seLinuxOptions={"user": "unconfined_u"} if bad else {"user": ""}))
        e = eph("shell", tagged("tools/busybox", "1.36"), target="app",
                securityContext=sc(seLinuxOptions={"user": "system_u", "type": "container_t"} if bad else {"type": "container_t"}))
        return [ns("storage"), ns("backup"), ns("secure"), ns("kube-system", {}),
                wl("Deployment", "storage", "nfs-client", podspec([ctr("nfs-client", tagged("storage/nfs-client", "4.0"))], init=[init])),
                wl("CronJob", "backup", "snapshot", podspec([ctr("snap", tagged("backup/snap", "2.2")), snap2])),
                wl("Pod", "secure", "legacy-app", podspec([ctr("app", tagged("secure/legacy", "7.1"))], ephemeralContainers=[e],
                                                          securityContext=psc(seLinuxOptions={"level": "s0:c123,c456"}))),
                # near misses: MCS level only; type only; a privileged spc_t type (the type part is another control)
                wl("StatefulSet", "secure", "vault", podspec([ctr("vault", tagged("secure/vault", "1.15"),
                                                                  secctx=sc(seLinuxOptions={"type": "container_t", "level": "s0:c1,c2"}))])),
                wl("DaemonSet", "storage", "csi-node", podspec([ctr("csi", tagged("storage/csi", "1.9"),
                                                                   secctx=sc(seLinuxOptions={"type": "spc_t"}))]))]

    def bad(O):
        def hit(x): return bool((x or {}).get("user") or (x or {}).get("role"))
        return {rid(o) for o, sp, pm in workloads(O)
                if hit((sp.get("securityContext") or {}).get("seLinuxOptions"))
                or any(hit((c.get("securityContext") or {}).get("seLinuxOptions")) for c in all_ctrs(sp))}
    PRED["set7-pss-selinux-user-role"] = bad
    return S("set7-pss-selinux-user-role", None, "CIS",
             "Pod Security Standards, Baseline profile, control \"SELinux\": \"Setting the SELinux type is restricted, "
             "and setting a custom SELinux user or role option is forbidden.\" For the user and role part the restricted "
             "fields are the SELinux options of the pod's security context and of every container, init container and "
             "ephemeral container, and the only allowed values for user and role are undefined or empty. Assess the user "
             "and role part only (the SELinux type is a separate control; levels are not restricted), for every pod "
             "and pod template.",
             objs(True), objs(False), ["Deployment/storage/nfs-client", "CronJob/backup/snapshot", "Pod/secure/legacy-app"],
             "seLinuxOptions.user or .role non-empty. Violating: an init container with role system_r; the second "
             "container of a CronJob with user unconfined_u; an ephemeral container with user system_u (pod-level level "
             "only). Near misses (both): MCS levels, type container_t, user \"\" (empty is allowed), a DaemonSet with type "
             "spc_t (violates the type control, not this one).",
             "a non-empty seLinuxOptions user or role at pod or any container level")


# ================================================================== RHEL 9 (ciso-set7)
def sys_keys(t):
    """systemd-sysctl effective values of explicit keys (glob lines never override an explicitly set key)."""
    return {k: v for k, v in sysctl_effective(t).items() if "*" not in k}


CIS_NET = ("# CIS 3.3 network parameters (CHG-7001)\nnet.ipv4.conf.all.accept_source_route = 0\n"
           "net.ipv4.conf.default.accept_source_route = 0\nnet.ipv4.conf.all.rp_filter = 1\nnet.ipv4.conf.default.rp_filter = 1\n")


# r01 source routing + reverse path ---------------------------------------------------------------------------
@scenario
def r_source_route():
    v = sysbase()
    v["etc/sysctl.d/60-cis-network.conf"] = CIS_NET
    v["etc/sysctl.d/80-vpn-gateway.conf"] = ("# strongSwan site-to-site: asymmetric return paths (INC-7733)\n"
                                             "net.ipv4.conf.default.rp_filter=2\n")
    v["usr/local/lib/sysctl.d/95-legacy-routing.conf"] = ("# installed by the legacy routing appliance package\n"
                                                          "net.ipv4.conf.all.accept_source_route = 1\n")
    c = sysbase()
    c["etc/sysctl.d/60-cis-network.conf"] = CIS_NET
    c["etc/sysctl.d/80-vpn-gateway.conf"] = ("# strongSwan site-to-site: asymmetric return paths (INC-7733)\n"
                                             "# reverted to strict mode after the routing fix (CHG-7040)\n"
                                             "; net.ipv4.conf.default.rp_filter=2\nnet.ipv4.conf.default.rp_filter = 1\n")
    c["usr/local/lib/sysctl.d/95-legacy-routing.conf"] = v["usr/local/lib/sysctl.d/95-legacy-routing.conf"]
    c["etc/sysctl.d/95-legacy-routing.conf"] = "# masks the appliance package's file (CHG-7041)\nnet.ipv4.conf.all.accept_source_route = 0\n"
    c["etc/sysctl.d/70-forwarding-lab.conf.bak"] = "net.ipv4.conf.all.rp_filter = 0\nnet.ipv4.conf.all.accept_source_route = 1\n"
    KEYS = {"net.ipv4.conf.all.accept_source_route": ("0",), "net.ipv4.conf.default.accept_source_route": ("0",),
            "net.ipv4.conf.all.rp_filter": ("1",), "net.ipv4.conf.default.rp_filter": ("1",)}

    def bad(t):
        e = sys_keys(t)
        return {"sysctl//" + k for k, ok in KEYS.items() if e.get(k) not in ok}
    RPRED["set7-rhel-source-route-rpf"] = bad
    return S("set7-rhel-source-route-rpf", None, "effect",
             "These hosts must ignore IPv4 packets that carry their own routing instructions (source-routed packets), and "
             "must drop IPv4 packets that arrive on an interface other than the one the host would use to send a reply to "
             "their source (strict reverse-path filtering; the loose mode, which accepts a packet if any route leads back, "
             "does not meet this). Both must hold for all interfaces and for interfaces added later. What counts is the "
             "state the host comes up in after a reboot from its persistent kernel-parameter configuration; a parameter "
             "that no persistent file sets explicitly does not count as meeting this.", v, c,
             ["sysctl//net.ipv4.conf.all.accept_source_route", "sysctl//net.ipv4.conf.default.rp_filter"],
             "Keys: net.ipv4.conf.{all,default}.accept_source_route = 0 and .rp_filter = 1. systemd-sysctl order: files by "
             "name across /etc, /run, /usr/local/lib, /usr/lib sysctl.d, a same-named /etc file hides the others, later "
             "wins; /etc/sysctl.d/99-sysctl.conf is the /etc/sysctl.conf link; systemd's 50-default.conf glob lines "
             "(rp_filter 2) never override an explicitly set key. Violating: 60-cis-network.conf sets all four, but "
             "80-vpn-gateway.conf (later) sets default.rp_filter=2 (loose) and /usr/local/lib/sysctl.d/95-legacy-routing.conf "
             "(read, later name) sets all.accept_source_route = 1. Compliant: the vpn file's old line is a `;` comment "
             "and it sets 1; an /etc/sysctl.d/95-legacy-routing.conf hides the /usr/local/lib one; a .conf.bak is not read.",
             "default.rp_filter 2 from a later drop-in; all.accept_source_route 1 from a /usr/local/lib file",
             platform="rhel9", classes=RHEL)


# r02 password history ----------------------------------------------------------------------------------------------
PWH_CONF = """# Configuration for the pam_pwhistory module.
#
# The file is parsed by pam_pwhistory; module arguments given on the
# PAM configuration line take precedence over the settings here.
#
# debug
#
# Refuse a new password if it matches one of the last N passwords.
# The default is 10.
{remember}
#
# Enforce the history for root as well. Disabled by default.
{root}
#
# retry = 1
#
# file = /etc/security/opasswd
"""


def pam_stack(pwh_line):
    s = SYSTEM_AUTH.replace("{pwq}", "local_users_only")
    return s.replace("password    sufficient                                   pam_unix.so",
                     (pwh_line + "\n" if pwh_line else "") + "password    sufficient                                   pam_unix.so")


def pwh_eff(t, f):
    conf = {}
    for line in t.get("etc/security/pwhistory.conf", "").splitlines():
        line = line.strip()
        if not line or line.startswith("#"): continue
        k, _, val = line.partition("=")
        conf[k.strip()] = val.strip()
    for line in t.get("etc/pam.d/" + f, "").splitlines():
        w = line.split()
        if len(w) >= 3 and w[0].lstrip("-") == "password" and "pam_pwhistory.so" in w:
            args = w[w.index("pam_pwhistory.so") + 1:]
            rem = int(conf.get("remember", "10"))
            root = "enforce_for_root" in conf
            for a in args:
                if a.startswith("remember="): rem = int(a.split("=", 1)[1])
                if a == "enforce_for_root": root = True
            return rem, root
    return None


@scenario
def r_pwhistory():
    PWH = "password    requisite                                    pam_pwhistory.so"
    v = {"etc/security/pwhistory.conf": PWH_CONF.replace("{remember}", "remember = 24").replace(
             "{root}", "# enforce_for_root is required by CIS; set on the PAM lines (see CHG-7102)\n#enforce_for_root"),
         "etc/pam.d/system-auth": pam_stack(PWH + " use_authtok"),
         "etc/pam.d/password-auth": pam_stack(PWH + " remember=5 use_authtok")}
    c = {"etc/security/pwhistory.conf": PWH_CONF.replace("{remember}", "remember = 24").replace("{root}", "enforce_for_root"),
         "etc/pam.d/system-auth": pam_stack(PWH + " remember=24 use_authtok"),
         "etc/pam.d/password-auth": pam_stack("#" + PWH + " remember=5 use_authtok\n" + PWH + " use_authtok"),
         "etc/security/pwhistory.conf.rpmnew": PWH_CONF.replace("{remember}", "# remember = 10").replace("{root}", "# enforce_for_root")}

    def bad(t):
        out = set()
        for f in ("system-auth", "password-auth"):
            e = pwh_eff(t, f)
            if e is None or e[0] < 24: out.add("pwhistory//remember")
            if e is None or not e[1]: out.add("pwhistory//enforce_for_root")
        return out
    RPRED["set7-rhel-password-reuse"] = bad
    return S("set7-rhel-password-reuse", None, "CIS",
             "CIS Red Hat Enterprise Linux 9 Benchmark, password history: \"Ensure password history remember is "
             "configured\" - a new password must not match any of the user's last 24 passwords; and \"Ensure password "
             "history is enforced for the root user\". Both must hold in the password stacks of both the system-auth and "
             "the password-auth PAM configurations. Settings on a module's PAM line take precedence over the module's "
             "configuration file; when neither sets them, 10 passwords are remembered and root is not subject to the "
             "history check.", v, c, ["pwhistory//remember", "pwhistory//enforce_for_root"],
             "pam_pwhistory: remember (default 10) and enforce_for_root (default off), from /etc/security/pwhistory.conf "
             "unless given as module arguments. Violating: pwhistory.conf says remember = 24 but password-auth's "
             "pam_pwhistory line has remember=5; enforce_for_root is only a comment in pwhistory.conf and on no PAM line. "
             "Compliant: remember=24 on system-auth, pwhistory.conf (24, enforce_for_root) for password-auth, whose old "
             "remember=5 line is commented out; a pwhistory.conf.rpmnew is not read.",
             "remember=5 on password-auth overrides the file's 24; enforce_for_root only in a comment",
             platform="rhel9", classes=RHEL)


# r03 core dumps --------------------------------------------------------------------------------------------
COREDUMP_CONF = """#  This file is part of systemd.
#
# Entries in this file show the compile time defaults. Local configuration
# should be created by either modifying this file, or by creating "drop-ins" in
# the coredump.conf.d/ subdirectory. The latter is generally recommended.
# Defaults can be restored by simply deleting this file and all drop-ins.
#
# Use 'systemd-analyze cat-config systemd/coredump.conf' to display the full config.
#
# See coredump.conf(5) for details.

[Coredump]
{body}#Compress=yes
#ProcessSizeMax=2G
#ExternalSizeMax=2G
#JournalSizeMax=767M
#MaxUse=
#KeepFree=
"""
SYSTEMD_COREDUMP_SYSCTL = """# This file is part of systemd.
#
# See sysctl.d(5) for the description of these files.

# Pipe core dumps to systemd-coredump
kernel.core_pattern=|/usr/lib/systemd/systemd-coredump %P %u %g %s %t %c %h
kernel.core_pipe_limit=16

# Also dump processes that have changed credentials
fs.suid_dumpable=2
"""
LIMITS = """# /etc/security/limits.conf
#
#<domain>        <type>  <item>  <value>
#
#*               soft    core            0
#@student        hard    nproc           20
{core}
# End of file
"""


def coredump_eff(t):
    files = ["etc/systemd/coredump.conf"]
    seen = {}
    for d in ("etc/systemd/coredump.conf.d", "run/systemd/coredump.conf.d", "usr/local/lib/systemd/coredump.conf.d",
              "usr/lib/systemd/coredump.conf.d"):
        for p in sorted(t):
            n = p[len(d) + 1:]
            if p.startswith(d + "/") and n.endswith(".conf") and "/" not in n:
                seen.setdefault(n, p)
    files += [seen[n] for n in sorted(seen)]
    val = {"Storage": "external", "ProcessSizeMax": "2G"}
    for f in files:
        sect = None
        for line in t.get(f, "").splitlines():
            line = line.strip()
            if not line or line[0] in "#;": continue
            if line.startswith("["): sect = line; continue
            if sect == "[Coredump]" and "=" in line:
                k, x = line.split("=", 1)
                val[k.strip()] = x.strip()
    return val


@scenario
def r_core_dumps():
    def base():
        t = sysbase()
        t["usr/lib/sysctl.d/50-coredump.conf"] = SYSTEMD_COREDUMP_SYSCTL
        t["etc/security/limits.conf"] = LIMITS.replace("{core}", "*               hard    core            0")
        return t
    v = base()
    v["etc/sysctl.d/10-cis-coredump.conf"] = "# CIS 1.5.1 restrict core dumps\nfs.suid_dumpable = 0\n"
    v["etc/systemd/coredump.conf"] = COREDUMP_CONF.replace("{body}", "Storage=none\n").replace("#ProcessSizeMax=2G", "ProcessSizeMax=0")
    v["etc/systemd/coredump.conf.d/50-crash-analysis.conf"] = ("# keep cores for the vendor crash analysis tool (SR-20817)\n"
                                                              "[Coredump]\nStorage=external\n")
    c = base()
    c["etc/sysctl.d/60-cis-coredump.conf"] = "# CIS 1.5.1 restrict core dumps (after systemd's 50-coredump.conf)\nfs.suid_dumpable = 0\n"
    c["etc/systemd/coredump.conf"] = COREDUMP_CONF.replace("{body}", "#Storage=external\n")
    c["etc/systemd/coredump.conf.d/90-cis.conf"] = "# CIS 1.5.1\n[Coredump]\nStorage=none\nProcessSizeMax=0\n"
    c["etc/systemd/coredump.conf.d/50-crash-analysis.conf"] = ("# keep cores for the vendor crash analysis tool (SR-20817)\n"
                                                              "[Coredump]\n#Storage=external\n")

    def bad(t):
        out = set()
        if sys_keys(t).get("fs.suid_dumpable", "0") != "0": out.add("sysctl//fs.suid_dumpable")
        e = coredump_eff(t)
        if e["Storage"].lower() != "none": out.add("coredump//Storage")
        if e["ProcessSizeMax"] != "0": out.add("coredump//ProcessSizeMax")
        hard = [l.split() for l in t.get("etc/security/limits.conf", "").splitlines() if l.strip() and not l.startswith("#")]
        if not any(w[:4] == ["*", "hard", "core", "0"] for w in hard): out.add("limits//core")
        return out
    RPRED["set7-rhel-no-core-images"] = bad
    return S("set7-rhel-no-core-images", None, "effect",
             "A crashing program must not leave a copy of its memory anywhere on these hosts: no user's processes may "
             "produce core files, programs that changed their privileges (set-user-ID and the like) must never be dumped, "
             "and the system's crash collector must neither store nor process cores. Out of the box the kernel does not "
             "dump privilege-changing programs, but systemd's own kernel-parameter file turns that on, and the crash "
             "collector stores cores on disk and processes them unless configured otherwise. What counts is the state "
             "after a reboot from the persistent configuration.", v, c, ["sysctl//fs.suid_dumpable", "coredump//Storage"],
             "Settings: fs.suid_dumpable = 0 (systemd's /usr/lib/sysctl.d/50-coredump.conf sets 2); "
             "systemd-coredump Storage=none and ProcessSizeMax=0 (defaults external / 2G; drop-ins in coredump.conf.d "
             "are read after the main file, in name order, later wins); a hard core limit of 0 for all users in "
             "limits.conf. Violating: 10-cis-coredump.conf sets suid_dumpable 0 but sorts before 50-coredump.conf (2); the "
             "main coredump.conf says Storage=none and ProcessSizeMax=0 but the drop-in 50-crash-analysis.conf sets "
             "Storage=external. Compliant: 60-cis-coredump.conf after the vendor file; 90-cis.conf drop-in; the "
             "crash-analysis drop-in's line commented; the main file only has commented defaults.",
             "vendor 50-coredump.conf (suid_dumpable 2) after the CIS file; a coredump.conf.d drop-in Storage=external",
             platform="rhel9", classes=RHEL)


# r04 unprivileged BPF + perf ---------------------------------------------------------------------------------
@scenario
def r_bpf_perf():
    v = sysbase()
    v["etc/sysctl.d/10-cis-kernel.conf"] = ("# CIS 1.5 kernel hardening (CHG-7210)\nkernel.unprivileged_bpf_disabled = 2\n"
                                            "kernel.perf_event_paranoid = 2\n")
    v["etc/sysctl.d/50-bcc-tools.conf"] = ("# let the SRE team run bcc/bpftrace without sudo (CHG-7302)\n"
                                           "kernel.unprivileged_bpf_disabled=0\n")
    v["usr/local/lib/sysctl.d/60-profiling.conf"] = "# continuous profiler agent\n\tkernel.perf_event_paranoid =  1 \n"
    c = sysbase()
    c["etc/sysctl.d/10-cis-kernel.conf"] = ("# CIS 1.5 kernel hardening (CHG-7210)\nkernel.unprivileged_bpf_disabled = 1\n")
    c["etc/sysctl.d/50-bcc-tools.conf"] = ("# let the SRE team run bcc/bpftrace without sudo (CHG-7302) - rejected, use sudo\n"
                                           "# kernel.unprivileged_bpf_disabled=0\n")
    c["usr/local/lib/sysctl.d/60-profiling.conf"] = v["usr/local/lib/sysctl.d/60-profiling.conf"]
    c["etc/sysctl.d/60-profiling.conf"] = "# masks the profiler agent's file; the agent runs as root (CHG-7305)\n"

    def bad(t):
        e = sys_keys(t)
        out = set()
        if e.get("kernel.unprivileged_bpf_disabled", "2") not in ("1", "2"): out.add("sysctl//kernel.unprivileged_bpf_disabled")
        if int(e.get("kernel.perf_event_paranoid", "2")) < 2: out.add("sysctl//kernel.perf_event_paranoid")
        return out
    RPRED["set7-rhel-no-user-bpf-perf"] = bad
    return S("set7-rhel-no-user-bpf-perf", None, "effect",
             "Unprivileged users on these hosts must not be able to load BPF programs into the kernel, and must not be "
             "able to observe kernel or CPU-wide performance events (measuring their own processes in user space is "
             "fine). A RHEL 9 kernel already behaves like this when nothing is configured; any persistent kernel-parameter "
             "setting replaces that. Judge the state after a reboot from the persistent configuration.", v, c,
             ["sysctl//kernel.unprivileged_bpf_disabled", "sysctl//kernel.perf_event_paranoid"],
             "kernel.unprivileged_bpf_disabled must be 1 or 2 (RHEL 9 default 2; 2 can be lowered later at boot, 1 "
             "cannot) and kernel.perf_event_paranoid >= 2 (default 2). Violating: the CIS file sets 2/2, then "
             "/etc/sysctl.d/50-bcc-tools.conf sets bpf 0 (no spaces; lowering from 2 works) and "
             "/usr/local/lib/sysctl.d/60-profiling.conf sets perf_event_paranoid 1 (tab and extra spaces). Compliant: "
             "bpf 1, the bcc line is a comment, an empty /etc/sysctl.d/60-profiling.conf hides the /usr/local/lib file "
             "(perf_event_paranoid stays at the default 2).",
             "unprivileged_bpf_disabled 0 from a later drop-in; perf_event_paranoid 1 from /usr/local/lib",
             platform="rhel9", classes=RHEL)


# r05 sshd host-based auth + user environment ------------------------------------------------------------------------
@scenario
def r_sshd_env():
    v = {"etc/ssh/sshd_config": SSHD_MAIN.replace("{auth}", "HostbasedAuthentication no\n#IgnoreRhosts yes\n"
                                                  "PermitUserEnvironment LANG,LC_*\n").replace("{x11}", "X11Forwarding no\n"),
         "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50,
         "etc/ssh/sshd_config.d/40-cluster.conf": "# compute cluster: node-to-node logins by host keys (HPC-112)\n"
                                                  "hostbasedauthentication\tyes\nHostbasedUsesNameFromPacketOnly yes\n"}
    c = {"etc/ssh/sshd_config": SSHD_MAIN.replace("{auth}", "#HostbasedAuthentication no\n#IgnoreRhosts yes\n"
                                                  "PermitUserEnvironment LANG,LC_*\n").replace("{x11}", "X11Forwarding no\n"),
         "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50,
         "etc/ssh/sshd_config.d/01-cis.conf": "# CIS 5.2 settings, read before everything else\nHostbasedAuthentication no\n"
                                              "IgnoreRhosts yes\nPermitUserEnvironment no\nX11Forwarding no\n",
         "etc/ssh/sshd_config.d/40-cluster.conf": v["etc/ssh/sshd_config.d/40-cluster.conf"]}

    def bad(t):
        e = sshd_effective(t)
        out = set()
        if e.get("hostbasedauthentication", "no").lower() != "no": out.add("sshd//HostbasedAuthentication")
        if e.get("permituserenvironment", "no").lower() != "no": out.add("sshd//PermitUserEnvironment")
        if e.get("ignorerhosts", "yes").lower() != "yes": out.add("sshd//IgnoreRhosts")
        return out
    RPRED["set7-rhel-ssh-trust-env"] = bad
    return S("set7-rhel-ssh-trust-env", None, "auditor",
             "Audit items for the SSH daemon on these hosts, as the daemon will actually run with its configuration: "
             "host-based authentication must be off (it is off when nothing is configured); .rhosts and .shosts files "
             "must be ignored (they are when nothing is configured); and users must not be able to pass any environment "
             "variables to the daemon through ~/.ssh/environment or environment= options in authorized_keys, not even a "
             "selected list of them (refused when nothing is configured). Report each setting that does not meet this.",
             v, c, ["sshd//HostbasedAuthentication", "sshd//PermitUserEnvironment"],
             "sshd keeps the first value it reads; the main file's first line includes sshd_config.d/*.conf (name "
             "order), so drop-ins beat the main file; keywords are case-insensitive. Violating: the main file says "
             "HostbasedAuthentication no, but 40-cluster.conf (`hostbasedauthentication<TAB>yes`, lower case) is read "
             "first; `PermitUserEnvironment LANG,LC_*` in the main file is a pattern list (allows those variables, not "
             "`no`); IgnoreRhosts is only a comment (default yes). Compliant: 01-cis.conf is read before 40-cluster.conf "
             "and the main file, so their yes / pattern list are ignored.",
             "a drop-in read before the main file turns host-based auth on; PermitUserEnvironment is a pattern list",
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
