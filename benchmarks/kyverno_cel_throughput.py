"""The pod-security controls written three ways -- classic patterns/podSecurity
(``pod-security``), ClusterPolicy ``validate.cel`` (``pod-security-cel``) and ValidatingPolicy
(``pod-security-vpol``) -- evaluated with the engine's ``apply`` in this one process over the same
generated Pods and Deployments (the Deployments reach every form through autogen). Reports per form:
policies, rule (or policy) evaluations, CPU seconds, evaluations per CPU-second and microseconds per
evaluation (medians of --repeats runs), and per control (paired by policy name) whether the forms
agree on pass/fail for every resource. Needs ../shared. Prints one JSON document.

Each repeat evaluates a fresh copy of the policies: the classic engine remembers validate outcomes
per rule object (``outcome_memo``), and a copy keeps one repeat from answering the next from that
memo. Compile caches keyed by source text (CEL programs, JMESPath, patterns) stay warm from the
first repeat on, as in any long-running process; ``first_cpu_s`` is the cold first repeat.

Run: .venv/bin/python benchmarks/kyverno_cel_throughput.py [--resources 1000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import resource
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from ciso.engines.kyverno.engine import RuleResult, apply

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "kyverno-policies"
#: form name -> corpus category; the first is the classic engine the others are compared with
FORMS = {
    "classic": "pod-security",
    "cel": "pod-security-cel",
    "vpol": "pod-security-vpol",
}
POLICY_KINDS = ("ClusterPolicy", "Policy", "ValidatingPolicy")
LEVELS = ("baseline", "restricted")  # the classic form's subrule/ folder has no CEL twin
#: how often each kind of violation is planted (per Pod, or per container for container fields)
VIOLATION_RATE = 0.08
#: controls whose forms are written to different rules in the corpus itself, so a disagreement
#: there is the policies', not the engine's (still measured and reported, never hidden)
POLICY_TEXT_DIFFERS = {
    "restrict-seccomp-strict": "the classic anyPattern wants seccompProfile.type set, on the pod "
    "or on every container (a pod-level Unconfined passes when every container sets a good "
    "type); the cel and vpol expressions accept it unset but check the pod level and every "
    "container",
}


def load_form(category: str) -> dict[str, list[dict[str, Any]]]:
    """The policies of one form, by control (the policy's name), baseline and restricted only."""
    controls: dict[str, list[dict[str, Any]]] = {}
    for level in LEVELS:
        for path in sorted((CORPUS / category / level).glob("*/*.yaml")):
            for doc in yaml.safe_load_all(path.read_text()):
                if isinstance(doc, dict) and doc.get("kind") in POLICY_KINDS:
                    name = (doc.get("metadata") or {}).get("name", path.stem)
                    controls.setdefault(name, []).append(doc)
    return controls


def _bad(rng: random.Random) -> bool:
    return rng.random() < VIOLATION_RATE


def _container(rng: random.Random, index: int, restricted: bool) -> dict[str, Any]:
    """One container; ``restricted`` ones start from the restricted profile's settings so the
    restricted controls pass on some resources, then every field may be spoilt."""
    context: dict[str, Any] = {}
    if restricted:
        context = {
            "allowPrivilegeEscalation": False,
            "runAsNonRoot": True,
            "capabilities": {"drop": ["ALL"]},
            "seccompProfile": {"type": "RuntimeDefault"},
        }
    if _bad(rng):
        context["privileged"] = True
    elif rng.random() < 0.2:
        context["privileged"] = False
    if _bad(rng):
        context["allowPrivilegeEscalation"] = True
    if _bad(rng):
        context["runAsNonRoot"] = False
    if _bad(rng):
        context["runAsUser"] = 0
    elif rng.random() < 0.2:
        context["runAsUser"] = rng.choice([1000, 65534])
    if _bad(rng):
        context.setdefault("capabilities", {})["add"] = [rng.choice(["NET_ADMIN", "SYS_ADMIN"])]
    elif rng.random() < 0.1:
        context.setdefault("capabilities", {})["add"] = ["NET_BIND_SERVICE"]
    if _bad(rng):
        context["capabilities"] = {"drop": ["NET_RAW"]}
    if _bad(rng):
        context["procMount"] = "Unmasked"
    if _bad(rng):
        context["seLinuxOptions"] = rng.choice([{"type": "spc_t"}, {"user": "root"}])
    if _bad(rng):
        context["seccompProfile"] = {"type": "Unconfined"}
    if _bad(rng):
        context["windowsOptions"] = {"hostProcess": True}
    container: dict[str, Any] = {
        "name": f"c{index}",
        "image": rng.choice(["nginx:1.25", "busybox:1.36", "registry.io/app:2"]),
    }
    if context:
        container["securityContext"] = context
    if _bad(rng):
        container["ports"] = [{"containerPort": 80, "hostPort": rng.choice([80, 5500])}]
    elif rng.random() < 0.3:
        container["ports"] = [{"containerPort": 8080}]
    return container


def pod_template(rng: random.Random, number: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """(metadata annotations, pod spec) of one generated workload."""
    restricted = rng.random() < 0.5
    spec: dict[str, Any] = {
        "containers": [_container(rng, i, restricted) for i in range(rng.randint(1, 3))]
    }
    if rng.random() < 0.2:
        spec["initContainers"] = [_container(rng, 9, restricted)]
    pod_context: dict[str, Any] = {}
    if restricted:
        pod_context = {"runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}}
    if _bad(rng):
        pod_context["runAsUser"] = 0
    if _bad(rng):
        pod_context["seccompProfile"] = {"type": "Unconfined"}
    if _bad(rng):
        pod_context["seLinuxOptions"] = {"role": "sysadm_r"}
    if _bad(rng):
        pod_context["sysctls"] = [{"name": "kernel.msgmax", "value": "65536"}]
    elif rng.random() < 0.1:
        pod_context["sysctls"] = [{"name": "net.ipv4.tcp_syncookies", "value": "1"}]
    if pod_context:
        spec["securityContext"] = pod_context
    for field in ("hostNetwork", "hostPID", "hostIPC"):
        if _bad(rng):
            spec[field] = True
    volumes = []
    if rng.random() < 0.4:
        volumes.append({"name": "cache", "emptyDir": {}})
    if _bad(rng):
        volumes.append({"name": "host", "hostPath": {"path": "/var/run"}})
    if _bad(rng):
        volumes.append({"name": "nfs", "nfs": {"server": "nfs.local", "path": "/"}})
    if volumes:
        spec["volumes"] = volumes
    annotations = {}
    if _bad(rng):
        annotations[f"container.apparmor.security.beta.kubernetes.io/c{number % 3}"] = "unconfined"
    return annotations, spec


def restricted_template() -> tuple[dict[str, str], dict[str, Any]]:
    """A workload that meets every control of both levels."""
    context = {
        "allowPrivilegeEscalation": False,
        "runAsNonRoot": True,
        "capabilities": {"drop": ["ALL"]},
        "seccompProfile": {"type": "RuntimeDefault"},
    }
    spec = {
        "securityContext": {"runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}},
        "containers": [{"name": "c0", "image": "nginx:1.25", "securityContext": context}],
        "volumes": [{"name": "cache", "emptyDir": {}}],
    }
    return {}, spec


def _first_context(spec: dict[str, Any]) -> dict[str, Any]:
    return spec["containers"][0]["securityContext"]


#: one violation each, planted in a restricted workload, so that even a handful of resources
#: shows every control failing somewhere (the random ones follow)
PLANTED: tuple[Any, ...] = (
    lambda a, s: None,  # the clean workload itself
    lambda a, s: _first_context(s).update(privileged=True),
    lambda a, s: s.update(hostNetwork=True),
    lambda a, s: s["volumes"].append({"name": "h", "hostPath": {"path": "/var/run"}}),
    lambda a, s: s["containers"][0].update(ports=[{"containerPort": 80, "hostPort": 80}]),
    lambda a, s: _first_context(s).update(windowsOptions={"hostProcess": True}),
    lambda a, s: _first_context(s).update(procMount="Unmasked"),
    lambda a, s: _first_context(s).update(seLinuxOptions={"type": "spc_t"}),
    lambda a, s: s["securityContext"].update(seccompProfile={"type": "Unconfined"}),
    lambda a, s: s["securityContext"].update(sysctls=[{"name": "kernel.msgmax", "value": "1"}]),
    lambda a, s: _first_context(s)["capabilities"].update(add=["SYS_ADMIN"]),
    lambda a, s: _first_context(s).update(allowPrivilegeEscalation=True),
    lambda a, s: _first_context(s).update(runAsUser=0),
    lambda a, s: [_first_context(s).update(runAsNonRoot=False), s.pop("securityContext")],
    lambda a, s: s["volumes"].append({"name": "n", "nfs": {"server": "nfs", "path": "/"}}),
    lambda a, s: a.update({"container.apparmor.security.beta.kubernetes.io/c0": "unconfined"}),
    lambda a, s: s["containers"][0].update(ports=[{"containerPort": 80, "hostPort": 5500}]),
)


def generate(count: int, seed: int = 0) -> list[dict[str, Any]]:
    """``count`` workloads, alternately Pods and Deployments: first a clean one and one per
    planted violation, then random ones, some violating each control."""
    rng = random.Random(seed)
    resources = []
    for i in range(count):
        if i < len(PLANTED):
            annotations, spec = restricted_template()
            PLANTED[i](annotations, spec)
        else:
            annotations, spec = pod_template(rng, i)
        meta: dict[str, Any] = {"namespace": "bench"}
        if i % 2 == 0:
            if annotations:
                meta["annotations"] = annotations
            resources.append(
                {
                    "apiVersion": "v1",
                    "kind": "Pod",
                    "metadata": {"name": f"pod-{i}", **meta},
                    "spec": spec,
                }
            )
        else:
            template: dict[str, Any] = {"metadata": {"labels": {"app": f"d{i}"}}, "spec": spec}
            if annotations:
                template["metadata"]["annotations"] = annotations
            resources.append(
                {
                    "apiVersion": "apps/v1",
                    "kind": "Deployment",
                    "metadata": {"name": f"deploy-{i}", **meta},
                    "spec": {"selector": {"matchLabels": {"app": f"d{i}"}}, "template": template},
                }
            )
    return resources


def verdicts(results: list[RuleResult]) -> dict[tuple[str, str], str]:
    """(control, resource) -> the form's verdict: error, fail, pass or skip, the worst of the
    policy's rule results on the resource (autogen rules included)."""
    rank = {"error": 3, "fail": 2, "pass": 1, "skip": 0}
    found: dict[tuple[str, str], str] = {}
    for r in results:
        key = (r.policy, f"{r.kind}/{r.name}")
        if key not in found or rank.get(r.status, 0) > rank.get(found[key], 0):
            found[key] = r.status
    return found


def measure(
    policies: list[dict[str, Any]], resources: list[dict[str, Any]], repeats: int
) -> tuple[list[RuleResult], dict[str, Any]]:
    """The last repeat's results and the timing figures of ``repeats`` runs of ``apply``."""
    cpu: list[float] = []
    wall: list[float] = []
    results: list[RuleResult] = []
    for _ in range(repeats):
        fresh = copy.deepcopy(policies)  # outside the clock: see the module docstring
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        results = apply(fresh, resources)
        cpu.append(time.process_time() - cpu_start)
        wall.append(time.perf_counter() - wall_start)
    evaluations = len(results)
    cpu_median = statistics.median(cpu)
    figures = {
        "policies": len(policies),
        "evaluations": evaluations,
        "statuses": dict(sorted(Counter(r.status for r in results).items())),
        "first_cpu_s": round(cpu[0], 4),
        "cpu_s": round(cpu_median, 4),
        "wall_s": round(statistics.median(wall), 4),
        "evaluations_per_cpu_s": round(evaluations / cpu_median) if cpu_median else None,
        "us_per_evaluation": round(statistics.median(c / evaluations for c in cpu) * 1e6, 2)
        if evaluations
        else None,
    }
    return results, figures


def agreement(
    by_form: dict[str, dict[tuple[str, str], str]],
    controls: dict[str, set[str]],
    resources: list[dict[str, Any]],
    examples: int = 3,
) -> dict[str, Any]:
    """Per control: the forms that have it and, over every resource, whether their verdicts
    agree (a resource a form does not match counts as ``none``)."""
    keys = [f"{r['kind']}/{r['metadata']['name']}" for r in resources]
    report: dict[str, Any] = {}
    for control in sorted(set().union(*controls.values())):
        forms = [form for form in FORMS if control in controls[form]]
        entry: dict[str, Any] = {"forms": forms}
        if control in POLICY_TEXT_DIFFERS:
            entry["policy_text_differs"] = POLICY_TEXT_DIFFERS[control]
        if len(forms) < 2:
            entry["agree"] = None  # nothing to compare it with
            report[control] = entry
            continue
        disagreements = []
        outcomes: Counter[str] = Counter()
        pairs = [(a, b) for i, a in enumerate(forms) for b in forms[i + 1 :]]
        pairwise: Counter[str] = Counter()
        for key in keys:
            seen = {form: by_form[form].get((control, key), "none") for form in forms}
            pairwise.update(f"{a}~{b}" for a, b in pairs if seen[a] == seen[b])
            if len(set(seen.values())) > 1:
                disagreements.append({"resource": key, **seen})
            else:
                outcomes[next(iter(seen.values()))] += 1
        entry.update(
            {
                "resources": len(keys),
                "agreeing": len(keys) - len(disagreements),
                "agreed_outcomes": dict(sorted(outcomes.items())),
                "disagreements": len(disagreements),
                # resources on which each two forms agree
                "pairwise": {f"{a}~{b}": pairwise[f"{a}~{b}"] for a, b in pairs},
                "agree": not disagreements,
                "examples": disagreements[:examples],
            }
        )
        report[control] = entry
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resources", type=int, default=1000, help="workloads (default 1000)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per form (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.resources < 1 or args.repeats < 1:
        parser.error("--resources and --repeats must be at least 1")
    missing = [c for c in FORMS.values() if not (CORPUS / c).is_dir()]
    if missing:
        print(f"{CORPUS}: missing {', '.join(missing)}: ../shared is needed", file=sys.stderr)
        return 3
    resources = generate(args.resources, args.seed)
    forms: dict[str, Any] = {}
    by_form: dict[str, dict[tuple[str, str], str]] = {}
    controls: dict[str, set[str]] = {}
    for form, category in FORMS.items():
        by_control = load_form(category)
        controls[form] = set(by_control)
        policies = [p for group in by_control.values() for p in group]
        results, figures = measure(policies, resources, args.repeats)
        by_form[form] = verdicts(results)
        forms[form] = {"category": category, **figures}
    classic_us = forms["classic"]["us_per_evaluation"]
    for figures in forms.values():
        us = figures["us_per_evaluation"]
        # > 1: the form's evaluation costs that many classic evaluations
        figures["cost_vs_classic"] = round(us / classic_us, 2) if us and classic_us else None
    per_control = agreement(by_form, controls, resources)
    paired = [c for c, e in per_control.items() if e["agree"] is not None]
    print(
        json.dumps(
            {
                "benchmark": "kyverno_cel_throughput",
                "resources": len(resources),
                "resource_kinds": dict(Counter(r["kind"] for r in resources)),
                "repeats": args.repeats,
                "forms": forms,
                "agreement": {
                    "paired_controls": len(paired),
                    "agreeing_controls": sum(per_control[c]["agree"] for c in paired),
                    "disagreeing_controls": [c for c in paired if not per_control[c]["agree"]],
                    "unpaired_controls": sorted(set(per_control) - set(paired)),
                    "controls": per_control,
                },
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
