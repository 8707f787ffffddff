"""Reflection ablation on CISO: the real ``llm`` agent (litellm over HTTP), a scripted local
OpenAI-compatible server playing four model behaviours, the real validator and the real evaluator.

Behaviours (each first writes a flawed answer, then the correct one whenever it is told about a
problem): a Rego syntax error, a wrong field path, a policy that misses initContainers, and the
policy saved under the wrong file name. Each runs with 0, 1 and 3 reflection rounds
(``--reflection-rounds N``: the first attempt plus up to N fixes fed by the validator; 0 runs no
validator).
Prints one JSON document: pass rates per round count and behaviour, and the mean validator time
per round (from each trial's ``.itbench/validation.jsonl``).
Run: .venv/bin/python benchmarks/ciso_reflection.py [--scenario ID]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the repository's tests package holds the fake server
from tests._support.fake_openai import ScriptedServer, Step, chat_reply  # noqa: E402 - after the sys.path entry for the tests package

SCENARIO = "cis-k8s-5.2.2-privileged.kubectl-opa"
REFERENCE = REPO / "policies" / "rego" / "cis-k8s-5.2.2-privileged"
FIELD = "container.securityContext.privileged == true"
ROUNDS = (0, 1, 3)


def _correct() -> str:
    return (REFERENCE / "policy.rego").read_text()


#: behaviour -> (file name of the first policy, its text)
BEHAVIOURS: dict[str, Callable[[], tuple[str, str]]] = {
    "syntax error": lambda: (
        "policy.rego",
        _correct().replace("result := false if {", "result := false {"),
    ),
    "wrong field path": lambda: (
        "policy.rego",
        _correct().replace(FIELD, FIELD.replace("securityContext", "security_context")),
    ),
    "misses initContainers": lambda: (
        "policy.rego",
        _correct().replace(
            '["containers", "initContainers", "ephemeralContainers"]', '["containers"]'
        ),
    ),
    "wrong file name": lambda: ("check.rego", _correct()),
}


def _write(path: str, content: str) -> Step:
    arguments = json.dumps({"path": path, "content": content})
    return Step(chat_reply(tool_calls=[{"name": "write_file", "arguments": arguments}]))


def script(behaviour: str) -> list[Step]:
    name, flawed = BEHAVIOURS[behaviour]()
    steps = [
        _write("fetcher.sh", (REFERENCE / "fetcher.sh").read_text()),
        _write(name, flawed),
        Step(chat_reply("done")),
    ]
    # every later round (only reached after feedback): the corrected answer
    for _ in range(3):
        steps += [_write("policy.rego", _correct()), Step(chat_reply("fixed"))]
    return steps


def _itbench() -> str:
    candidate = Path(sys.executable).parent / "itbench"
    return str(candidate) if candidate.exists() else "itbench"


def run_one(behaviour: str, rounds: int, scenario: str, root: Path) -> dict:
    out = root / f"{behaviour.replace(' ', '-')}-{rounds}"
    env = {"OPENAI_API_KEY": "sk-ablation-0123456789", "PATH": "/usr/bin:/bin", "HOME": str(root)}
    with ScriptedServer(script(behaviour)) as server:
        started = time.monotonic()
        proc = subprocess.run(
            [
                _itbench(), "ciso", "run", "--scenarios", scenario, "--agent", "llm",
                "--model", "openai/scripted", "--api-base", server.api_base,
                "--reflection-rounds", str(rounds), "--output", str(out),
                "--format", "json", "--no-progress",
            ],
            env=env, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        wall = time.monotonic() - started
    if proc.returncode != 0:
        raise SystemExit(f"{behaviour} x {rounds}: exit {proc.returncode}\n{proc.stderr}")
    (entry,) = json.loads(proc.stdout)["raw_results"]
    scores = {
        k: (v["calculation"] if isinstance(v, dict) else v) for k, v in entry["scores"].items()
    }
    log = out / scenario / "1" / ".itbench" / "validation.jsonl"
    validations = (
        [json.loads(line) for line in log.read_text().splitlines()] if log.is_file() else []
    )
    return {
        "itbench_pass": scores["itbench_pass"],
        "strict_pass": scores["strict_pass"],
        "validations": len(validations),
        "validator_seconds": [v["seconds"] for v in validations],
        "wall_s": round(wall, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default=SCENARIO)
    args = parser.parse_args()
    results: dict[str, dict[str, dict]] = {}
    with tempfile.TemporaryDirectory(prefix="itbench-ablation-") as scratch:
        for rounds in ROUNDS:
            results[str(rounds)] = {
                b: run_one(b, rounds, args.scenario, Path(scratch)) for b in BEHAVIOURS
            }
    seconds = [s for per in results.values() for r in per.values() for s in r["validator_seconds"]]
    summary = {
        str(rounds): {
            "itbench_pass_rate": statistics.fmean(r["itbench_pass"] for r in per.values()),
            "strict_pass_rate": statistics.fmean(r["strict_pass"] for r in per.values()),
        }
        for rounds, per in ((int(k), v) for k, v in results.items())
    }
    print(
        json.dumps(
            {
                "scenario": args.scenario,
                "pass_rates": summary,
                "mean_validator_s_per_round": round(statistics.fmean(seconds), 3)
                if seconds
                else None,
                "validator_rounds_timed": len(seconds),
                "runs": results,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
