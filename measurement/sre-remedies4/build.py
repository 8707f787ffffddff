#!/usr/bin/env python3
"""Write material/cases/<fault>__<case>.sh and material/labels.md from src/cases_*.txt (stdlib only, deterministic).
Usage: python3 build.py [OUTDIR]   (default: material)"""
import glob, os, sys
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "material")
os.makedirs(os.path.join(out, "cases"), exist_ok=True)
rows = []
for src in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "src", "cases_*.txt"))):
    parts = open(src).read().split("=== ")[1:]
    for p in parts:
        name, body = p.split("\n", 1)
        name = name.strip()
        body = body.rstrip("\n") + "\n"
        first = body.split("\n", 1)[0]
        assert first.startswith("# expect: pass — ") or first.startswith("# expect: fail — "), name
        with open(os.path.join(out, "cases", name + ".sh"), "w") as f:
            f.write(body)
        fault, case = name.split("__")
        label = first.split()[2]
        rows.append((fault, case, label, first.split(" — ", 1)[1]))
with open(os.path.join(out, "labels.md"), "w") as f:
    f.write("| fault type | case | label | remedy |\n|---|---|---|---|\n")
    for r in rows:
        f.write("| %s | %s | %s | %s |\n" % r)
n_pass = sum(1 for r in rows if r[2] == "pass")
print(len(rows), "cases,", n_pass, "pass,", len(rows) - n_pass, "fail,", len({r[0] for r in rows}), "fault types")
