"""``kyverno-migrate``: the agent's policy, in the Kyverno dialect the scenario asks for, must
check exactly what the source policy it was given checks (a ClusterPolicy, a ValidatingPolicy, a
Gatekeeper ConstraintTemplate with its constraints, or a Rego policy of the kubectl-opa
convention).

Both policies are scanned (as Kyverno's background scan reports) over the scenario's violating
and compliant environments and over extra environments the evaluator builds itself, hidden from
the agent, from the control's instance generator when it knows the control (fresh names, every
workload kind, violations in init and ephemeral containers, near-misses, other controls'
violations). A resource's verdict is ``fail`` or not; every resource must get the same verdict
from both.

- ``itbench_pass``: the answer is of the target dialect and reports a violating resource of the
  violating environment (the kyverno class's rule);
- ``strict_pass``: also every violating resource caught, nothing in the compliant environment
  flagged, every verdict the same as the source's on every environment, and ``itbench lint``
  reports no error on the answer;
- ``verdict_agreement``: resources with the same verdict / resources scanned;
- ``lint_errors``: lint errors on the answer.
The copy of the source the agent was given (``source-policy.yaml``) is never read as its answer.
A Gatekeeper source is run as Gatekeeper's audit would (:mod:`ciso.evaluation.gatekeeper`), a
Rego source per served object (:mod:`ciso.evaluation.rego_source`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from ciso.environments.kubernetes import cluster_view
from ciso.evaluation import gatekeeper, rego_source
from ciso.evaluation.answer import yaml_files
from ciso.evaluation.kyverno import ancestry
from ciso.evaluation.kyverno_engines import KyvernoScanner, ScanFailed, select_scanner
from ciso.evaluation.plan import COMPLIANT, VIOLATING
from ciso.evaluation.record import Record, as_score
from ciso.evaluation.report_reading import failed
from ciso.scenarios.dialects import (
    GATEKEEPER,
    REGO,
    SOURCE_FILES,
    Dialect,
    check_rego_source,
    dialect_of,
    source_dialect,
    source_file_name,
    target_of,
)
from ciso.scenarios.model import CisoScenario, ResourceRef
from ciso.scenarios.objects import declared_objects, is_policy
from itbench.fsutil import read_agent_text
from itbench.plugins.spec import TrialScores
from itbench.yamlsafe import load_all

ZERO = {"itbench_pass": 0, "strict_pass": 0, "verdict_agreement": 0.0, "lint_errors": 0}
#: Generated environments scanned beside the scenario's own (each a violating and a compliant
#: side): enough to exercise every hiding place of a control, cheap to scan.
GENERATED = 2
#: Disagreements named in evaluation.json (the count is always there).
SHOWN = 20

Manifest = dict[str, Any]


def _load(path: Path) -> list[Manifest]:
    return [d for d in load_all(read_agent_text(path)) if isinstance(d, dict)]


@dataclass(frozen=True)
class MigrationSource:
    """The policy to migrate: its file, its dialect, and its objects (YAML dialects) or its
    text (Rego)."""

    path: Path
    dialect: Dialect
    policies: tuple[Manifest, ...] = ()
    rego: str = ""


def read_source(path: Path) -> MigrationSource:
    """The policy to migrate (InputError naming the file and what is wrong): a ``.rego`` file
    is a Rego source of the kubectl-opa convention, any other a YAML file of policies."""
    from itbench.errors import InputError

    try:
        text = read_agent_text(path)
    except FileNotFoundError:
        raise InputError(f"{path}: missing (the policy to migrate)") from None
    except Exception as exc:  # unreadable: named, never a traceback
        raise InputError(f"{path}: unreadable ({type(exc).__name__}: {exc})") from None
    if path.suffix == ".rego":
        check_rego_source(path, text)
        return MigrationSource(path, REGO, rego=text)
    try:
        source = [d for d in load_all(text) if isinstance(d, dict)]
    except Exception as exc:  # not YAML: named, never a traceback
        raise InputError(f"{path}: unreadable ({type(exc).__name__}: {exc})") from None
    dialect = source_dialect(path, source)
    if dialect is GATEKEEPER:
        gatekeeper.parse(path, source)  # a malformed template or constraint is named here
    return MigrationSource(path, dialect, tuple(source))


def workspace_source(workspace: Path) -> Path:
    """The copy of the source in a workspace: ``source-policy.rego`` for a Rego source, else
    ``source-policy.yaml``."""
    rego = workspace / SOURCE_FILES[1]
    return rego if rego.is_file() else workspace / SOURCE_FILES[0]


def source_policies(path: Path, target: str | None = None) -> tuple[MigrationSource, Dialect]:
    """The source and the dialect the answer must be in: ``target`` (a scenario's
    ``migrate_to``) or the source's default (InputError naming the file)."""
    source = read_source(path)
    return source, target_of(source.dialect, target, str(path))


