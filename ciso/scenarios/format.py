"""Our scenario directory format: ``scenario.yaml`` beside ``violating/``, ``compliant/`` and an
optional ``solution/``; one directory expands into one :class:`CisoScenario` per listed class.

Every problem is an :class:`~itbench.errors.InputError` whose message starts with the file and the
field (``…/scenario.yaml: classes[1]: 'kyvern' is not a CISO class (did you mean 'kyverno'?)``),
because users write these files by hand.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
)

from ciso.scenarios.model import (
    CLASS_PLATFORM,
    CisoScenario,
    Platform,
    ResourceRef,
    ScenarioClass,
)
from itbench.errors import InputError, parse_problem
from itbench.yamlsafe import load_all

SCENARIO_FILE = "scenario.yaml"
#: scenario.yaml is small by nature; a bigger file is a mistake, not a scenario.
MAX_SCENARIO_BYTES = 1 << 20
#: Benchmark ids become directory names (trial folders): no separators, no "..", bounded.
SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$")
#: Classes our scenario.yaml may list; kyverno-update needs existing policies and an
#: eval_config.yaml, so it uses ITBench's bundle layout instead.
GENERATION_CLASSES = tuple(c for c in ScenarioClass if c is not ScenarioClass.KYVERNO_UPDATE)

#: Workspace names of each class's reference answer (the files an agent is asked to write).
SOLUTION_FILES: Mapping[ScenarioClass, tuple[str, ...]] = {
    ScenarioClass.KYVERNO: ("kyverno-policy.yaml",),
    ScenarioClass.KUBECTL_OPA: ("fetcher.sh", "policy.rego"),
    ScenarioClass.OPA_STATIC: ("fetch.sh", "policy.rego"),
    ScenarioClass.RHEL9_ANSIBLE_OPA: ("playbook.yml", "policy.rego"),
    ScenarioClass.KYVERNO_UPDATE: ("kyverno-policy.yaml",),
    ScenarioClass.KYVERNO_MIGRATE: ("kyverno-policy.yaml",),
}


def did_you_mean(word: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _scenario_id(value: Any) -> Any:
    if isinstance(value, str) and not SAFE_ID.match(value):
        raise ValueError(
            f"{value!r} is not usable as a directory name (letters, digits, '.', '_', '-'; "
            "starting with a letter or digit; at most 120 characters)"
        )
    return value


def _platform(value: Any) -> Any:
    if isinstance(value, str) and value not in [p.value for p in Platform]:
        known = [p.value for p in Platform]
        raise ValueError(
            f"{value!r} is not a platform{did_you_mean(value, known)}; use one of "
            + ", ".join(known)
        )
    return value


def _class(value: Any) -> Any:
    if isinstance(value, str) and value not in [c.value for c in ScenarioClass]:
        known = [c.value for c in GENERATION_CLASSES]
        raise ValueError(f"{value!r} is not a CISO class{did_you_mean(value, known)}")
    return value


def _resource_ref(value: Any) -> Any:
    if isinstance(value, str):
        return ResourceRef.parse(value)  # its ValueError names the expected shape
    return value


def _kubernetes_name(ref: ResourceRef, info: ValidationInfo) -> ResourceRef:
    # a host's setting may be a path; a Kubernetes object's name never holds a "/", so a label
    # that does could match nothing and would pass unnoticed
    if info.data.get("platform") is Platform.KUBERNETES and "/" in ref.name:
        raise ValueError(
            f"{str(ref)!r} is not Kind/namespace/name (a Kubernetes name holds no '/')"
        )
    return ref


def _text(value: Any) -> Any:
    if isinstance(value, str) and not value.strip():
        raise ValueError("must not be empty")
    return value


class ScenarioFile(BaseModel):
    """``scenario.yaml`` exactly as users write it; unknown keys are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Annotated[str, BeforeValidator(_scenario_id)]
    cis_id: str | None = None
    platform: Annotated[Platform, BeforeValidator(_platform)]
    requirement: Annotated[str, BeforeValidator(_text)]
    classes: tuple[Annotated[ScenarioClass, BeforeValidator(_class)], ...] = Field(min_length=1)
    violating_resources: tuple[
        Annotated[ResourceRef, BeforeValidator(_resource_ref), AfterValidator(_kubernetes_name)],
        ...,
    ] = ()
    notes: str = ""
    title: str | None = None
    #: kyverno-migrate: the dialect of the built-in source to migrate when no source file lies
    #: beside scenario.yaml (cluster-policy, the default, gatekeeper or rego)
    migrate_from: str | None = None
    #: kyverno-migrate: the dialect of the answer when the source allows several
    migrate_to: str | None = None


