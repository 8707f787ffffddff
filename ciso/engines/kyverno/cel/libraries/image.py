"""Kyverno's image data library: ``image.GetMetadata(ref)`` answered from the test context's
``images`` (the CLI never reaches a registry in a test): the entry whose ``image`` is ``ref``,
else an error naming the image."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno.cel.libraries.environment import current
from ciso.engines.kyverno.cel.syntax import namespaced


def get_metadata(ref: str) -> dict[str, Any]:
    images = current().images
    if not images:
        raise ValueError("image data not found in the context")
    if ref not in images:
        raise ValueError(f"image data for {ref} not found in the context")
    return images[ref]


FUNCTIONS = {namespaced("image", "GetMetadata"): get_metadata}
