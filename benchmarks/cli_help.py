"""Wall time of `itbench --help` (median of 10) and proof that it imports no plugin and no litellm.

Target: <= 0.3 s. Prints one JSON document.
Run: .venv/bin/python benchmarks/cli_help.py
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path


def main() -> None:
    exe = str(Path(sys.executable).parent / "itbench")
    times = []
    for _ in range(10):
        started = time.perf_counter()
        subprocess.run([exe, "--help"], capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    trace = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-c",
            "import sys; from itbench.cli.main import main; sys.argv=['itbench','--help']; main()",
        ],
        capture_output=True,
        text=True,
    ).stderr
    imported = {
        line.split("|")[-1].strip()
        for line in trace.splitlines()
        if line.startswith("import time:")
    }
    heavy = sorted(
        m
        for m in imported
        if m.split(".")[0] in {"litellm", "finops", "ciso", "pandas", "numpy", "kubernetes", "rich"}
    )
    print(
        json.dumps(
            {
                "benchmark": "cli_help",
                "median_s": round(statistics.median(times), 3),
                "min_s": round(min(times), 3),
                "max_s": round(max(times), 3),
                "modules_imported": len(imported),
                "plugin_or_heavy_modules_imported": heavy,
                "target_s": 0.3,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
