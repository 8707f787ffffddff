"""The vocabulary every lint rule and output format shares: severities, target kinds, rule
descriptions, findings, and the :class:`Rule` protocol a rule implements."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ciso.engines.rego.model import Diagnostic, EvalResult, TestRun
    from ciso.engines.rego.pool import RegoPool


class Severity(StrEnum):
    """How bad a finding is; ``--fail-level`` compares by :attr:`rank`. A ``str``, so formats
    write it as the plain word."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return _RANKS[self]


_RANKS = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}
SEVERITIES = tuple(s.value for s in Severity)


def severity_rank(severity: str) -> int:
    return Severity(severity).rank


class TargetKind(StrEnum):
    """What discovery found a file to be; each rule says which kinds it checks."""

    REGO = "rego"
    KYVERNO_POLICY = "kyverno-policy"
    KYVERNO_TEST = "kyverno-test"
    ANSIBLE = "ansible"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class RuleInfo:
    id: str
    severity: Severity
    description: str
    #: What an author should do: shown in SARIF help and fed back to agents.
    help: str
    docs: str = ""

    def __post_init__(self) -> None:
        # rule modules write the plain word ("error"); an unknown one fails at import, not mid-lint
        object.__setattr__(self, "severity", Severity(self.severity))

    @property
    def help_uri(self) -> str:
        """The rule's section in docs/lint-rules.md (one page, an anchor per rule)."""
        return (
            self.docs
            or f"https://github.com/itbench/itbench/blob/main/docs/lint-rules.md#{self.id.lower()}"
        )


@dataclass(frozen=True)
class Finding:
    rule: RuleInfo
    file: str
    message: str
    line: int | None = None
    column: int | None = None
    severity: Severity | None = None  # overrides the rule's default

    def __post_init__(self) -> None:
        if self.severity is not None:  # ansible-lint reports its own severities as words
            object.__setattr__(self, "severity", Severity(self.severity))

    @property
    def level(self) -> Severity:
        return self.severity or self.rule.severity


@dataclass
class LintTarget:
    """One discovered file and what it holds."""

    path: Path
    kind: TargetKind
    text: str = ""
    documents: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.kind = TargetKind(self.kind)


@dataclass(frozen=True)
class Options:
    profile: str | None = None
    run_tests: bool = False
    rego_engine: str | None = None
    timeout_s: float = 30.0


@dataclass(frozen=True)
class EngineUse:
    """A backend the rules ran on (``language`` rego), and the checks of the reference tool it
    could not do on ``files``: reported as "not checked", never passed silently."""

    language: str
    name: str
    version: str
    not_checked: tuple[str, ...] = ()
    files: tuple[str, ...] = ()


class RuleContext:
    """Shared, lazily started resources: one killable Rego worker pool for all Rego rules, and
    notes (a linter not installed) gathered once however many files mention them."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self._pool: RegoPool | None = None
        self.notes: list[str] = []
        #: (name, version, not_checked) -> the files that backend looked at, in order
        self._engines: dict[tuple[str, str, tuple[str, ...]], list[str]] = {}

    def _rego(self) -> RegoPool:
        if self._pool is None:
            from ciso.engines.rego.pool import RegoPool

            self._pool = RegoPool(size=1, timeout_s=self.options.timeout_s)
        return self._pool

    def _used(
        self, name: str, version: str, not_checked: tuple[str, ...], files: Iterable[str]
    ) -> None:
        seen = self._engines.setdefault((name, version, not_checked), [])
        seen += [f for f in files if f not in seen]

    def rego_check(self, modules: Mapping[str, str]) -> list[Diagnostic]:
        checked = self._rego().checked(modules, engine=self.options.rego_engine)
        self._used(checked.engine, checked.version, checked.not_checked, modules)
        return checked.diagnostics

    def rego_eval(self, modules: Mapping[str, str], query: str, input_: Any) -> EvalResult:
        result = self._rego().evaluate(modules, query, input_, engine=self.options.rego_engine)
        self._used(result.engine, result.version, result.not_checked, modules)
        return result

    def rego_test(self, modules: Mapping[str, str]) -> TestRun:
        run = self._rego().test(modules, engine=self.options.rego_engine)
        self._used(run.engine, "", run.not_checked, modules)
        return run

    def engines(self) -> list[EngineUse]:
        """Each backend that ran, once (the same one named twice: the version that said more)."""
        merged: dict[str, EngineUse] = {}
        for (name, version, not_checked), files in self._engines.items():
            known = merged.get(name)
            merged[name] = EngineUse(
                "rego",
                name,
                version or (known.version if known else ""),
                not_checked or (known.not_checked if known else ()),
                tuple(dict.fromkeys([*(known.files if known else ()), *files])),
            )
        return list(merged.values())

    def note(self, message: str) -> None:
        if message not in self.notes:
            self.notes.append(message)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()


class CheckFile(Protocol):
    def __call__(
        self, target: LintTarget, options: Options, ctx: RuleContext
    ) -> Sequence[Finding]: ...


class CheckFiles(Protocol):
    def __call__(
        self, targets: Sequence[LintTarget], options: Options, ctx: RuleContext
    ) -> Sequence[Finding]: ...


class Rule(Protocol):
    """One lint rule: its description, the kinds of file it reads, and its check.

    ``infos`` lists every id it reports (ITB001-ITB003 share one pass over a file); ``id``,
    ``severity`` and ``description`` are its first. A rule whose tool starts slowly (ansible-lint)
    also has ``check_batch``, called once with every file of its kinds after ``check`` has seen
    each of them; for the others it is None.
    """

    @property
    def id(self) -> str: ...
    @property
    def severity(self) -> Severity: ...
    @property
    def description(self) -> str: ...
    @property
    def kinds(self) -> frozenset[TargetKind]: ...
    @property
    def infos(self) -> tuple[RuleInfo, ...]: ...
    @property
    def check(self) -> CheckFile: ...
    @property
    def check_batch(self) -> CheckFiles | None: ...


@dataclass(frozen=True)
class ModuleRule:
    """A :class:`Rule` written as a module (``INFO``, ``KINDS``, ``check``), registered by name
    in ``ciso.lint.rules.ALL_RULES``."""

    infos: tuple[RuleInfo, ...]
    kinds: frozenset[TargetKind]
    check: CheckFile
    check_batch: CheckFiles | None = None

    @property
    def id(self) -> str:
        return self.infos[0].id

    @property
    def severity(self) -> Severity:
        return self.infos[0].severity

    @property
    def description(self) -> str:
        return self.infos[0].description


@dataclass
class LintRun:
    findings: list[Finding] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    #: Problems of the tool itself (a linter that could not run), not of the linted files.
    tool_errors: list[str] = field(default_factory=list)
    #: Things worth saying that are not problems (a linter not installed, so its rule was skipped).
    notes: list[str] = field(default_factory=list)
    #: The backends that ran (Rego: opa, opa-golib or regorus) and what each could not check.
    engines: list[EngineUse] = field(default_factory=list)
    #: Files given or found that hold no policy (a Helm template, any other YAML): not linted.
    skipped: list[str] = field(default_factory=list)

    @property
    def not_checked(self) -> list[EngineUse]:
        """The backends that ran without some of their reference tool's checks."""
        return [e for e in self.engines if e.not_checked and e.files]
