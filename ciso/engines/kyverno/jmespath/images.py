"""Image and URL functions: image_normalize, is_external_url."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from jmespath import functions

from ciso.engines.kyverno.jmespath.strings import FunctionError

DEFAULT_REGISTRY = "docker.io"


_REFERENCE = re.compile(
    r"^(?P<name>[a-z0-9]+(?:[._-]+[a-z0-9]+)*(?::[0-9]+)?(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*)"
    r"(?::(?P<tag>[\w][\w.-]{0,127}))?(?:@(?P<digest>[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$"
)


def image_info(image: str) -> dict[str, str]:
    """What Kyverno knows of an image reference (the ``images`` variable's entries, and
    image_normalize): registry (docker.io by default), path, name, tag (latest when there is
    neither tag nor digest), digest, reference, referenceWithTag."""
    first, slash, _ = image.partition("/")
    if not slash or (
        not any(c in first for c in ".:") and first != "localhost" and first.islower()
    ):
        full = f"{DEFAULT_REGISTRY}/{image}"
    else:
        full = image
    registry, _, remainder = full.partition("/")
    match = _REFERENCE.match(full)
    if not match or not remainder:
        raise FunctionError(f"bad image: {image}")
    path = match.group("name")[len(registry) + 1 :]
    tag, digest = match.group("tag") or "", match.group("digest") or ""
    if not tag and not digest:
        tag = "latest"
    base = f"{registry}/{path}"
    info = {
        "registry": registry,
        "name": path.rsplit("/", 1)[-1],
        "path": path,
        "tag": tag,
        "digest": digest,
        "reference": f"{base}@{digest}" if digest else f"{base}:{tag}",
        "referenceWithTag": f"{base}:{tag}",
    }
    # Kyverno's JSON drops empty tag and digest
    return {k: v for k, v in info.items() if v or k in ("name", "path")}


def normalize_image(image: str) -> str:
    """``nginx`` -> ``docker.io/nginx:latest`` (Kyverno's image_normalize)."""
    if not image or image != image.strip():
        raise FunctionError(f"image_normalize: bad image: {image!r}")
    return image_info(image)["reference"]


def _external(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        # offline, a host name cannot be resolved: only well-known local names are internal
        return host not in ("localhost",) and not host.endswith((".local", ".localhost"))
    return not (address.is_loopback or address.is_private)


class ImageFunctions:
    @functions.signature({"types": ["string"]})
    def _func_image_normalize(self, image: str) -> str:
        return normalize_image(image)

    @functions.signature({"types": ["string"]})
    def _func_is_external_url(self, url: str) -> bool:
        return _external(urlsplit(url).hostname or "")