def _location(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def _message(error: Mapping[str, Any]) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        name = str(error["loc"][-1])
        known = list(ScenarioFile.model_fields)
        return f"unknown key{did_you_mean(name, known)}; known keys: {', '.join(known)}"
    if kind == "missing":
        return "required field is missing"
    if kind == "value_error":
        return str(error["ctx"]["error"])
    if kind in ("tuple_type", "list_type"):
        return f"expected a list, got {type(error['input']).__name__}"
    if kind == "string_type":
        got = type(error["input"]).__name__
        hint = " (quote it)" if isinstance(error["input"], int | float) else ""
        return f"expected a string, got {got}{hint}"
    if kind == "too_short":
        return "must list at least one entry"
    return str(error["msg"])


def read_scenario_file(path: Path) -> ScenarioFile:
    """Parse and validate one ``scenario.yaml``; an InputError names the file and the field."""
    data = read_yaml_mapping(path)
    try:
        spec = ScenarioFile.model_validate(data)
    except ValidationError as exc:
        # a misspelt key also leaves its field missing: name the spelling, the real mistake
        first = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")[0]
        raise InputError(f"{path}: {_location(first['loc'])}: {_message(first)}") from None
    for index, cls in enumerate(spec.classes):
        if cls is ScenarioClass.KYVERNO_UPDATE:
            raise InputError(
                f"{path}: classes[{index}]: 'kyverno-update' scenarios use ITBench's bundle "
                "layout (info.json, manifests/, eval_config.yaml), not scenario.yaml"
            )
        if CLASS_PLATFORM[cls] is not spec.platform:
            raise InputError(
                f"{path}: classes[{index}]: {cls.value!r} runs on {CLASS_PLATFORM[cls].value}, "
                f"but platform is {spec.platform.value!r}"
            )
    if len(set(spec.classes)) != len(spec.classes):
        raise InputError(f"{path}: classes: a class is listed twice")
    return spec


def read_text(path: Path, limit: int = MAX_SCENARIO_BYTES) -> str:
    """A small UTF-8 text file, or an InputError saying why it is not one."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise InputError(f"{path}: larger than {limit} bytes: not a scenario file")
    if b"\0" in raw:
        raise InputError(f"{path}: binary content, expected a YAML text file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def read_yaml_mapping(path: Path) -> dict[str, Any]:
    text = read_text(path)
    try:
        documents = [d for d in load_all(text) if d is not None]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(f"{path}: invalid YAML{where}: {problem}") from None
    if len(documents) != 1 or not isinstance(documents[0], dict):
        got = "nothing" if not documents else type(documents[0]).__name__
        if len(documents) > 1:
            got = f"{len(documents)} documents"
        raise InputError(f"{path}: expected one mapping of scenario fields, got {got}")
    return documents[0]


def _manifest_objects(directory: Path) -> list[tuple[Path, dict[str, Any]]]:
    objects: list[tuple[Path, dict[str, Any]]] = []
    for path in sorted(directory.rglob("*")):
        if path.suffix not in (".yaml", ".yml", ".json") or not path.is_file():
            continue
        try:
            documents = load_all(read_text(path))
        except yaml.YAMLError as exc:
            raise InputError(f"{path}: invalid YAML: {parse_problem(exc)}") from None
        for document in documents:
            if isinstance(document, dict) and document.get("kind") == "List":
                objects.extend((path, item) for item in document.get("items") or [])
            elif isinstance(document, dict):
                objects.append((path, document))
    return objects


def _declares(obj: Mapping[str, Any], ref: ResourceRef) -> bool:
    metadata = obj.get("metadata") or {}
    if obj.get("kind") != ref.kind or metadata.get("name") != ref.name:
        return False
    namespace = metadata.get("namespace") or ""
    # a namespaced object without a namespace lands in "default", as kubectl apply does
    return namespace == ref.namespace or (not namespace and ref.namespace in ("", "default"))


def check_violating_resources(
    source: Path, field: str, refs: Sequence[ResourceRef], violating: Path
) -> None:
    """Every listed violating resource must be a document of the violating manifests, so the
    evaluator can build leave-one-in environments."""
    objects = _manifest_objects(violating)
    for index, ref in enumerate(refs):
        if not any(_declares(obj, ref) for _, obj in objects):
            raise InputError(
                f"{source}: {field}[{index}]: {ref} is not an object of the manifests in "
                f"{violating.name}/"
            )


HOST_ATTRIBUTES = "host-attributes.yaml"
_MODE = re.compile(r"^0?[0-7]{3,4}$")


def check_host_attributes(path: Path) -> None:
    """``host-attributes.yaml``: absolute path -> {mode: "0600", owner, group} (git cannot keep
    file modes, the evaluator applies them to a copy of the host tree)."""
    for file, attributes in read_yaml_mapping(path).items():
        where = f"{path}: {file}"
        if not isinstance(file, str) or not file.startswith("/"):
            raise InputError(f"{where}: expected an absolute path (/etc/...)")
        if not isinstance(attributes, dict):
            raise InputError(f"{where}: expected a mapping of mode, owner, group")
        for key, value in attributes.items():
            if key not in ("mode", "owner", "group"):
                known = ["mode", "owner", "group"]
                raise InputError(f"{where}.{key}: unknown key{did_you_mean(str(key), known)}")
            if key == "mode" and not (isinstance(value, str) and _MODE.match(value)):
                raise InputError(f"{where}.mode: {value!r} is not an octal mode string ('0600')")
            if key != "mode" and not isinstance(value, str | int):
                raise InputError(f"{where}.{key}: expected a user or group name")


def solution_dir(directory: Path, cls: ScenarioClass) -> Path:
    """Where a scenario keeps the reference answer of a class: ``solution/``, except for
    ``kyverno-migrate``, whose answer shares its file name with the kyverno class's and lives in
    ``solution/kyverno-migrate/``."""
    base = directory / "solution"
    return base / cls.value if cls is ScenarioClass.KYVERNO_MIGRATE else base


def user_solution(directory: Path, cls: ScenarioClass) -> dict[str, Path]:
    """The reference answer in ``solution/`` when it holds every file the class needs."""
    files = {name: solution_dir(directory, cls) / name for name in SOLUTION_FILES[cls]}
    return files if all(p.is_file() for p in files.values()) else {}


def migration_source(directory: Path, spec: ScenarioFile, path: Path) -> tuple[Path, str]:
    """The policy a ``kyverno-migrate`` scenario converts: ``source-policy.yaml`` or
    ``source-policy.rego`` beside scenario.yaml, else (built-in controls) the control's
    reference policy of the ``migrate_from`` dialect (its ClusterPolicy by default). Its objects
    must all be of one dialect, and ``migrate_to`` one the dialect migrates to. Returns the
    source and the name of the answer's dialect."""
    from ciso.scenarios.dialects import (
        BY_NAME,
        REGO,
        SOURCE_FILES,
        check_rego_source,
        source_dialect,
        target_of,
    )
    from ciso.scenarios.reference import builtin_source

    present = [directory / name for name in SOURCE_FILES if (directory / name).is_file()]
    if len(present) > 1:
        raise InputError(
            f"{directory}: both {' and '.join(p.name for p in present)}: a migration starts "
            "from one policy"
        )
    if spec.migrate_from is not None and spec.migrate_from not in BY_NAME:
        raise InputError(
            f"{path}: migrate_from: {spec.migrate_from!r} is not one of {', '.join(BY_NAME)}"
        )
    if present:
        source = present[0]
    else:
        wanted = spec.migrate_from or "cluster-policy"
        builtin = builtin_source(spec.id, wanted)
        if builtin is None:
            raise InputError(
                f"{path}: classes: 'kyverno-migrate' needs the policy to migrate in "
                f"{SOURCE_FILES[0]} (or {SOURCE_FILES[1]}) beside scenario.yaml"
                + (f" (no built-in {wanted} source for {spec.id})" if spec.migrate_from else "")
            )
        source = builtin
    text = read_text(source)
    if source.suffix == ".rego":
        check_rego_source(source, text)
        dialect = REGO
    else:
        try:
            documents = [d for d in load_all(text) if d is not None]
        except yaml.YAMLError as exc:
            raise InputError(f"{source}: invalid YAML: {parse_problem(exc)}") from None
        if not all(isinstance(d, dict) for d in documents):
            raise InputError(f"{source}: expected policy objects (mappings)")
        dialect = source_dialect(source, documents)
    if present and spec.migrate_from is not None and spec.migrate_from != dialect.name:
        raise InputError(
            f"{path}: migrate_from: {spec.migrate_from!r}, but {source.name} is a {dialect.name}"
        )
    return source, target_of(dialect, spec.migrate_to, f"{path}").name


def load_scenario_dir(directory: Path) -> list[CisoScenario]:
    """Our layout: one CisoScenario per class of ``scenario.yaml`` (solution from ``solution/``)."""
    path = directory / SCENARIO_FILE
    spec = read_scenario_file(path)
    environments: dict[str, Path] = {}
    for name in ("violating", "compliant"):
        environment = directory / name
        if not environment.is_dir():
            raise InputError(f"{directory}: {name}/: directory is missing")
        environments[name] = environment
    violating = environments["violating"]
    if spec.platform is Platform.RHEL9:
        for name, environment in environments.items():
            if not (environment / "host").is_dir():
                raise InputError(f"{directory}: {name}/host/: host tree is missing")
            if (environment / HOST_ATTRIBUTES).is_file():
                check_host_attributes(environment / HOST_ATTRIBUTES)
    else:
        check_violating_resources(path, "violating_resources", spec.violating_resources, violating)
    metadata: dict[str, Any] = {}
    if spec.title:
        metadata["title"] = spec.title
    source, target = (
        migration_source(directory, spec, path)
        if ScenarioClass.KYVERNO_MIGRATE in spec.classes
        else (None, None)
    )
    return [
        CisoScenario(
            id=f"{spec.id}.{cls.value}",
            base_id=spec.id,
            scenario_class=cls,
            platform=spec.platform,
            requirement=spec.requirement.strip(),
            violating=violating,
            compliant=environments["compliant"],
            violating_resources=spec.violating_resources,
            cis_id=spec.cis_id,
            solution=user_solution(directory, cls),
            source=directory,
            origin="itbench-ciso",
            notes=spec.notes,
            metadata=(
                # stated in the task; the validator reads it
                {**metadata, "migrate_to": target}
                if cls is ScenarioClass.KYVERNO_MIGRATE
                else metadata
            ),
            migration_source=source if cls is ScenarioClass.KYVERNO_MIGRATE else None,
            migration_target=target if cls is ScenarioClass.KYVERNO_MIGRATE else None,
        )
        for cls in spec.classes
    ]