def answer_policies(
    trial_dir: Path, target: Dialect
) -> tuple[list[Manifest], list[str], list[str]]:
    """(target-dialect policies, the files they came from, notes) from the workspace's YAML files,
    the source copy excepted."""
    policies: list[Manifest] = []
    files: list[str] = []
    notes: list[str] = []
    for path in yaml_files(trial_dir):
        rel = str(path.relative_to(trial_dir))
        if rel in SOURCE_FILES:
            continue
        try:
            documents = _load(path)
        except Exception as exc:  # the agent's file: any parse failure is a note, not a crash
            notes.append(f"{rel}: unreadable ({type(exc).__name__}: {str(exc)[:200]})")
            continue
        mine = [d for d in documents if target.holds(d)]
        others = [d for d in documents if dialect_of(d) is not None and not target.holds(d)]
        if others:
            kinds = sorted({str(d.get("kind")) for d in others})
            notes.append(f"{rel}: {', '.join(kinds)} ignored: the answer is a {target.name}")
        if mine:
            policies.extend(mine)
            files.append(rel)
    return policies, files, notes


def _environments(scenario: CisoScenario) -> list[tuple[str, list[Manifest]]]:
    """The scenario's environments, then the generated ones (random names, so a policy cannot
    single out the scenario's objects)."""
    envs = [(VIOLATING, [o for o in declared_objects(scenario) if not is_policy(o)])]
    if scenario.compliant is not None:
        envs.append((COMPLIANT, [o for o in declared_objects(scenario, True) if not is_policy(o)]))
    return envs + generated_environments(scenario.cis_id, f"kyverno-migrate/{scenario.id}")


def generated_environments(
    cis_id: str | None, stream: str, count: int = GENERATED
) -> list[tuple[str, list[Manifest]]]:
    """Instances of the control built by its generator (none when it has no generator): the
    evaluator's stream is its own, the validator's dry run another one."""
    from ciso.generator.bindings import BindingControl, build_binding_instance
    from ciso.generator.controls import CONTROLS
    from ciso.generator.instance import build_instance
    from ciso.generator.model import Control
    from ciso.generator.placement import PlacementControl, build_placement_instance
    from ciso.generator.rbac import RbacControl, build_rbac_instance

    envs: list[tuple[str, list[Manifest]]] = []
    control = CONTROLS.get(cis_id or "")
    if control is None:
        return envs
    family = [c for c in CONTROLS.values() if type(c) is type(control) and c is not control]
    for n in range(count):
        rng = Random(f"{stream}/{n}")
        # each kind of control builds its instances as `itbench ciso generate` does
        if isinstance(control, PlacementControl):
            pods = [c for c in CONTROLS.values() if isinstance(c, Control)]
            instance = build_placement_instance(control, pods, rng)
        elif isinstance(control, BindingControl):
            roles = [c for c in CONTROLS.values() if isinstance(c, RbacControl)]
            instance = build_binding_instance(control, roles, rng)
        elif isinstance(control, RbacControl):
            instance = build_rbac_instance(
                control, [c for c in family if isinstance(c, RbacControl)], rng
            )
        else:
            assert isinstance(control, Control), f"{control}: not a Kubernetes pod control"
            instance = build_instance(control, [c for c in family if isinstance(c, Control)], rng)
        envs.append((f"generated-{n + 1} violating", list(instance.violating)))
        envs.append((f"generated-{n + 1} compliant", list(instance.compliant)))
    return envs


