#!/usr/bin/env python3
"""ciso-set8 (blind-ciso8): held-out CISO scenarios in the project's user format: 15 Kubernetes scenarios (kyverno,
kubectl-opa, opa-static) and 5 RHEL 9 ones (rhel9-ansible-opa), on controls that none of ciso-set2..7 has. Labels are
fixed by construction below; every run self-checks every scenario with my own predicate (PRED for Kubernetes, RPRED for
RHEL 9): it must flag exactly violating_resources in violating/ and nothing in compliant/. The YAML emitter, object
helpers, the systemd-sysctl and sshd readers and the RHEL file templates are copied from measurement/ciso-set7/gen.py.
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


# k01 session affinity ----------------------------------------------------------------------------------------
@scenario
def sticky():
    def objs(bad):
        ports = [{"name": "https", "port": 443, "targetPort": 8443}]
        return [ns("shop"), ns("auth"), ns("ops"),
                svcx("shop", "cart", **({"sessionAffinity": "ClientIP"} if bad else {})),
                svcx("auth", "login", "LoadBalancer", ports, sessionAffinity="ClientIP" if bad else "None",
                     sessionAffinityConfig={"clientIP": {"timeoutSeconds": 10800}}, externalTrafficPolicy="Local"),
                svcx("ops", "vnc", None, [{"name": "vnc", "port": 5901, "targetPort": 5901}], clusterIP="None",
                     **({"sessionAffinity": "ClientIP", "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 600}}} if bad else {})),
                # near misses: explicit None; an ingress-controller cookie affinity (not a Service); NodePort (other control)
                svcx("shop", "catalog", sessionAffinity="None"),
                ing("shop", "storefront", "shop.acme.example", "nginx-internal",
                    {"nginx.ingress.kubernetes.io/affinity": "cookie", "nginx.ingress.kubernetes.io/session-cookie-name": "route"}),
                svcx("ops", "grafana", "NodePort", [{"name": "http", "port": 3000, "targetPort": 3000, "nodePort": 30300}])]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "Service" and o["spec"].get("sessionAffinity") == "ClientIP"}
    PRED["set8-no-sticky-sessions"] = bad
    return S("set8-no-sticky-sessions", None, "effect",
             "Every Kubernetes Service must spread the connections it receives across all of its ready backends on each new "
             "connection: no Service may route all traffic from one client address to the same pod for a period of time. "
             "This applies to every Service type, headless ones included. Stickiness implemented by an ingress controller "
             "(for example a routing cookie) is outside this requirement; only the Services themselves are judged.",
             objs(True), objs(False), ["Service/shop/cart", "Service/auth/login", "Service/ops/vnc"],
             "spec.sessionAffinity ClientIP (default None). Violating: a ClusterIP Service, a LoadBalancer one (with "
             "sessionAffinityConfig), a headless one. Near misses (compliant): sessionAffinityConfig present but "
             "sessionAffinity None; explicit None; an Ingress with nginx cookie affinity; a NodePort Service (another control).",
             "a Service with sessionAffinity ClientIP (any type, headless too)")


# k02 zone spread ------------------------------------------------------------------------------------------
ZONE = "topology.kubernetes.io/zone"


def tsc(key, when, name):
    return [{"maxSkew": 1, "topologyKey": key, "whenUnsatisfiable": when,
             "labelSelector": {"matchLabels": {"app.kubernetes.io/name": name}}}]


@scenario
def zone_spread():
    def objs(bad):
        anti = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"topologyKey": ZONE, "labelSelector": {"matchLabels": {"app.kubernetes.io/name": "api"}}}]}}
        return [ns("payments", PROD), ns("checkout", PROD), ns("staging", {"env": "staging"}),
                wl("Deployment", "payments", "api", one("api", **({"affinity": anti} if bad else
                                                                  {"topologySpreadConstraints": tsc(ZONE, "DoNotSchedule", "api")}))),
                wl("StatefulSet", "payments", "db", one("db", topologySpreadConstraints=
                    tsc("kubernetes.io/hostname" if bad else ZONE, "DoNotSchedule", "db"))),
                wl("Deployment", "checkout", "web", one("web", topologySpreadConstraints=
                    tsc(ZONE, "ScheduleAnyway" if bad else "DoNotSchedule", "web") + tsc("kubernetes.io/hostname", "ScheduleAnyway", "web"))),
                # near misses: staging Deployment without; a DaemonSet in production (out of scope); a production CronJob
                wl("Deployment", "staging", "api", one("api")),
                wl("DaemonSet", "payments", "node-agent", one("node-agent")),
                wl("CronJob", "checkout", "reconcile", one("reconcile")),
                wl("Deployment", "checkout", "cart", one("cart", topologySpreadConstraints=
                    tsc("kubernetes.io/hostname", "ScheduleAnyway", "cart") + tsc(ZONE, "DoNotSchedule", "cart")))]

    def bad(O):
        prod = {o["metadata"]["name"] for o in O if o["kind"] == "Namespace" and o["metadata"]["labels"].get("env") == "production"}
        return {rid(o) for o in O if o["kind"] in ("Deployment", "StatefulSet") and o["metadata"]["namespace"] in prod
                and not any(t.get("topologyKey") == ZONE and t.get("whenUnsatisfiable") == "DoNotSchedule"
                            for t in pspec(o)[0].get("topologySpreadConstraints", []))}
    PRED["set8-zone-spread-production"] = bad
    return S("set8-zone-spread-production", None, "operator",
             "Ops rule for namespaces labelled env=production (no other namespace is in scope): every Deployment and every "
             "StatefulSet there must tell the scheduler to spread its pods evenly across availability zones (the standard "
             "zone label topology.kubernetes.io/zone) as a hard rule, i.e. pods stay pending rather than skew the spread. A "
             "best-effort spread, a spread across nodes (host names) only, or a pod anti-affinity rule does not satisfy this "
             "rule. DaemonSets, Jobs and CronJobs are out of scope.",
             objs(True), objs(False), ["Deployment/payments/api", "StatefulSet/payments/db", "Deployment/checkout/web"],
             "topologySpreadConstraints with topologyKey topology.kubernetes.io/zone and whenUnsatisfiable DoNotSchedule. "
             "Violating: zone podAntiAffinity instead of a spread constraint; a spread over kubernetes.io/hostname only; a "
             "zone spread with ScheduleAnyway (plus a hostname one). Near misses (both): a staging Deployment without any, "
             "a production DaemonSet and CronJob without any, a Deployment whose *second* constraint is the zone one.",
             "production Deployment/StatefulSet without a zone DoNotSchedule topology spread constraint")


# k03 preStop hooks -------------------------------------------------------------------------------------------
@scenario
def prestop():
    HOOK = {"preStop": {"exec": {"command": ["/bin/sh", "-c", "sleep 5"]}}}

    def c(name, path, port=None, hook=True, **kw):
        x = ctr(name, tagged(path, "1.4"), **kw)
        if port: x["ports"] = [{"name": "p" + str(port), "containerPort": port}]
        if hook is True: x["lifecycle"] = copy.deepcopy(HOOK)
        elif hook: x["lifecycle"] = hook
        return x

    def objs(bad):
        return [ns("web"), ns("search"), ns("api"),
                wl("Deployment", "web", "storefront", podspec([c("app", "web/storefront", 8080),
                                                               c("envoy", "mesh/envoy", 15001, hook=not bad)])),
                wl("StatefulSet", "search", "solr", podspec([c("solr", "search/solr", 8983, hook=(
                    {"postStart": {"exec": {"command": ["/opt/solr/bin/warm"]}}} if bad else
                    {"postStart": {"exec": {"command": ["/opt/solr/bin/warm"]}}, "preStop": {"httpGet": {"path": "/drain", "port": 8983}}}))])),
                wl("Deployment", "api", "orders", podspec([c("orders", "api/orders", 8443, hook=(
                    {"postStart": {"sleep": {"seconds": 2}}} if bad else {"preStop": {"sleep": {"seconds": 10}}}))])),
                # near misses: a sidecar with no port and no hook; init container with a port; DaemonSet/Pod/Job out of scope
                wl("Deployment", "web", "blog", podspec([c("blog", "web/blog", 8080), c("log-tail", "tools/tail", None, hook=False)],
                                                        init=[c("migrate", "web/migrate", 5432, hook=False)])),
                wl("DaemonSet", "api", "node-proxy", podspec([c("proxy", "net/proxy", 9090, hook=False)])),
                wl("Pod", "search", "debug-0", podspec([c("shell", "tools/shell", 8080, hook=False)]))]

    def bad(O):
        return {rid(o) for o in O if o["kind"] in ("Deployment", "StatefulSet")
                and any(x.get("ports") and not (x.get("lifecycle") or {}).get("preStop") for x in pspec(o)[0]["containers"])}
    PRED["set8-drain-hook-on-serving-containers"] = bad
    return S("set8-drain-hook-on-serving-containers", None, "auditor",
             "Audit check (Deployments and StatefulSets only): each regular, long-running container that declares a port "
             "it listens on must declare a pre-stop lifecycle hook (any handler: command, HTTP call or sleep), so that it "
             "can drain before it receives the termination signal. A start-up (post-start) hook is not a pre-stop hook. "
             "Containers that declare no port, init containers, and pods of other controllers (DaemonSets, Jobs, bare "
             "Pods) are not audited. Report each Deployment or StatefulSet with at least one such container lacking the hook.",
             objs(True), objs(False), ["Deployment/web/storefront", "StatefulSet/search/solr", "Deployment/api/orders"],
             "containers[*] with ports but no lifecycle.preStop. Violating: the second (envoy) container; a postStart "
             "exec hook only; a postStart sleep only. Near misses (both): a sidecar without ports or hook, an init container "
             "with a port, a DaemonSet and a bare Pod with ports and no hook (out of scope).",
             "a Deployment/StatefulSet container with a port but no preStop hook")


# k04 imagePullSecrets --------------------------------------------------------------------------------------
@scenario
def pull_secrets():
    PS = [{"name": "harbor-pull"}]

    def objs(bad):
        sa_ = sa("shop", "catalog")
        sa_["imagePullSecrets"] = [{"name": "harbor-pull"}]
        return [ns("shop"), ns("batch"), ns("logging"), sa_,
                wl("Deployment", "shop", "catalog", one("catalog", serviceAccountName="catalog", **({} if bad else {"imagePullSecrets": PS}))),
                wl("CronJob", "batch", "export", one("export", imagePullSecrets=[] if bad else PS)),
                wl("DaemonSet", "logging", "agent", one("agent", **({} if bad else {"imagePullSecrets": [{"name": "harbor-robot-logging"}]}))),
                # near misses: a Pod and a StatefulSet with their own secret; an unpinned tag (another control)
                wl("Pod", "shop", "toolbox", podspec([ctr("toolbox", "harbor.acme.internal/tools/toolbox:latest")], imagePullSecrets=PS)),
                wl("StatefulSet", "batch", "queue", one("queue", imagePullSecrets=[{"name": "harbor-pull"}, {"name": "quay-mirror"}]))]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if not sp.get("imagePullSecrets")}
    PRED["set8-pull-credentials-on-pods"] = bad
    return S("set8-pull-credentials-on-pods", None, "operator",
             "Registry policy: our registry refuses anonymous pulls, so every pod and every pod template (bare Pods, "
             "Deployments, StatefulSets, DaemonSets, Jobs and CronJobs) must itself name at least one image pull "
             "credential in its own spec. Pull credentials attached to a ServiceAccount do not count for this rule, "
             "because we review the manifests as written; an empty list names none.",
             objs(True), objs(False), ["Deployment/shop/catalog", "CronJob/batch/export", "DaemonSet/logging/agent"],
             "spec.imagePullSecrets non-empty. Violating: a Deployment whose ServiceAccount carries imagePullSecrets but "
             "whose pod spec has none; `imagePullSecrets: []` in a CronJob template; a DaemonSet without. Near misses: a "
             "Pod with :latest (another control), a StatefulSet with two secrets.",
             "a pod spec without its own imagePullSecrets (the ServiceAccount's do not count)")


# k05 storage classes -----------------------------------------------------------------------------------------
def pvc2(namespace, name, size="20Gi", cls="gold-encrypted"):
    s = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": size}}}
    if cls is not None: s["storageClassName"] = cls
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": meta(name, namespace), "spec": s}


def vct(name, size="20Gi", cls="gold-encrypted"):
    c = pvc2(None, name, size, cls)
    return {"metadata": {"name": name}, "spec": c["spec"]}


def claims(O):
    for o in O:
        if o["kind"] == "PersistentVolumeClaim": yield o, o["spec"]
        if o["kind"] == "StatefulSet":
            for t in o["spec"].get("volumeClaimTemplates", []): yield o, t["spec"]


def stclass(name, enc):
    return {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": meta(name,
            annotations={"storageclass.kubernetes.io/is-default-class": "true"} if name == "standard" else None),
            "provisioner": "ebs.csi.aws.com", "parameters": {"encrypted": enc, "type": "gp3"},
            "reclaimPolicy": "Delete", "volumeBindingMode": "WaitForFirstConsumer"}


@scenario
def storage_class():
    def objs(bad):
        k = wl("StatefulSet", "data", "kafka", one("kafka"))
        k["spec"]["volumeClaimTemplates"] = [vct("data", "100Gi"), vct("logs", "10Gi", "standard" if bad else "silver-encrypted")]
        pv = {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": meta("nfs-old"),
              "spec": {"capacity": {"storage": "50Gi"}, "accessModes": ["ReadWriteOnce"], "storageClassName": "standard",
                       "persistentVolumeReclaimPolicy": "Retain", "nfs": {"server": "10.3.0.9", "path": "/exports/old"}}}
        return [ns("media"), ns("data"), ns("ml"), stclass("standard", "false"), stclass("gold-encrypted", "true"),
                stclass("silver-encrypted", "true"),
                pvc2("media", "uploads", cls=None if bad else "gold-encrypted"), k,
                pvc2("ml", "scratch", cls="" if bad else "silver-encrypted"),
                # near misses: a PV of class standard (not a claim); a claim named standard-data with a good class
                pv, pvc2("media", "standard-data", cls="silver-encrypted")]

    def bad(O):
        return {rid(o) for o, s in claims(O) if s.get("storageClassName") not in ("gold-encrypted", "silver-encrypted")}
    PRED["set8-claims-on-encrypted-classes"] = bad
    return S("set8-claims-on-encrypted-classes", None, "auditor",
             "Audit finding template: every persistent volume claim, including the claim templates of StatefulSets, must "
             "name one of the two encrypted storage classes, gold-encrypted or silver-encrypted. A claim that names no "
             "class is provisioned from the cluster's default class, standard, which is not encrypted; a claim with an "
             "empty class name binds to a hand-made volume and is not on an approved class either. Judge the claims; "
             "volumes and StorageClass objects themselves are not findings. Report the object carrying the claim.",
             objs(True), objs(False), ["PersistentVolumeClaim/media/uploads", "StatefulSet/data/kafka", "PersistentVolumeClaim/ml/scratch"],
             "storageClassName of PVCs and volumeClaimTemplates. Violating: a PVC without storageClassName (default "
             "standard); a StatefulSet whose *second* template uses standard; a PVC with storageClassName \"\". Near "
             "misses (both): the StorageClass objects, a PV of class standard, a claim named standard-data on silver-encrypted.",
             "a claim (PVC or StatefulSet template) not on gold-encrypted/silver-encrypted (absent = standard, \"\" = none)")


# k06 volume size cap -------------------------------------------------------------------------------------
SUF = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15}


def qbytes(q):
    q = str(q)
    for s in sorted(SUF, key=len, reverse=True):
        if q.endswith(s): return float(q[:-len(s)]) * SUF[s]
    return float(q)


@scenario
def size_cap():
    def objs(bad):
        es = wl("StatefulSet", "data", "es", one("es"))
        es["spec"]["volumeClaimTemplates"] = [vct("data", "600G" if bad else "530G")]
        return [ns("analytics"), ns("data"), ns("backup"),
                pvc2("analytics", "warehouse", "1Ti" if bad else "500Gi"), es,
                pvc2("backup", "archive", "537000000000" if bad else "536870912000"),
                # near misses: 512000Mi (= 500Gi), 0.4Ti (< 500Gi)
                pvc2("analytics", "marts", "512000Mi"), pvc2("backup", "vault", "0.4Ti")]

    def bad(O):
        return {rid(o) for o, s in claims(O) if qbytes(s["resources"]["requests"]["storage"]) > 500 * 2**30}
    PRED["set8-volume-size-cap"] = bad
    return S("set8-volume-size-cap", None, "effect",
             "No workload may obtain a single persistent volume larger than 500 GiB (binary gibibytes: 500 x 2^30 = "
             "536,870,912,000 bytes); exactly 500 GiB is allowed. What is judged is the storage each claim requests, "
             "including the claim templates of StatefulSets, whatever unit it is written in (decimal units such as G "
             "are powers of 1000, binary ones such as Gi powers of 1024, a bare number is bytes).",
             objs(True), objs(False), ["PersistentVolumeClaim/analytics/warehouse", "StatefulSet/data/es", "PersistentVolumeClaim/backup/archive"],
             "resources.requests.storage > 500Gi. Violating: 1Ti; a StatefulSet template of 600G (558.8 GiB, looks "
             "smaller than 'the 1T'); 537000000000 bytes (just over). Near misses (both): 500Gi, 530G (493.6 GiB), "
             "536870912000 bytes, 512000Mi, 0.4Ti.",
             "a claim requesting more than 500Gi (units converted)")


# k07 tokenreviews ---------------------------------------------------------------------------------------------
@scenario
def token_reviews():
    def objs(bad):
        A = "authentication.k8s.io"
        return [role("api-gateway-auth", [rule([A], ["tokenreviews"], ["create"]) if bad else rule([""], ["configmaps"], ["get"])]),
                role("sidecar-injector", [rule(["admissionregistration.k8s.io"], ["mutatingwebhookconfigurations"], ["get", "list", "watch"]),
                                          rule([A], ["*"] if bad else ["selfsubjectreviews"], ["create"])]),
                role("platform-admin", [rule(["*"], ["*"], ["*"]) if bad else rule(["apps"], ["*"], ["*"])]),
                # near misses: system:auth-delegator (exempt); subjectaccessreviews create; read verbs on tokenreviews
                role("system:auth-delegator", [rule([A], ["tokenreviews"], ["create"]),
                                               rule(["authorization.k8s.io"], ["subjectaccessreviews"], ["create"])]),
                role("metrics-auth", [rule(["authorization.k8s.io"], ["subjectaccessreviews"], ["create"]),
                                      rule([A], ["tokenreviews"], ["get", "list"])]),
                binding("metrics-auth", "ClusterRole", "metrics-auth", [sasub("metrics-server", "kube-system")]),
                role("audit-reader", [rule([""], ["secrets"], ["get", "list"])])]

    def bad(O):
        return {rid(o) for o, rs in rules_of(O) if any(grants(r, ["authentication.k8s.io"], ["tokenreviews"], ["create"]) for r in rs)}
    PRED["set8-token-review-callers"] = bad
    return S("set8-token-review-callers", None, "effect",
             "Only the cluster's own built-in roles (names starting with system:) may allow a caller to ask the API server "
             "whether somebody else's bearer token is valid and whom it belongs to (a token review). No other Role or "
             "ClusterRole may grant that, whether explicitly or through wildcards for the API group, the resource or the "
             "verb. Asking whether a user may do something (access reviews) and a caller asking about itself are different "
             "things and are not covered. Bindings are not judged; report the roles.",
             objs(True), objs(False), ["ClusterRole//api-gateway-auth", "ClusterRole//sidecar-injector", "ClusterRole//platform-admin"],
             "create on tokenreviews (authentication.k8s.io), wildcards included. Violating: explicit; resources * in "
             "authentication.k8s.io (second rule); */*/*. Near misses (both): system:auth-delegator, subjectaccessreviews "
             "create, get/list on tokenreviews (not create), selfsubjectreviews, a secrets reader (another control).",
             "create on tokenreviews (directly or via *) in a non-system role")


# k08 startingDeadlineSeconds ----------------------------------------------------------------------------------
@scenario
def missed_runs():
    def objs(bad):
        s = one("job")
        return [ns("billing"), ns("ops"), ns("reports"),
                job("billing", "settle", s, deadline=1800, backoff=2, cron=True, concurrency="Forbid", starting=None if bad else 600),
                job("ops", "backup", s, deadline=3600, backoff=2, cron=True, concurrency="Forbid", suspend=True, starting=3600 if bad else 300),
                job("reports", "weekly", s, deadline=600, backoff=1, cron=True, concurrency="Forbid", starting=None if bad else 120),
                # near misses: a plain Job (out of scope); a suspended CronJob with 60
                job("billing", "one-off", s, deadline=600, backoff=1),
                job("ops", "logrotate", s, deadline=600, backoff=1, cron=True, concurrency="Replace", suspend=True, starting=60)]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "CronJob" and not o["spec"].get("startingDeadlineSeconds", 10**9) <= 600}
    PRED["set8-missed-run-cutoff"] = bad
    return S("set8-missed-run-cutoff", None, "effect",
             "A scheduled (cron) job whose start time was missed, for instance during a control-plane outage, must not be "
             "started more than 10 minutes (600 seconds, inclusive) after its scheduled time. When a CronJob states no "
             "cut-off, Kubernetes will start a missed run however late it is, which does not meet this. The limit on how "
             "long a run may take once started is a different thing and does not count. Suspended CronJobs are in scope "
             "(they can be resumed); one-off Jobs are not.",
             objs(True), objs(False), ["CronJob/billing/settle", "CronJob/ops/backup", "CronJob/reports/weekly"],
             "CronJob spec.startingDeadlineSeconds <= 600. Violating: absent; 3600 on a suspended CronJob; absent with a "
             "job-level activeDeadlineSeconds 600 (looks like it). Near misses (both): exactly 600, 300, 60 on a suspended "
             "one, a plain Job.",
             "a CronJob without startingDeadlineSeconds <= 600 (suspended ones included)")


# k09 ttlSecondsAfterFinished -------------------------------------------------------------------------------
@scenario
def ttl_finished():
    def objs(bad):
        s = one("job")
        a = job("etl", "backfill", s, deadline=3600, backoff=2)
        b = job("ml", "retrain", s, deadline=7200, backoff=2, cron=True, concurrency="Forbid", starting=300)
        b["spec"]["successfulJobsHistoryLimit"] = 1
        b["spec"]["failedJobsHistoryLimit"] = 1
        c = job("ops", "rotate", s, deadline=600, backoff=1, cron=True, concurrency="Forbid", starting=300)
        c["spec"]["jobTemplate"]["spec"]["ttlSecondsAfterFinished"] = 604800 if bad else 86400
        if not bad:
            a["spec"]["ttlSecondsAfterFinished"] = 0
            b["spec"]["jobTemplate"]["spec"]["ttlSecondsAfterFinished"] = 3600
        d = job("etl", "reindex", s, deadline=600, backoff=1)
        d["spec"]["ttlSecondsAfterFinished"] = 86400
        e = job("ml", "eval", s, deadline=600, backoff=1, cron=True, concurrency="Forbid", starting=300)
        e["spec"]["jobTemplate"]["spec"]["ttlSecondsAfterFinished"] = 600
        e["spec"]["successfulJobsHistoryLimit"] = 10
        return [ns("etl"), ns("ml"), ns("ops"), a, b, c, d, e]

    def bad(O):
        return {rid(o) for o in O if jspec(o) is not None and not jspec(o).get("ttlSecondsAfterFinished", 10**9) <= 86400}
    PRED["set8-finished-jobs-cleaned-up"] = bad
    return S("set8-finished-jobs-cleaned-up", None, "operator",
             "Cluster hygiene rule: every Job, and every Job a CronJob creates, must be deleted automatically by Kubernetes "
             "no later than 24 hours (86400 seconds, inclusive) after it finishes; 0 (delete at once) is fine. A Job that "
             "states no such time is kept forever. For CronJobs, the limits on how many finished Jobs to keep in the "
             "history do not count: the time must be set on the Job the CronJob creates.",
             objs(True), objs(False), ["Job/etl/backfill", "CronJob/ml/retrain", "CronJob/ops/rotate"],
             "ttlSecondsAfterFinished <= 86400 on the Job spec / CronJob jobTemplate.spec. Violating: absent on a Job; "
             "absent on a CronJob with history limits 1/1; 604800 on a CronJob. Near misses (both): exactly 86400, 0, "
             "600 with successfulJobsHistoryLimit 10.",
             "Job / CronJob job template without ttlSecondsAfterFinished <= 86400 (history limits do not count)")


# k10 revisionHistoryLimit --------------------------------------------------------------------------------
@scenario
def revision_history():
    def objs(bad):
        d = wl("Deployment", "web", "frontend", one("frontend"))
        s = wl("StatefulSet", "data", "pg", one("pg"))
        s["spec"]["revisionHistoryLimit"] = 10 if bad else 3
        ds = wl("DaemonSet", "logging", "fluentbit", one("fluentbit"))
        ds["spec"]["revisionHistoryLimit"] = 5 if bad else 0
        if not bad: d["spec"]["revisionHistoryLimit"] = 2
        d2 = wl("Deployment", "web", "admin", one("admin"))
        d2["spec"]["revisionHistoryLimit"] = 3
        d2["metadata"]["annotations"] = {"deployment.kubernetes.io/revision": "14"}
        cj = job("logging", "compact", one("compact"), deadline=600, backoff=1, cron=True, concurrency="Forbid", starting=300)
        cj["spec"]["successfulJobsHistoryLimit"] = 10
        return [ns("web"), ns("data"), ns("logging"), d, s, ds, d2, cj]

    def bad(O):
        return {rid(o) for o in O if o["kind"] in ("Deployment", "StatefulSet", "DaemonSet")
                and o["spec"].get("revisionHistoryLimit", 10) > 3}
    PRED["set8-rollout-history-depth"] = bad
    return S("set8-rollout-history-depth", None, "auditor",
             "Auditor's check on rollout history: Deployments, StatefulSets and DaemonSets must keep at most 3 old "
             "revisions of their pod template for rollback (fewer, including none, is acceptable). An object that does not "
             "state how many it keeps retains Kubernetes' default of 10. The number of finished Jobs a CronJob keeps is "
             "not rollout history and is not audited.",
             objs(True), objs(False), ["Deployment/web/frontend", "StatefulSet/data/pg", "DaemonSet/logging/fluentbit"],
             "spec.revisionHistoryLimit <= 3 (default 10). Violating: absent on a Deployment; 10 on a StatefulSet; 5 on "
             "a DaemonSet. Near misses (both): 3, 2, 0, a revision annotation of 14, a CronJob with successfulJobsHistoryLimit 10.",
             "Deployment/StatefulSet/DaemonSet revisionHistoryLimit absent (10) or > 3")


# k11 HPA bounds ---------------------------------------------------------------------------------------------
def hpa(namespace, name, mn, mx, v1=False):
    spec = {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": name}}
    if mn is not None: spec["minReplicas"] = mn
    spec["maxReplicas"] = mx
    if v1:
        spec["targetCPUUtilizationPercentage"] = 70
        return {"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": meta(name, namespace), "spec": spec}
    spec["metrics"] = [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}]
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": meta(name, namespace), "spec": spec}


@scenario
def hpa_bounds():
    def objs(bad):
        one_r = wl("Deployment", "shop", "web", one("web"))
        one_r["spec"]["replicas"] = 1
        return [ns("shop"), ns("api"), ns("search"), one_r,
                hpa("shop", "web", None if bad else 2, 10),
                hpa("api", "gateway", 3, 50 if bad else 20),
                hpa("search", "query", 1 if bad else 2, 10, v1=True),
                # near misses: exactly 2..20; a v1 HPA; a Deployment declaring replicas 1 under an HPA
                hpa("api", "auth", 2, 20), hpa("search", "indexer", 4, 8, v1=True)]

    def bad(O):
        return {rid(o) for o in O if o["kind"] == "HorizontalPodAutoscaler"
                and (o["spec"].get("minReplicas", 1) < 2 or o["spec"]["maxReplicas"] > 20)}
    PRED["set8-autoscaler-bounds"] = bad
    return S("set8-autoscaler-bounds", None, "operator",
             "Capacity rule for horizontal pod autoscalers (any API version): an autoscaler must never be allowed to scale "
             "its target below 2 replicas or above 20 (2 and 20 themselves are fine). An autoscaler that does not state "
             "its lower bound uses Kubernetes' default of 1. The replica count written in the target workload is not "
             "judged by this rule; report the autoscalers.",
             objs(True), objs(False), ["HorizontalPodAutoscaler/shop/web", "HorizontalPodAutoscaler/api/gateway",
                                       "HorizontalPodAutoscaler/search/query"],
             "minReplicas >= 2 (default 1) and maxReplicas <= 20. Violating: no minReplicas (v2); maxReplicas 50; an "
             "autoscaling/v1 HPA with minReplicas 1. Near misses (both): 2..20, a v1 HPA 4..8, the Deployment with "
             "replicas 1 that an HPA governs.",
             "an HPA with minReplicas absent/<2 or maxReplicas >20")


# k12 PDB coverage ----------------------------------------------------------------------------------------------
def pdb(namespace, name, sel, **kw):
    spec = {"selector": sel}
    spec.update(kw or {"minAvailable": 1})
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": meta(name, namespace), "spec": spec}


def sel_match(sel, labels):
    for k, v in (sel.get("matchLabels") or {}).items():
        if labels.get(k) != v: return False
    for e in sel.get("matchExpressions") or []:
        k, op, vals = e["key"], e["operator"], e.get("values", [])
        if op == "In" and labels.get(k) not in vals: return False
        if op == "NotIn" and k in labels and labels[k] in vals: return False
        if op == "Exists" and k not in labels: return False
        if op == "DoesNotExist" and k in labels: return False
    return bool(sel.get("matchLabels") or sel.get("matchExpressions"))


@scenario
def pdb_cover():
    def objs(bad):
        def dep(n, name, r):
            d = wl("Deployment", n, name, one(name))
            if r is None: d["spec"].pop("replicas")
            else: d["spec"]["replicas"] = r
            d["spec"]["template"]["metadata"]["labels"]["tier"] = "backend"
            return d
        L = lambda n: {"matchLabels": {"app.kubernetes.io/name": n}}
        out = [ns("payments"), ns("search"), ns("auth"), ns("shared"),
               dep("payments", "api", 3), dep("search", "frontend", 2), dep("auth", "keycloak", 2),
               dep("payments", "worker", 1), dep("search", "crawler", None), dep("auth", "ldap-proxy", 2),
               pdb("auth", "ldap-proxy", {"matchExpressions": [{"key": "app.kubernetes.io/name", "operator": "In",
                                                                "values": ["ldap-proxy", "ldap"]}]}, maxUnavailable=0)]
        if bad:
            out += [pdb("shared", "frontend", L("frontend")),
                    pdb("auth", "keycloak", {"matchLabels": {"app.kubernetes.io/name": "keycloak", "tier": "identity"}})]
        else:
            out += [pdb("payments", "api", L("api"), maxUnavailable=1), pdb("search", "frontend", L("frontend")),
                    pdb("auth", "keycloak", {"matchLabels": {"app.kubernetes.io/name": "keycloak", "tier": "backend"}})]
        return out

    def bad(O):
        pdbs = [o for o in O if o["kind"] == "PodDisruptionBudget"]
        return {rid(o) for o in O if o["kind"] == "Deployment" and o["spec"].get("replicas", 1) >= 2
                and not any(p["metadata"]["namespace"] == o["metadata"]["namespace"]
                            and sel_match(p["spec"]["selector"], o["spec"]["template"]["metadata"]["labels"]) for p in pdbs)}
    PRED["set8-disruption-budget-coverage"] = bad
    return S("set8-disruption-budget-coverage", None, "effect",
             "Voluntary disruptions (node drains, upgrades) must never be able to evict all pods of a replicated "
             "Deployment at once: every Deployment that runs 2 or more replicas must have its pods covered by a "
             "PodDisruptionBudget in its own namespace, i.e. one whose selector matches the labels of the pods the "
             "Deployment creates. A Deployment that does not state a replica count runs 1 and is exempt, as are those with "
             "1. How generous the budget is belongs to another control and is not judged here. Report the Deployments.",
             objs(True), objs(False), ["Deployment/payments/api", "Deployment/search/frontend", "Deployment/auth/keycloak"],
             "Per Deployment with replicas >= 2: a same-namespace PDB whose selector matches its pod-template labels. "
             "Violating: no PDB at all; a matching PDB in namespace shared; a PDB whose selector also needs tier=identity "
             "(the pods have tier=backend). Near misses (both): replicas 1 and absent without PDB, a matchExpressions In "
             "selector, a PDB with maxUnavailable 0 (another control).",
             "a Deployment with >= 2 replicas and no same-namespace PDB selecting its pods")


# k13 stdin / tty -------------------------------------------------------------------------------------------------
@scenario
def no_tty():
    def objs(bad):
        ti = {"stdin": True, "tty": True}
        return [ns("tools"), ns("ops"), ns("batch"),
                wl("Deployment", "tools", "repl", podspec([ctr("repl", tagged("tools/repl", "3.1"), stdin=False),
                                                          ctr("console", tagged("tools/console", "1.0"), **({"tty": True} if bad else {"tty": False}))])),
                wl("Pod", "ops", "debug-7f", dict(podspec([ctr("app", tagged("ops/app", "2.0"))]), ephemeralContainers=[
                    eph("debugger-x2k", tagged("tools/busybox", "1.36"), **(ti if bad else {"command": ["sleep", "3600"]}))])),
                wl("CronJob", "batch", "migrate", podspec([ctr("migrate", tagged("batch/migrate", "5.0"))],
                                                         init=[ctr("schema", tagged("batch/schema", "5.0"), **({"stdin": True, "stdinOnce": True} if bad else {}))])),
                # near misses: TERM env var, an interactive-looking command, tty/stdin false
                wl("StatefulSet", "tools", "jupyter", podspec([ctr("nb", tagged("tools/jupyter", "4.1"), stdin=False, tty=False,
                                                                  env=[{"name": "TERM", "value": "xterm-256color"}],
                                                                  command=["/bin/bash", "-i", "-c", "start-notebook.sh"])]))]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if any(c.get("stdin") or c.get("tty") for c in all_ctrs(sp))}
    PRED["set8-no-interactive-terminals"] = bad
    return S("set8-no-interactive-terminals", None, "effect",
             "No container may be set up for interactive use: Kubernetes must neither keep a container's standard input "
             "open nor allocate a terminal for it. This applies to every container (regular, init and ephemeral debug "
             "containers) of every pod and pod template. Environment variables or commands that merely look interactive "
             "are not what is judged.",
             objs(True), objs(False), ["Deployment/tools/repl", "Pod/ops/debug-7f", "CronJob/batch/migrate"],
             "container stdin: true or tty: true. Violating: the second container (tty); an ephemeral debug container "
             "(stdin+tty, the kubectl debug default); a CronJob's init container (stdin + stdinOnce). Near misses (both): "
             "stdin/tty false explicitly, TERM env, `bash -i`.",
             "a container (any kind) with stdin or tty true")


# k14 privileged ports ---------------------------------------------------------------------------------------------
@scenario
def low_ports():
    def c(name, path, *ports, **kw):
        x = ctr(name, tagged(path, "1.2"), **kw)
        x["ports"] = [dict({"name": n, "containerPort": p}, **({"protocol": pr} if pr else {})) for n, p, pr in ports]
        return x

    def objs(bad):
        return [ns("web"), ns("mail"), ns("net"),
                wl("Deployment", "web", "nginx", podspec([c("nginx", "web/nginx", ("http", 80 if bad else 8080, None))])),
                wl("StatefulSet", "mail", "postfix", podspec([c("postfix", "mail/postfix", ("submission", 1587, None)),
                                                              c("smtp-relay", "mail/relay", ("smtp", 25 if bad else 2525, None))])),
                wl("DaemonSet", "net", "dns", podspec([c("dns", "net/coredns", ("metrics", 9153, None),
                                                         ("dns", 53 if bad else 1053, "UDP"))])),
                svcx("web", "nginx", None, [{"name": "https", "port": 443, "targetPort": 8443}]),
                # near misses: exactly 1024; a Service port 25 targeting 2525; a probe on port 8080
                wl("Deployment", "mail", "webmail", podspec([c("webmail", "mail/webmail", ("http", 1024, None))])),
                svcx("mail", "postfix", None, [{"name": "smtp", "port": 25, "targetPort": 2525}])]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O) if any(p.get("containerPort", 1024) < 1024 for x in all_ctrs(sp) for p in x.get("ports", []))}
    PRED["set8-unprivileged-listen-ports"] = bad
    return S("set8-unprivileged-listen-ports", None, "effect",
             "Applications must not need to bind privileged ports: no container, in any pod or pod template, may declare "
             "that it listens on a port below 1024 (TCP or UDP); 1024 and above is fine. A Service may still expose a low "
             "port to clients as long as it forwards to a container port of 1024 or more, so Service ports are not judged.",
             objs(True), objs(False), ["Deployment/web/nginx", "StatefulSet/mail/postfix", "DaemonSet/net/dns"],
             "containerPort < 1024 on any container. Violating: 80; the second container's 25; a UDP 53 as the second port "
             "entry. Near misses (both): 1024 exactly, 1587, Service ports 443 and 25 forwarding to high ports.",
             "a container declaring a containerPort below 1024")


# k15 required labels on pods -----------------------------------------------------------------------------------
@scenario
def pod_labels():
    PART = "app.kubernetes.io/part-of"

    def objs(bad):
        d = wl("Deployment", "shop", "cart", one("cart"))
        d["metadata"]["labels"] = {"app.kubernetes.io/name": "cart", PART: "webshop"}
        cj = wl("CronJob", "batch", "report", one("report"))
        p = wl("Pod", "ops", "shell", one("shell"))
        sts = wl("StatefulSet", "shop", "redis", one("redis"))
        ds = wl("DaemonSet", "ops", "node-agent", one("node-agent"))
        label_all([sts, ds], {PART: "platform"})
        if bad:
            tmpl(cj)["labels"]["app.kubernetes.io/part_of"] = "reporting"
            p["metadata"]["annotations"] = {PART: "ops-tools"}
        else:
            label_all([d, cj, p], {PART: "webshop"})
        return [ns("shop"), ns("batch"), ns("ops"), d, cj, p, sts, ds]

    def bad(O):
        return {rid(o) for o, sp, pm in workloads(O)
                if not all((tmpl(o).get("labels") or {}).get(k) for k in ("app.kubernetes.io/name", PART))}
    PRED["set8-ownership-labels-on-pods"] = bad
    return S("set8-ownership-labels-on-pods", None, "auditor",
             "Auditor's inventory check: every pod must be attributable. Each bare Pod, and the pods each Deployment, "
             "StatefulSet, DaemonSet, Job and CronJob creates, must carry two labels with non-empty values: "
             "app.kubernetes.io/name and app.kubernetes.io/part-of. Labels on the controller object itself are not "
             "copied to its pods and do not count; annotations are not labels; the key must be spelled exactly.",
             objs(True), objs(False), ["Deployment/shop/cart", "CronJob/batch/report", "Pod/ops/shell"],
             "pod (template) labels app.kubernetes.io/name and app.kubernetes.io/part-of. Violating: part-of only on the "
             "Deployment's own metadata; `app.kubernetes.io/part_of` (underscore) in a CronJob template; part-of as an "
             "annotation on a bare Pod. Near misses (both): StatefulSet and DaemonSet with both labels.",
             "a pod or pod template missing app.kubernetes.io/name or app.kubernetes.io/part-of")


# ================================================================== RHEL 9 (ciso-set8)
def sys_keys(t):
    """systemd-sysctl effective values of explicit keys (glob lines never override an explicitly set key)."""
    return {k: v for k, v in sysctl_effective(t).items() if "*" not in k}


def with_conf(t, extra):
    t["etc/sysctl.conf"] = SYSCTL_CONF + extra
    t["etc/sysctl.d/99-sysctl.conf"] = t["etc/sysctl.conf"]
    return t


# r01 send_redirects ----------------------------------------------------------------------------------------
@scenario
def r_send_redirects():
    v = sysbase()
    v["etc/sysctl.d/60-cis-network.conf"] = ("# CIS 3.2/3.3 (CHG-8120)\nnet.ipv4.ip_forward = 0\n"
                                             "net.ipv4.conf.all.send_redirects = 0\n"
                                             "# net.ipv4.conf.default.send_redirects = 0   (pending CHG-8121)\n")
    v["run/sysctl.d/90-netsetup.conf"] = ("# generated at boot by netsetup for the bonding driver\n"
                                          "net.ipv4.conf.all.send_redirects = 1\n")
    c = sysbase()
    c["etc/sysctl.d/60-cis-network.conf"] = ("# CIS 3.2/3.3 (CHG-8120)\nnet.ipv4.ip_forward = 0\n"
                                             "net.ipv4.conf.all.send_redirects = 0\nnet.ipv4.conf.default.send_redirects=0\n"
                                             "net.ipv4.conf.all.accept_redirects = 1\n")
    c["run/sysctl.d/90-netsetup.conf"] = v["run/sysctl.d/90-netsetup.conf"]
    c["etc/sysctl.d/90-netsetup.conf"] = "# masks the boot-time netsetup file (CHG-8122)\nnet.ipv4.conf.all.send_redirects = 0\n"
    c = with_conf(c, "# net.ipv4.conf.default.send_redirects = 1\n")

    def bad(t):
        e = sys_keys(t)
        return {"sysctl//" + k for k in ("net.ipv4.conf.all.send_redirects", "net.ipv4.conf.default.send_redirects")
                if e.get(k, "1") != "0"}
    RPRED["set8-rhel-no-redirect-sending"] = bad
    return S("set8-rhel-no-redirect-sending", None, "effect",
             "These hosts are not routers and must never send ICMP redirect messages telling other systems to use a "
             "different route, on any existing interface nor on interfaces added later. What counts is the state the host "
             "comes up in after a reboot from its persistent kernel-parameter configuration (every location the boot-time "
             "loader reads, with its precedence rules); the kernel sends redirects by default, so a parameter that no file "
             "sets does not meet this. Accepting redirects is a different control and is not judged here.", v, c,
             ["sysctl//net.ipv4.conf.all.send_redirects", "sysctl//net.ipv4.conf.default.send_redirects"],
             "Keys net.ipv4.conf.{all,default}.send_redirects = 0 (kernel default 1). systemd-sysctl: files by name across "
             "/etc, /run, /usr/local/lib, /usr/lib sysctl.d, a same-named /etc file masks the others, later wins. "
             "Violating: 60-cis-network.conf sets all=0 but default only in a comment; /run/sysctl.d/90-netsetup.conf "
             "(later name) sets all=1. Compliant: both 0; an /etc/sysctl.d/90-netsetup.conf masks the /run file; "
             "sysctl.conf only has a commented default=1; accept_redirects=1 is another control (not labelled).",
             "all.send_redirects 1 from a /run/sysctl.d file; default.send_redirects only commented (kernel default 1)",
             platform="rhel9", classes=RHEL)


# r02 syncookies + broadcast echo ----------------------------------------------------------------------------
@scenario
def r_syn_bcast():
    CIS = ("# CIS 3.3.5 / 3.3.8 (CHG-8130)\nnet.ipv4.icmp_echo_ignore_broadcasts = 1\nnet.ipv4.tcp_syncookies = 1\n")
    VEND = ("# acme-mcast-agent: needs broadcast echo for node discovery\n"
            "net/ipv4/icmp_echo_ignore_broadcasts = 0\n")
    v = with_conf(sysbase(), "\n# load test INC-8131 (temporary)\nnet.ipv4.tcp_syncookies=0 \n")
    v["etc/sysctl.d/60-cis-network.conf"] = CIS
    v["usr/lib/sysctl.d/80-acme-mcast.conf"] = VEND
    c = with_conf(sysbase(), "\n# load test INC-8131 (temporary, reverted)\n#net.ipv4.tcp_syncookies=0\n")
    c["etc/sysctl.d/60-cis-network.conf"] = CIS
    c["usr/lib/sysctl.d/80-acme-mcast.conf"] = VEND
    c["etc/sysctl.d/80-acme-mcast.conf"] = "# masks the vendor file: discovery uses unicast now (CHG-8132)\n"
    c["etc/sysctl.d/70-tuning.conf"] = "net.ipv4.tcp_max_syn_backlog = 4096\nnet.ipv4.icmp_ignore_bogus_error_responses = 0\n"

    def bad(t):
        e = sys_keys(t)
        return {"sysctl//" + k for k in ("net.ipv4.icmp_echo_ignore_broadcasts", "net.ipv4.tcp_syncookies") if e.get(k, "1") != "1"}
    RPRED["set8-rhel-syncookies-broadcast-echo"] = bad
    return S("set8-rhel-syncookies-broadcast-echo", None, "CIS",
             "CIS Red Hat Enterprise Linux 9 Benchmark, Network Parameters: Ensure broadcast ICMP requests are ignored "
             "(net.ipv4.icmp_echo_ignore_broadcasts = 1) and Ensure TCP SYN Cookies is enabled (net.ipv4.tcp_syncookies = "
             "1). Rationale: accepting ICMP echo and timestamp requests with broadcast or multicast destinations for your "
             "network could be used to trick your host into starting (or participating) in a Smurf attack; SYN cookies "
             "let the system keep accepting valid connections during a SYN flood. Audit the persistent configuration the "
             "host will boot with; on RHEL 9 both parameters are 1 when no file sets them.", v, c,
             ["sysctl//net.ipv4.icmp_echo_ignore_broadcasts", "sysctl//net.ipv4.tcp_syncookies"],
             "Violating: 60-cis-network.conf sets both to 1, but /etc/sysctl.conf (read as /etc/sysctl.d/99-sysctl.conf, "
             "last) sets tcp_syncookies=0 (trailing space), and a vendor /usr/lib/sysctl.d/80-acme-mcast.conf (later "
             "name) sets `net/ipv4/icmp_echo_ignore_broadcasts = 0` (slash form). Compliant: the sysctl.conf line is "
             "commented; an /etc/sysctl.d/80-acme-mcast.conf with only a comment masks the vendor file; "
             "icmp_ignore_bogus_error_responses = 0 is another control (not labelled).",
             "tcp_syncookies 0 from sysctl.conf (99-sysctl.conf); broadcast echo 0 from a later vendor file (slash key)",
             platform="rhel9", classes=RHEL)


# r03 pwquality minclass / dictcheck ----------------------------------------------------------------------------
PWQ = """# Configuration for systemwide password quality limits
# Defaults:
#
# Number of characters in the new password that must not be present in the
# old password.
# difok = 1
#
# Minimum acceptable size for the new password (plus one if
# credits are not disabled which is the default). (See pam_cracklib manual.)
# Cannot be set to lower value than 6.
minlen = 14
#
# The minimum number of required classes of characters for the new
# password (digits, uppercase, lowercase, others).
# minclass = 0
minclass = 3
#
# Whether to check for the words from the passwd entry GECOS string of the user.
# The check is enabled if the value is not 0.
# gecoscheck = 0
#
# Whether to check for the words from the cracklib dictionary.
# The check is enabled if the value is not 0.
# dictcheck = 1
#
# Path to the cracklib dictionaries. Default is to use the cracklib default.
# dictpath =
"""


def pam_line(text):
    return {l.split()[2]: l for l in text.splitlines() if l.startswith("password") and "pam_pwquality" in l}


def pwq_eff(t, stack):
    val = {"minclass": 0, "dictcheck": 1, "minlen": 9}
    files = ["etc/security/pwquality.conf"] + sorted(p for p in t if p.startswith("etc/security/pwquality.conf.d/") and p.endswith(".conf"))
    for p in files:
        for line in t.get(p, "").splitlines():
            line = line.strip()
            if not line or line.startswith("#") or "=" not in line: continue
            k, x = (s.strip() for s in line.split("=", 1))
            if k in val: val[k] = int(x)
    for l in t[stack].splitlines():
        w = l.split()
        if len(w) > 2 and w[0] == "password" and w[2] == "pam_pwquality.so":
            for a in w[3:]:
                if "=" in a and a.split("=")[0] in val: val[a.split("=")[0]] = int(a.split("=")[1])
    return val


@scenario
def r_pwquality():
    def host(bad):
        sa_ = SYSTEM_AUTH.replace("{pwq}", "local_users_only")
        pa = SYSTEM_AUTH.replace("{pwq}", "local_users_only minclass=2" if bad else "local_users_only minclass=4 minlen=8")
        t = {"etc/security/pwquality.conf": PWQ, "etc/pam.d/system-auth": sa_, "etc/pam.d/password-auth": pa}
        if bad:
            t["etc/security/pwquality.conf.d/50-legacy-app.conf"] = ("# legacy HR app generates passphrases from words (TKT-8141)\n"
                                                                     "dictcheck = 0\n")
        else:
            t["etc/security/pwquality.conf.d/50-legacy-app.conf"] = ("# legacy HR app generates passphrases from words (TKT-8141)\n"
                                                                     "# dictcheck = 0   -- rejected by security review\n")
            t["etc/security/pwquality.conf.d/50-legacy-app.conf.rpmsave"] = "dictcheck = 0\nminclass = 1\n"
        return t
    v, c = host(True), host(False)

    def bad(t):
        out = set()
        for st in ("etc/pam.d/system-auth", "etc/pam.d/password-auth"):
            e = pwq_eff(t, st)
            if e["minclass"] < 3: out.add("pwquality//minclass")
            if e["dictcheck"] == 0: out.add("pwquality//dictcheck")
        return out
    RPRED["set8-rhel-password-complexity"] = bad
    return S("set8-rhel-password-complexity", None, "effect",
             "When any user sets a new password on these hosts, through either of the two authentication stacks that "
             "change passwords (system-auth and password-auth), the password must be refused unless it uses characters "
             "from at least 3 of the 4 classes (digits, upper case, lower case, others), and it must be refused if it is "
             "based on a dictionary word. Judge what the password-quality module will actually enforce from its "
             "configuration files and from the arguments on each stack's line (arguments on the line win over the files). "
             "Out of the box the module requires no particular number of classes and does check the dictionary. Password "
             "length is another control.", v, c, ["pwquality//minclass", "pwquality//dictcheck"],
             "pam_pwquality minclass >= 3 (default 0) and dictcheck != 0 (default 1); sources /etc/security/pwquality.conf, "
             "pwquality.conf.d/*.conf, then module arguments. Violating: the main file has minclass = 3 but password-auth's "
             "pam_pwquality line says minclass=2; the drop-in 50-legacy-app.conf sets dictcheck = 0 (the main file only "
             "has it commented, so drop-in order does not matter). Compliant: the drop-in line is commented; a .rpmsave "
             "is not read; minclass=4 on password-auth; minlen=8 on the line is another control (not labelled).",
             "minclass=2 on password-auth's line beats the file's 3; dictcheck = 0 in a pwquality.conf.d drop-in",
             platform="rhel9", classes=RHEL)


# r04 login.defs UMASK / PASS_WARN_AGE -------------------------------------------------------------------------
LOGIN_DEFS = """#
# Please note that the parameters in this configuration file control the
# behavior of the tools from the shadow-utils component. None of these
# tools uses the PAM mechanism, and the utilities that use PAM (such as the
# passwd command) should therefore be configured elsewhere. Refer to
# /etc/pam.d/system-auth for more information.
#

