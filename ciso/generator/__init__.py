"""Fresh CISO scenario instances: for a seed, new environments and requirement texts for every
control the generator knows, in our ``scenario.yaml`` layout, ground truth derived by construction.

The same seed writes the same instances (a rerun resumes); the seed itself appears in no id, path
or text an agent sees (ids carry :func:`instance_tag`, an HMAC under the seed), since whoever knows
it can regenerate the ground truth.
"""

from __future__ import annotations

import hashlib
import hmac
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random

import yaml

from ciso.environments.hosts import ATTRIBUTES_FILE
from ciso.generator.auditd import AuditdControl, build_auditd_instance
from ciso.generator.bindings import BindingControl, build_binding_instance
from ciso.generator.controls import CONTROLS, HOST_CONTROLS, HostControl, key
from ciso.generator.hosts import HostAttributes, HostFiles, HostInstance
from ciso.generator.instance import build_instance
from ciso.generator.login_defs import LoginDefsControl, build_login_defs_instance
from ciso.generator.model import Control
from ciso.generator.modprobe import ModuleControl, build_module_instance
from ciso.generator.network import NamespaceControl, build_namespace_instance
from ciso.generator.permissions import PermissionsControl, build_permissions_instance
from ciso.generator.placement import PlacementControl, build_placement_instance
from ciso.generator.pwquality import PwqualityControl, build_pwquality_instance
from ciso.generator.rbac import RbacControl, build_rbac_instance
from ciso.generator.sshd import SshdControl, build_sshd_instance
from ciso.generator.sysctl import build_sysctl_instance
from ciso.scenarios.dialects import TARGETS, source_file_name
from ciso.scenarios.format import SOLUTION_FILES, solution_dir
from ciso.scenarios.model import ScenarioClass
from ciso.scenarios.reference import builtin_solution, builtin_source
from itbench.errors import UsageError

#: The classes a generated Kubernetes instance offers (kyverno-update needs existing policies);
#: kyverno-migrate where the control has a built-in answer in the other dialect, from a source
#: dialect drawn per instance among those the control has a built-in policy in.
CLASSES = (ScenarioClass.KYVERNO, ScenarioClass.KUBECTL_OPA, ScenarioClass.OPA_STATIC)
MIGRATE = ScenarioClass.KYVERNO_MIGRATE
#: The class a generated RHEL 9 instance offers.
HOST_CLASS = ScenarioClass.RHEL9_ANSIBLE_OPA
#: The dialects a generated migration starts from, one drawn per instance (with its target).
MIGRATION_SOURCES = ("cluster-policy", "gatekeeper", "rego")
#: Beside the generated scenarios, never inside one: the seed that re-creates their ground truth.
SEED_FILE = "SEED"


@dataclass(frozen=True)
class Generated:
    directory: Path
    control: str
    seconds: float


def instance_tag(seed: int) -> str:
    """The tag generated ids carry: the same for the same seed, and saying nothing of it."""
    key = seed.to_bytes((seed.bit_length() + 8) // 8, "big", signed=True)
    return hmac.new(key, b"itbench ciso fresh instances", hashlib.sha256).hexdigest()[:10]


def parse_seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"--seed {text!r}: not an integer") from None


def select_controls(selection: Sequence[str] | None) -> list[str]:
    """CIS ids to generate; an unknown one is a usage error naming it and the known ones."""
    if not selection:
        return sorted(CONTROLS, key=_cis_key)
    wanted = [w.strip() for item in selection for w in item.split(",") if w.strip()]
    unknown = [w for w in wanted if w not in CONTROLS]
    if unknown:
        raise UsageError(
            f"--controls: unknown control {unknown[0]!r}; the generator knows "
            + ", ".join(sorted(CONTROLS, key=_cis_key))
        )
    return list(dict.fromkeys(wanted))