def disagreements(
    scanner: KyvernoScanner,
    source: MigrationSource | Sequence[Manifest],
    answer: Sequence[Manifest],
    name: str,
    objects: Sequence[Manifest],
) -> tuple[list[str], set[ResourceRef]]:
    """Resources whose verdict differs between source and answer (one line each), and what the
    answer flagged."""
    ((want, got),) = flagged_pairs(scanner, source, answer, [(name, objects)])
    return _differing(name, want, got), got


def _differing(name: str, want: set[ResourceRef], got: set[ResourceRef]) -> list[str]:
    return [
        f"{name}: {ref} {'fails' if ref in want else 'passes'} under the source, "
        f"{'fails' if ref in got else 'passes'} under the answer"
        for ref in sorted(want ^ got)
    ]


class EnvironmentScanFailed(ScanFailed):
    """A scan of one environment failed: ``environment`` names it, the message also the policy
    (the source's file, or the answer)."""

    def __init__(self, message: str, environment: str) -> None:
        super().__init__(message)
        self.environment = environment


def _side(policies: MigrationSource | Sequence[Manifest], s: int) -> str:
    if s == 1:
        return "the answer"
    if isinstance(policies, MigrationSource):
        return f"the source {source_file_name(policies.path)}"
    return "the source"


def flagged_pairs(
    scanner: KyvernoScanner,
    source: MigrationSource | Sequence[Manifest],
    answer: Sequence[Manifest],
    environments: Sequence[tuple[str, Sequence[Manifest]]],
) -> list[tuple[set[ResourceRef], set[ResourceRef]]]:
    """What the source and the answer flag in each named environment. The Kyverno scans of
    both, over every environment, go to the scanner's ``reports_many`` at once (our engine runs
    them in one forked child: one fork for the trial instead of two per environment).
    EnvironmentScanFailed names the environment and the policy whose scan failed."""
    sides = [source, answer]
    direct: dict[tuple[int, int], set[ResourceRef]] = {}
    scans: list[tuple[int, int, Sequence[Manifest], Sequence[Manifest]]] = []
    for s, policies in enumerate(sides):
        for e, (name, objects) in enumerate(environments):
            kyverno = _kyverno_policies(policies)
            if kyverno is not None:
                scans.append((s, e, kyverno, objects))
                continue
            try:
                direct[(s, e)] = _flagged(scanner, policies, objects)
            except ScanFailed as exc:
                raise EnvironmentScanFailed(f"{name}, {_side(policies, s)}: {exc}", name) from None
    try:
        reports = scanner.reports_many([(p, o) for _, _, p, o in scans])
    except ScanFailed as exc:
        if exc.index is None or not 0 <= exc.index < len(scans):
            raise
        s, e, _, _ = scans[exc.index]
        name = environments[e][0]
        raise EnvironmentScanFailed(f"{name}, {_side(sides[s], s)}: {exc}", name) from None
    for (s, e, _, _), report in zip(scans, reports, strict=True):
        direct[(s, e)] = failed(report)
    return [(direct[(0, e)], direct[(1, e)]) for e in range(len(environments))]


def _kyverno_policies(policies: MigrationSource | Sequence[Manifest]) -> Sequence[Manifest] | None:
    """The policies a Kyverno scan checks, or None for a source run otherwise (Rego, Gatekeeper)."""
    if isinstance(policies, MigrationSource):
        if policies.dialect is REGO:
            return None
        policies = policies.policies
    if policies and GATEKEEPER.holds(policies[0]):
        return None
    return policies


def _flagged(
    scanner: KyvernoScanner,
    policies: MigrationSource | Sequence[Manifest],
    objects: Sequence[Manifest],
) -> set[ResourceRef]:
    if isinstance(policies, MigrationSource):
        if policies.dialect is REGO:
            return rego_source.violations(policies.rego, objects, policies.path)
        path, policies = policies.path, policies.policies
    else:
        path = Path(SOURCE_FILES[0])
    if policies and GATEKEEPER.holds(policies[0]):
        # a Gatekeeper source is run as Gatekeeper's audit would, on the Rego engine
        templates = gatekeeper.parse(path, policies)
        return gatekeeper.violations(templates, list(objects))
    return failed(scanner.reports(policies, objects))


