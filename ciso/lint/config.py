"""``[tool.itbench.lint]`` in pyproject.toml and inline ``# itbench: ignore[RULE]`` comments.

Precedence, lowest to highest: built-in defaults < pyproject.toml < command-line flags; an inline
ignore on a finding's line (or the line above) removes that finding whatever the configuration.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from itbench.errors import InputError, UsageError

_IGNORE = re.compile(r"itbench:\s*ignore\[([A-Za-z0-9_, -]+)\]")


@dataclass
class LintConfig:
    enable: list[str] = field(default_factory=list)  # empty: all rules
    disable: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    fail_level: str = "error"
    profile: str | None = None
    source: str | None = None
    #: globs of files not to lint (see discovery.Exclude), relative to the configuration's folder
    exclude: list[str] = field(default_factory=list)
    #: a Rego backend that cannot do all of OPA's checks is a tool error (exit 3), not a warning
    strict_engines: bool = False


def find_pyproject(start: Path) -> Path | None:
    for folder in [start, *start.parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_config(explicit: Path | None, start: Path) -> LintConfig:
    path = explicit or find_pyproject(start)
    if path is None:
        return LintConfig()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        # a file that exists but cannot be read or parsed is a tool error (3), as for any input
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise InputError(f"{path}: cannot read the lint configuration ({reason})") from exc
    section = data.get("tool", {}).get("itbench", {}).get("lint", {})
    if not isinstance(section, dict):
        raise InputError(f"{path}: [tool.itbench.lint] must be a table")
    allowed = {"enable", "disable", "paths", "fail-level", "profile", "exclude", "strict-engines"}
    unknown = set(section) - allowed
    if unknown:
        raise UsageError(
            f"{path}: unknown [tool.itbench.lint] key(s) {', '.join(sorted(unknown))}; allowed: {', '.join(sorted(allowed))}"
        )
    config = LintConfig(
        enable=list(section.get("enable", [])),
        disable=list(section.get("disable", [])),
        paths=list(section.get("paths", [])),
        fail_level=section.get("fail-level", "error"),
        profile=section.get("profile"),
        source=str(path),
        exclude=_globs(path, section.get("exclude", [])),
        strict_engines=section.get("strict-engines", False),
    )
    if not isinstance(config.strict_engines, bool):
        raise UsageError(f"{path}: strict-engines must be true or false")
    if config.fail_level not in ("error", "warning", "info"):
        raise UsageError(f"{path}: fail-level must be error, warning or info")
    return config


def _globs(path: Path, value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UsageError(f'{path}: exclude must be a list of glob strings, e.g. ["charts/*"]')
    return list(value)


def inline_ignores(text: str) -> dict[int, set[str]]:
    """line number -> rule ids ignored there (a comment also covers the line below it)."""
    out: dict[int, set[str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _IGNORE.search(line)
        if match:
            ids = {r.strip() for r in match.group(1).split(",") if r.strip()}
            out.setdefault(number, set()).update(ids)
            out.setdefault(number + 1, set()).update(ids)
    return out