# Directory where mailboxes reside, _or_ name of file, relative to the
# home directory.  If you _do_ define both, MAIL_DIR takes precedence.
#
MAIL_DIR	/var/spool/mail

# Default initial "umask" value used by login(1) on non-PAM enabled systems.
# Default "umask" value for pam_umask(8) on PAM enabled systems.
# UMASK is also used by useradd(8) and newusers(8) to set the mode for new
# home directories if HOME_MODE is not set.
# 022 is the default value, but 027, or even 077, could be considered
# for increased privacy. There is no One True Answer here: each sysadmin
# must make up their mind.
UMASK		{umask}

# HOME_MODE is used by useradd(8) and newusers(8) to set the mode for new
# home directories.
# If HOME_MODE is not set, the value of UMASK is used to create the mode.
HOME_MODE	0700

# Password aging controls:
#
#	PASS_MAX_DAYS	Maximum number of days a password may be used.
#	PASS_MIN_DAYS	Minimum number of days allowed between password changes.
#	PASS_MIN_LEN	Minimum acceptable password length.
#	PASS_WARN_AGE	Number of days warning given before a password expires.
#
PASS_MAX_DAYS	{maxdays}
PASS_MIN_DAYS	1
{warn}

UID_MIN                  1000
UID_MAX                 60000
GID_MIN                  1000
GID_MAX                 60000