def _lint_errors(trial_dir: Path, files: Sequence[str]) -> list[str]:
    from ciso.lint.model import Options, Severity
    from ciso.lint.runner import lint_paths

    run = lint_paths([trial_dir / f for f in files], Options(), progress=False)
    errors = [
        f"{Path(f.file).name}:{f.line or '?'}: {f.rule.id} {f.message}"
        for f in run.findings
        if f.level is Severity.ERROR
    ]
    return errors + [f"lint tool error: {e}" for e in run.tool_errors]


def evaluate(scenario: CisoScenario, trial_dir: Path) -> TrialScores:
    record = Record()
    assert scenario.migration_source is not None  # the loader requires it for this class
    source, target = source_policies(scenario.migration_source, scenario.migration_target)
    answer, files, notes = answer_policies(trial_dir, target)
    record.notes.extend(notes)
    record.verdict(
        "agent",
        source=source.dialect.name,
        target=target.name,
        policies=[f"{p.get('kind')}/{(p.get('metadata') or {}).get('name')}" for p in answer],
    )
    if not answer:
        record.fail(
            "policies",
            f"no {' or '.join(target.kinds)} ({target.group}) in the workspace's YAML files "
            f"(besides {source_file_name(source.path)})",
        )
        return record.scores(ZERO)
    scanner = select_scanner()
    record.engines["kyverno"] = f"{scanner.name} {scanner.version}"
    refs = set(scenario.violating_resources)
    differing: list[str] = []
    scanned = 0
    itbench = covered_all = compliant_ok = False
    environments = _environments(scenario)
    try:
        with record.timed("scan"):
            flagged = flagged_pairs(scanner, source, answer, environments)
    except EnvironmentScanFailed as exc:
        record.fail(f"scan ({exc.environment})", str(exc))
        return record.scores(ZERO)
    except ScanFailed as exc:  # the batch failed and the scanner could not say where
        record.fail("scan", str(exc))
        return record.scores(ZERO)
    for (name, objects), (want, got) in zip(environments, flagged, strict=True):
        view = cluster_view(objects)
        scanned += len(view)
        differing += _differing(name, want, got)
        if name == VIOLATING:
            chains = ancestry(view)
            covered = {r for obj in got for r in chains.get(obj, [obj]) if r in refs}
            itbench = bool(covered)
            covered_all = covered == refs
            record.verdict(VIOLATING, failed=sorted(map(str, got)))
            if not covered_all:
                record.fail(
                    f"scan ({VIOLATING})",
                    "violating resources without a fail: "
                    + ", ".join(sorted(map(str, refs - covered))),
                )
        elif name == COMPLIANT:
            compliant_ok = not got
            record.verdict(COMPLIANT, failed=sorted(map(str, got)))
    if scenario.compliant is None:
        compliant_ok = True
    agreement = 1.0 - len(differing) / scanned if scanned else 0.0
    record.verdict(
        "equivalence",
        environments=len(environments),
        resources=scanned,
        disagreements=len(differing),
        **({"first_disagreements": differing[:SHOWN]} if differing else {}),
    )
    if differing:
        record.fail("equivalence", f"{len(differing)} verdict(s) differ: {differing[0]}")
    with record.timed("lint"):
        lint = _lint_errors(trial_dir, files)
    if lint:
        record.verdict("lint", errors=lint[:SHOWN])
        record.fail("lint", f"{len(lint)} lint error(s): {lint[0]}")
    strict = itbench and covered_all and compliant_ok and not differing and not lint
    return record.scores(
        {
            "itbench_pass": as_score(itbench),
            "strict_pass": as_score(strict),
            "verdict_agreement": round(max(agreement, 0.0), 4),
            "lint_errors": len(lint),
        }
    )
