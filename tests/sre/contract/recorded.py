"""The recorded calls (``calls.json``) and answers (``recordings/``), and running the same calls
through our tools on the same snapshots. ``python tests/sre/contract/recorded.py`` prints, per
call, whether our answer has the original's shape, and the count."""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(REPO))  # run as a script: the repository's tests package
from tests.sre.contract.tool_shapes import differences  # noqa: E402 - after the sys.path entry for the tests package

CALLS = json.loads((HERE / "calls.json").read_text())
RECORDINGS = HERE / "recordings"
FIXTURE = REPO / "tests" / "sre" / "fixtures" / "incident-checkout"
ARCH = REPO.parent / "shared" / "corpora" / "itbench" / "sre" / "app_topology" / "architecture.json"


@dataclass(frozen=True)
class Recording:
    id: str
    tool: str
    snapshot: str
    args: dict[str, Any]
    kind: str  # json | text (the original answered with a sentence, or failed)
    answer: Any
    written: Any = None

    @property
    def name(self) -> str:
        return f"{self.snapshot}--{self.id}"


def recordings() -> list[Recording]:
    out = []
    for path in sorted(RECORDINGS.glob("*.json")):
        doc = json.loads(path.read_text())
        out.append(Recording(**{k: doc.get(k) for k in Recording.__dataclass_fields__}))
    return out


def snapshot_dir(name: str, scratch: Path) -> Path:
    """The snapshot a recording was made on: the fixture, or the generator's incident."""
    if name == "incident-checkout":
        return FIXTURE
    from sre.generator.snapshot import generate_incidents

    folder = scratch / name / "Scenario-1"
    if not folder.is_dir():
        generate_incidents(scratch / name, 3, 1, "feature-flag")
    return folder


def filled(args: Any, values: dict[str, str]) -> Any:
    if isinstance(args, str):
        for key, value in values.items():
            args = args.replace("{" + key + "}", str(value))
        return args
    if isinstance(args, list):
        return [filled(a, values) for a in args]
    if isinstance(args, dict):
        return {k: filled(v, values) for k, v in args.items()}
    return args


def run_ours(rec: Recording, scratch: Path, arch: Path) -> tuple[Any, Any]:
    """Our answer to the recorded call (and the file it wrote, for build_topology)."""
    from sre.tools import call

    values = dict(CALLS["snapshots"][rec.snapshot])
    tmp = scratch / f"tmp-{rec.snapshot}"
    tmp.mkdir(parents=True, exist_ok=True)
    values.update(snapshot=str(snapshot_dir(rec.snapshot, scratch)), tmp=str(tmp), arch=str(arch))
    args = filled(rec.args, values)
    answer = call(rec.tool, args)
    written = None
    if "output_file" in args and Path(args["output_file"]).is_file():
        written = json.loads(Path(args["output_file"]).read_text())
    return answer, written


def refused(rec: Recording) -> bool:
    """The original answered with an error sentence: ours refusing the call (an error result
    naming the problem) is the same answer."""
    return rec.kind == "text" and rec.answer.startswith("Error")


def compare(rec: Recording, ours: Any, written: Any) -> list[str]:
    if rec.kind == "text":  # a sentence: ours answers with a sentence too
        return (
            []
            if isinstance(ours, str)
            else [f"the original answers text, ours {type(ours).__name__}"]
        )
    problems = differences(rec.answer, ours)
    if rec.written is not None:
        problems += [f"written file: {p}" for p in differences(rec.written, written)]
    return problems


def main() -> None:
    from itbench.errors import ItbenchError

    arch = Path(sys.argv[1]) if len(sys.argv) > 1 else ARCH
    good = total = 0
    with tempfile.TemporaryDirectory() as scratch:
        runs = sorted(recordings(), key=lambda r: (r.snapshot, r.tool, r.id))
        # calls in the order they were recorded: build_topology writes what topology_analysis reads
        order = {c["id"]: i for i, c in enumerate(CALLS["calls"])}
        runs.sort(key=lambda r: (r.snapshot, order[r.id]))
        for rec in runs:
            if rec.kind == "text" and rec.answer.startswith("<raised"):
                continue  # the original fails on this call: nothing to be drop-in for
            if rec.name in CALLS["original_defects"]:
                print(f"skip {rec.name}: {CALLS['original_defects'][rec.name][:100]}...")
                continue
            total += 1
            try:
                ours, written = run_ours(rec, Path(scratch), arch)
                problems = compare(rec, ours, written)
            except ItbenchError as exc:
                problems = [] if refused(rec) else [f"raised {type(exc).__name__}: {exc}"]
            except Exception as exc:  # noqa: BLE001 - a failure is a mismatch to count
                problems = [f"raised {type(exc).__name__}: {exc}"]
            good += not problems
            print(
                f"{'ok  ' if not problems else 'DIFF'} {rec.name}"
                + ("".join(f"\n       {p}" for p in problems[:4]))
            )
    print(f"{good}/{total} calls answer with the original's shape")


if __name__ == "__main__":
    main()