def not_generated() -> list[str]:
    """CIS ids the built-in suite cites that the generator has no unit for yet."""
    from ciso.scenarios.loader import load_builtin

    cited = {
        f"rhel9-{s.cis_id}" if s.scenario_class is HOST_CLASS else s.cis_id
        for s in load_builtin().scenarios
        if s.cis_id
    }
    return sorted(cited - set(CONTROLS), key=_cis_key)


def _cis_key(name: str) -> tuple[int, ...]:
    # Kubernetes controls first, then RHEL 9's (prefixed), each in CIS order
    platform, _, cis_id = name.rpartition("-")
    return (1 if platform else 0, *(int(p) for p in cis_id.split(".")))


class _NoAliases(yaml.SafeDumper):
    # the manifest readers refuse YAML aliases (a billion-laughs guard): write shared dicts twice
    def ignore_aliases(self, data: object) -> bool:
        return True


def _dump(objects: Sequence[dict]) -> str:
    return yaml.dump_all(list(objects), Dumper=_NoAliases, sort_keys=False)


def generate(seed: int, out: Path, controls: Sequence[str] | None = None) -> list[Generated]:
    """Write one instance per control under ``out/<builtin id>-<tag>/``; returns what was written."""
    tag = instance_tag(seed)
    chosen = select_controls(controls)
    out.mkdir(parents=True, exist_ok=True)
    (out / SEED_FILE).write_text(f"{seed}\n", encoding="utf-8")
    written = []
    for cis_id in chosen:
        start = time.perf_counter()
        control = CONTROLS[cis_id]
        # the compliant side holds violations of other controls of the same family
        family = [c for c in CONTROLS.values() if type(c) is type(control) and c is not control]
        # a string seed is hashed (SHA-512): each control's stream is independent of the others'
        rng = Random(f"{seed}/{cis_id}")
        if isinstance(control, HOST_CONTROLS):
            target = out / f"{control.builtin_id}-{tag}"
            _write_host_instance(control, _build_host(control, family, rng), target)
            written.append(Generated(target, key(control), time.perf_counter() - start))
            continue
        if isinstance(control, NamespaceControl):
            pods = [c for c in CONTROLS.values() if isinstance(c, Control)]
            instance = build_namespace_instance(control, pods, rng)
        elif isinstance(control, PlacementControl):
            pods = [c for c in CONTROLS.values() if isinstance(c, Control)]
            instance = build_placement_instance(control, pods, rng)
        elif isinstance(control, BindingControl):
            # a binding's other-control violations are roles: those of the RBAC controls
            roles = [c for c in CONTROLS.values() if isinstance(c, RbacControl)]
            binds = [c for c in family if isinstance(c, BindingControl)]
            instance = build_binding_instance(control, roles, rng, binds)
        elif isinstance(control, RbacControl):
            instance = build_rbac_instance(
                control, [c for c in family if isinstance(c, RbacControl)], rng
            )
        else:
            instance = build_instance(control, [c for c in family if isinstance(c, Control)], rng)
        base_id = f"{control.builtin_id}-{tag}"
        target = out / base_id
        if target.exists():
            shutil.rmtree(target)
        (target / "violating").mkdir(parents=True)
        (target / "compliant").mkdir()
        (target / "violating" / "workloads.yaml").write_text(_dump(instance.violating))
        (target / "compliant" / "workloads.yaml").write_text(_dump(instance.compliant))
        classes = list(CLASSES)
        # its own stream: the instance's content does not depend on the draw
        migration = _migration(control.builtin_id, Random(f"{seed}/{cis_id}/migrate"))
        if migration is not None:
            source, migrate_to = migration
            shutil.copyfile(source, target / source_file_name(source))
            classes.append(MIGRATE)
        document = {
            "id": base_id,
            "cis_id": cis_id,
            "platform": "kubernetes",
            "requirement": instance.requirement,
            "classes": [c.value for c in classes],
            "violating_resources": list(instance.violating_resources),
            "notes": instance.notes,
        }
        if migration is not None:
            document["migrate_to"] = migration[1]
        (target / "scenario.yaml").write_text(yaml.safe_dump(document, sort_keys=False, width=100))
        _copy_solution(control.builtin_id, target / "solution", migration and migration[1])
        written.append(Generated(target, cis_id, time.perf_counter() - start))
    return written