CREATE_HOME	yes
USERGROUPS_ENAB yes
ENCRYPT_METHOD SHA512
"""


def logindefs_eff(text):
    val = {}
    for line in text.splitlines():
        w = line.split()
        if w and not w[0].startswith("#") and len(w) >= 2:
            val[w[0]] = w[1]
    return val


@scenario
def r_login_defs():
    v = {"etc/login.defs": LOGIN_DEFS.format(umask="027", maxdays="365", warn="#PASS_WARN_AGE\t14\n#  (warning period agreed in CHG-8150, to be applied)")
         + "\n# local override for the build farm (TKT-8151)\nUMASK 0072\n"}
    c = {"etc/login.defs": LOGIN_DEFS.format(umask="022", maxdays="99999", warn="PASS_WARN_AGE\t14")
         + "\n# hardening (CHG-8152)\nUMASK\t077\n#UMASK 022\n"}

    def bad(t):
        e = logindefs_eff(t["etc/login.defs"])
        out = set()
        if int(e.get("UMASK", "022"), 8) & 0o027 != 0o027: out.add("login.defs//UMASK")
        if int(e.get("PASS_WARN_AGE", "-1")) < 7: out.add("login.defs//PASS_WARN_AGE")
        return out
    RPRED["set8-rhel-default-mask-and-warning"] = bad
    return S("set8-rhel-default-mask-and-warning", None, "auditor",
             "Audit of the shadow-utils defaults in /etc/login.defs (the value that counts is the last uncommented line "
             "for a setting, as the tools read it). (1) The default file-creation mask must remove at least write "
             "permission for the group and all permissions for others, i.e. cover 027 (077 is stricter and fine; a mask "
             "that lacks any of those bits fails). (2) Users must be warned at least 7 days before their password "
             "expires; if the file does not set the warning period, no warning is given. Password maximum and minimum "
             "ages are other controls.", v, c, ["login.defs//UMASK", "login.defs//PASS_WARN_AGE"],
             "UMASK (octal) & 027 == 027; PASS_WARN_AGE >= 7 (absent = no warning). Violating: UMASK 027 in the usual "
             "place, but a later appended `UMASK 0072` wins (looks strict, but lets others read/execute); PASS_WARN_AGE "
             "only commented. Compliant: UMASK 022 first, then a later `UMASK<TAB>077` wins (a `#UMASK 022` after it "
             "is a comment); PASS_WARN_AGE 14; PASS_MAX_DAYS 99999 is another control (not labelled).",
             "last UMASK line 0072 lacks 005 for others; PASS_WARN_AGE only in a comment",
             platform="rhel9", classes=RHEL)


# r05 sshd ClientAliveCountMax / LogLevel -----------------------------------------------------------------------
@scenario
def r_sshd_keepalive_log():
    main_v = SSHD_MAIN.replace("{auth}", "#MaxAuthTries 6\n").replace("{x11}", "X11Forwarding no\n") \
        .replace("#LogLevel INFO", "LogLevel VERBOSE") + "\nClientAliveInterval 300\nClientAliveCountMax 3\n"
    main_c = SSHD_MAIN.replace("{auth}", "#MaxAuthTries 6\n").replace("{x11}", "X11Forwarding no\n") \
        .replace("#LogLevel INFO", "LogLevel ERROR") + "\nClientAliveInterval 300\nClientAliveCountMax 0\n"
    v = {"etc/ssh/sshd_config": main_v, "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50,
         "etc/ssh/sshd_config.d/05-quiet.conf": "# reduce auth log noise from the scanners (INC-8160)\nloglevel error\n",
         "etc/ssh/sshd_config.d/10-keepalive.conf": "# keep idle VPN users connected (TKT-8161)\nClientAliveCountMax\t0\n"}
    c = {"etc/ssh/sshd_config": main_c, "etc/ssh/sshd_config.d/50-redhat.conf": REDHAT_50,
         "etc/ssh/sshd_config.d/01-cis.conf": "# CIS settings, read before everything else\nClientAliveCountMax 2\nLogLevel VERBOSE\n"
                                              "PermitRootLogin yes\n",
         "etc/ssh/sshd_config.d/10-keepalive.conf": v["etc/ssh/sshd_config.d/10-keepalive.conf"],
         "etc/ssh/sshd_config.d/05-quiet.conf.disabled": "loglevel error\n"}

    def bad(t):
        e = sshd_effective(t)
        out = set()
        if not 1 <= int(e.get("clientalivecountmax", "3")) <= 3: out.add("sshd//ClientAliveCountMax")
        if e.get("loglevel", "INFO").upper() not in ("INFO", "VERBOSE"): out.add("sshd//LogLevel")
        return out
    RPRED["set8-rhel-ssh-keepalive-logging"] = bad
    return S("set8-rhel-ssh-keepalive-logging", None, "effect",
             "The SSH daemon, as it will actually run with its configuration, must (1) disconnect a client after at most 3 "
             "unanswered keep-alive probes and never keep an unresponsive client forever (a setting of 0 disables the "
             "disconnection; when nothing is configured the daemon allows 3); and (2) log at the informational or verbose "
             "level so that logins and key fingerprints are recorded (quieter levels lose them and debug levels leak "
             "private data; the default is informational). The probe interval itself and root login are other controls.",
             v, c, ["sshd//ClientAliveCountMax", "sshd//LogLevel"],
             "sshd keeps the first value it reads; the main file includes sshd_config.d/*.conf (name order) on its first "
             "line, so drop-ins beat the main file; keywords and LogLevel values are case-insensitive. Violating: the "
             "main file has LogLevel VERBOSE and ClientAliveCountMax 3, but 05-quiet.conf (`loglevel error`) and "
             "10-keepalive.conf (`ClientAliveCountMax<TAB>0`) are read first. Compliant: 01-cis.conf is read first (2, "
             "VERBOSE), so the later 0 and the main file's ERROR/0 are ignored; a .conf.disabled file is not included; "
             "PermitRootLogin yes is another control (not labelled).",
             "drop-ins read before the main file: loglevel error and ClientAliveCountMax 0",
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
