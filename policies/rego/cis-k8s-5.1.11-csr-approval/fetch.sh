#!/usr/bin/env bash
# Collect every manifest under ./static-resources into one List, the shape
# `kubectl get <kinds> -A -o json` prints, so one policy.rego serves both OPA classes.
set -euo pipefail
python3 - <<'PY'
import json
import pathlib

import yaml

items = []
for path in sorted(pathlib.Path("static-resources").rglob("*")):
    if not path.is_file() or path.suffix not in (".yaml", ".yml"):
        continue
    for doc in yaml.safe_load_all(path.read_text()):
        if not isinstance(doc, dict):
            continue
        # A List document (what `kubectl get -o yaml` saves) contributes its items.
        if doc.get("kind") == "List":
            items.extend(i for i in doc.get("items") or [] if isinstance(i, dict))
        else:
            items.append(doc)
document = {"apiVersion": "v1", "kind": "List", "items": items}
pathlib.Path("collected_data.json").write_text(json.dumps(document, indent=1))
PY
