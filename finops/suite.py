"""The built-in suite: generated scenarios, deterministic, cached on disk.

Five scenarios of each difficulty, then two of each family (seed 2024). They are generated once into
``$ITBENCH_CACHE_DIR`` (default ``~/.cache/itbench``) under a name that carries the generator
version, written to a temporary folder and renamed, so parallel first runs cannot see half a suite.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from finops.generator import FAMILY_NAMES, generate_scenarios
from finops.scenario import FinOpsScenario, discover_scenarios

SUITE_VERSION = "v2"
SUITE_SEED = 2024
PER_DIFFICULTY = 5
#: Scenarios of each family (finops/generator/families.py), after the difficulty ones.
PER_FAMILY = 2
DIFFICULTY_ORDER = ("easy", "medium", "hard")


def cache_root() -> Path:
    base = os.environ.get("ITBENCH_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "itbench"
    )
    return Path(base)


def suite_dir() -> Path:
    target = cache_root() / "finops" / f"builtin-{SUITE_VERSION}"
    if target.is_dir():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".builtin-", dir=target.parent))
    try:
        first = 1
        for difficulty in DIFFICULTY_ORDER:
            generate_scenarios(staging, PER_DIFFICULTY, SUITE_SEED, difficulty, first=first)
            first += PER_DIFFICULTY
        for family in FAMILY_NAMES:
            generate_scenarios(staging, PER_FAMILY, SUITE_SEED, family=family, first=first)
            first += PER_FAMILY
        try:
            staging.rename(target)
        except OSError:  # another process finished first: use theirs
            shutil.rmtree(staging, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def builtin_scenarios() -> list[FinOpsScenario]:
    return discover_scenarios(suite_dir())
