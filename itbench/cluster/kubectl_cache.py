"""kubectl's discovery cache for an offline cluster, written from the cluster's own state.

kubectl asks an API server which groups and resources it serves (``/api``, ``/apis`` and every
group version: over twenty requests here) before its first request, unless it finds the answers
in its cache (``$KUBECACHEDIR/discovery/<host>_<port>/``, fresh for hours by the files' age). A
fetcher run against a fresh offline cluster starts with an empty cache and pays for that
discovery on every kubectl call it makes; the cache written here holds exactly what the server
would answer for this state, so nothing in it comes from elsewhere (another environment, an
earlier run). A cache kubectl cannot use it ignores: it asks the server, as without one, and on a
resource type missing from it kubectl invalidates it and asks again.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from itbench.cluster.state import ClusterState


def cache_folder(cache_dir: Path, server_url: str) -> Path:
    """Where kubectl keeps the discovery of ``server_url``: its host with every character but
    word characters, ``/``, ``.``, ``(`` and ``)`` replaced by ``_`` (client-go's
    ``computeDiscoverCacheDir``)."""
    host = server_url.replace("https://", "", 1).replace("http://", "", 1)
    return cache_dir / "discovery" / re.sub(r"[^(\w/.)]", "_", host)


def write_discovery_cache(cache_dir: Path, server_url: str, state: ClusterState) -> None:
    """``servergroups.json`` (the core group first, as kubectl stores it) and one
    ``serverresources.json`` per group version, from what the server answers for ``state``."""
    from itbench.cluster.server import group_list, resource_list

    folder = cache_folder(cache_dir, server_url)
    groups = group_list(state)
    core = {"groupVersion": "v1", "version": "v1"}
    document = {
        **groups,
        "groups": [{"name": "", "versions": [core], "preferredVersion": core}, *groups["groups"]],
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "servergroups.json").write_text(json.dumps(document), encoding="utf-8")
    versions = [("", "v1")] + [
        (group["name"], entry["version"])
        for group in groups["groups"]
        for entry in group["versions"]
    ]
    for group, version in versions:
        target = folder / group / version if group else folder / version
        target.mkdir(parents=True, exist_ok=True)
        (target / "serverresources.json").write_text(
            json.dumps(resource_list(state, group, version)), encoding="utf-8"
        )