def _build_host(control: HostControl, family: Sequence[object], rng: Random) -> HostInstance:
    """A RHEL 9 instance; the compliant host holds violations of the same family's other
    controls (other sshd keywords, the other login.defs setting)."""
    if isinstance(control, SshdControl):
        return build_sshd_instance(control, [c for c in family if isinstance(c, SshdControl)], rng)
    if isinstance(control, LoginDefsControl):
        defs = [c for c in family if isinstance(c, LoginDefsControl)]
        return build_login_defs_instance(control, defs, rng)
    if isinstance(control, AuditdControl):
        return build_auditd_instance(control, [], rng)
    if isinstance(control, ModuleControl):
        return build_module_instance(control, rng)
    if isinstance(control, PermissionsControl):
        modes = [c for c in family if isinstance(c, PermissionsControl)]
        return build_permissions_instance(control, modes, rng)
    if isinstance(control, PwqualityControl):
        return build_pwquality_instance(control, rng)
    return build_sysctl_instance(control, [], rng)


def _write_tree(root: Path, files: HostFiles, attributes: HostAttributes) -> None:
    for relative, text in files.items():
        path = root / "host" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if attributes:
        # git keeps no modes or owners: the evaluator applies these to its copy of host/
        document = {
            f"/{p}": {"mode": a.octal(), "owner": a.owner, "group": a.group}
            for p, a in sorted(attributes.items())
        }
        (root / ATTRIBUTES_FILE).write_text(
            yaml.safe_dump(document, sort_keys=False, default_flow_style=None), encoding="utf-8"
        )


def _write_host_instance(control: HostControl, instance: HostInstance, target: Path) -> None:
    """A RHEL 9 instance: two host trees, the scenario, the control's built-in playbook and
    policy as its solution."""
    if target.exists():
        shutil.rmtree(target)
    _write_tree(target / "violating", instance.violating, instance.violating_attributes)
    _write_tree(target / "compliant", instance.compliant, instance.compliant_attributes)
    document = {
        "id": target.name,
        "cis_id": control.cis_id,
        "platform": "rhel9",
        "requirement": instance.requirement,
        "classes": [HOST_CLASS.value],
        "violating_resources": list(instance.violating_resources),
        "notes": instance.notes,
    }
    (target / "scenario.yaml").write_text(yaml.safe_dump(document, sort_keys=False, width=100))
    place = solution_dir(target, HOST_CLASS)
    place.mkdir()
    for name, source in builtin_solution(control.builtin_id, HOST_CLASS).items():
        shutil.copyfile(source, place / name)


def _migration(builtin_id: str, rng: Random) -> tuple[Path, str] | None:
    """(the policy to migrate, the answer's dialect) drawn among the control's built-in source
    dialects and their targets; None when the control has no built-in migration."""
    if not builtin_solution(builtin_id, MIGRATE):
        return None
    sources = [(d, p) for d in MIGRATION_SOURCES if (p := builtin_source(builtin_id, d))]
    dialect, path = rng.choice(sources)
    targets = [t.name for t in TARGETS[dialect] if builtin_solution(builtin_id, MIGRATE, t.name)]
    return path, rng.choice(targets)


def _copy_solution(builtin_id: str, folder: Path, migrate_to: str | None = None) -> None:
    """The built-in reference answers of the control: they answer every instance of it (the
    oracle agent uses them; the scenario's folder is hidden from agents)."""
    folder.mkdir()
    for cls in (*CLASSES, MIGRATE):
        for name, source in builtin_solution(builtin_id, cls, migrate_to).items():
            assert name in SOLUTION_FILES[cls]
            place = solution_dir(folder.parent, cls)
            place.mkdir(exist_ok=True)
            shutil.copyfile(source, place / name)
            if name.endswith(".sh"):
                (place / name).chmod(0o755)
