#!/usr/bin/env python3
"""sre-remedies6: write OUTDIR/_common.sh, OUTDIR/cases/<fault>__<case>.sh and OUTDIR/labels.md
from src/_common.sh and src/cases_*.txt (stdlib only, deterministic).
Usage: python3 gen.py [OUTDIR]   (default: material next to this file)"""
import glob, os, shutil, sys

HERE = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "material")
cases_dir = os.path.join(out, "cases")
os.makedirs(cases_dir, exist_ok=True)
for old in glob.glob(os.path.join(cases_dir, "*.sh")):
    os.remove(old)
shutil.copyfile(os.path.join(HERE, "src", "_common.sh"), os.path.join(out, "_common.sh"))
rows, seen = [], set()
for src in sorted(glob.glob(os.path.join(HERE, "src", "cases_*.txt"))):
    with open(src, encoding="utf-8") as f:
        parts = f.read().split("=== ")[1:]
    for p in parts:
        name, body = p.split("\n", 1)
        name = name.strip()
        assert name not in seen, name
        seen.add(name)
        body = body.rstrip("\n") + "\n"
        first = body.split("\n", 1)[0]
        assert first.startswith("# expect: pass — ") or first.startswith("# expect: fail — "), name
        with open(os.path.join(cases_dir, name + ".sh"), "w", encoding="utf-8") as f:
            f.write(body)
        fault, case = name.split("__")
        rows.append((fault, case, first.split()[2], first.split(" — ", 1)[1]))
rows.sort()
with open(os.path.join(out, "labels.md"), "w", encoding="utf-8") as f:
    f.write("| fault type | case | label | remedy |\n|---|---|---|---|\n")
    for r in rows:
        f.write("| %s | %s | %s | %s |\n" % r)
n_pass = sum(1 for r in rows if r[2] == "pass")
print(len(rows), "cases,", n_pass, "pass,", len(rows) - n_pass, "fail,", len({r[0] for r in rows}), "fault types")
