"""Pattern checking CPU time: the pod-security policies' patterns against 301 resources of every
shape, (a) the same pattern objects three times over (a policy's patterns, compiled once) and (b)
a fresh copy of the pattern per resource (a pattern substituted for one resource, met once).
With ``--against OTHER_CHECKOUT`` (e.g. a worktree of an earlier commit, with its own .venv) both
are run alternately, three rounds each, in one run. Needs ../shared. Prints one JSON document.
Run: .venv/bin/python benchmarks/kyverno_patterns.py [--against /path/to/older/checkout]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _measure() -> dict[str, float]:
    # the corpus helpers of either checkout: tests._support (this one) or tests/conftest.py
    # (checkouts from before the tests became a package)
    sys.path[:0] = [str(REPO), str(REPO / "tests" / "kyverno"), str(REPO / "tests")]
    import test_kyverno_fast_paths as corpus

    from ciso.engines.kyverno.pattern import check

    patterns = [p for _, p in corpus._patterns(corpus._policies())]
    resources = corpus._resources(300)

    def each(pairs) -> None:
        for resource, pattern in pairs:
            # a mismatch or a malformed pattern is as much work as a pass
            with contextlib.suppress(Exception):
                check.validate(resource, pattern)

    started = time.process_time()
    for _ in range(3):
        each((r, p) for p in patterns for r in resources)
    reused = time.process_time() - started
    copies = [(r, json.loads(json.dumps(p))) for p in patterns for r in resources]
    started = time.process_time()
    each(copies)
    once = time.process_time() - started
    return {"policy_patterns_cpu_s": round(reused, 3), "patterns_met_once_cpu_s": round(once, 3)}


def _in(checkout: Path) -> dict[str, float]:
    python = checkout / ".venv" / "bin" / "python"
    proc = subprocess.run(
        [str(python), str(Path(__file__).resolve()), "--inner", str(checkout)],
        capture_output=True, text=True, check=True, cwd="/tmp",
    )  # fmt: skip
    return json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--inner", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        global REPO
        REPO = args.inner
        print(json.dumps(_measure()))
        return
    checkouts = {"this": REPO} | ({"against": args.against} if args.against else {})
    rounds: dict[str, list[dict[str, float]]] = {name: [] for name in checkouts}
    for _ in range(3):
        for name, checkout in checkouts.items():
            rounds[name].append(_in(checkout))
    best = {name: {k: min(r[k] for r in runs) for k in runs[0]} for name, runs in rounds.items()}
    print(json.dumps({"benchmark": "kyverno_patterns", "best_of_3": best, "rounds": rounds}))


if __name__ == "__main__":
    main()
