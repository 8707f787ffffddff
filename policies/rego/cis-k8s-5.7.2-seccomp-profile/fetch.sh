#!/usr/bin/env bash
# Read every manifest under ./static-resources and write them to ./collected_data.json as one
# List, the shape `kubectl get <kinds> -A -o json` prints, so one policy serves both.
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
        # A List document (kubectl get -o yaml) contributes its items.
        if str(doc.get("kind", "")).endswith("List") and isinstance(doc.get("items"), list):
            items.extend(i for i in doc["items"] if isinstance(i, dict))
        else:
            items.append(doc)
with open("collected_data.json", "w") as out:
    json.dump({"apiVersion": "v1", "kind": "List", "items": items}, out, indent=1)
PY
