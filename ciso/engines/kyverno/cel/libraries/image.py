"""Kyverno's image libraries. ``image(ref)`` parses a reference (as go-containerregistry
does: Docker Hub is ``index.docker.io``, its one-part names are under ``library/``, no tag
means ``latest``); ``registry``, ``repository``, ``identifier``, ``tag``, ``digest`` and
``containsDigest`` read it (receiver calls, so they take the parsed map); ``isImage`` says
whether a string parses.

The image data library: ``image.GetMetadata(ref)`` answered from the test context's
``images`` (the CLI never reaches a registry in a test): the entry whose ``image`` is ``ref``,
else an error naming the image."""

from __future__ import annotations

from typing import Any

from ciso.engines.kyverno.cel.libraries.environment import current
from ciso.engines.kyverno.cel.syntax import namespaced
from ciso.engines.kyverno.jmespath.images import image_info
from ciso.engines.kyverno.jmespath.strings import FunctionError

DOCKER_HUB = "index.docker.io"
#: marks a map as a parsed image (the evaluator has no opaque types)
IMAGE_MARK = "_kyverno_image"


def get_metadata(ref: str) -> dict[str, Any]:
    images = current().images
    if not images:
        raise ValueError("image data not found in the context")
    if ref not in images:
        raise ValueError(f"image data for {ref} not found in the context")
    return images[ref]


def parse(ref: str) -> dict[str, Any]:
    try:
        info = image_info(ref)
    except FunctionError:
        raise ValueError(f"invalid image reference: {ref!r}") from None
    registry = DOCKER_HUB if info["registry"] == "docker.io" else info["registry"]
    repository = info["path"]
    if registry == DOCKER_HUB and "/" not in repository:
        repository = f"library/{repository}"
    return {
        IMAGE_MARK: True,
        "registry": registry,
        "repository": repository,
        "tag": info.get("tag", ""),
        "digest": info.get("digest", ""),
    }


def _field(name: str) -> Any:
    def read(image: Any) -> str:
        if not isinstance(image, dict) or IMAGE_MARK not in image:
            raise ValueError(f"{name}() needs an image (from image(...)), got {image!r}")
        return str(image[name])

    return read


def _identifier(image: Any) -> str:
    digest = _field("digest")(image)
    return digest or _field("tag")(image)


def _is_image(ref: Any) -> bool:
    try:
        parse(str(ref))
    except ValueError:
        return False
    return True


FUNCTIONS = {
    namespaced("image", "GetMetadata"): get_metadata,
    "image": parse,
    "isImage": _is_image,
    "registry": _field("registry"),
    "repository": _field("repository"),
    "tag": _field("tag"),
    "digest": _field("digest"),
    "identifier": _identifier,
    "containsDigest": lambda image: bool(_field("digest")(image)),
}
