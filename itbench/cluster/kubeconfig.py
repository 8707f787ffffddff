"""A kubeconfig for the offline cluster, written atomically (a reader sees all or nothing)."""

from __future__ import annotations

from pathlib import Path

import yaml

from itbench.fsutil import atomic_write_text

CONTEXT = "itbench-offline"


def kubeconfig_text(url: str) -> str:
    return yaml.safe_dump(
        {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": CONTEXT, "cluster": {"server": url}}],
            "users": [{"name": CONTEXT, "user": {"token": "offline"}}],
            "contexts": [
                {
                    "name": CONTEXT,
                    "context": {"cluster": CONTEXT, "user": CONTEXT, "namespace": "default"},
                }
            ],
            "current-context": CONTEXT,
            "preferences": {},
        },
        sort_keys=False,
    )


def write_kubeconfig(path: Path, url: str) -> Path:
    atomic_write_text(path, kubeconfig_text(url))
    return path
