"""Image and URL functions: image_normalize, is_external_url."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from jmespath import functions

from ciso.engines.kyverno.jmespath.strings import FunctionError

DEFAULT_REGISTRY = "docker.io"


def normalize_image(image: str) -> str:
    """``nginx`` -> ``docker.io/nginx:latest``: Kyverno's image_normalize (default registry,
    ``:latest`` when there is neither tag nor digest)."""
    if not image or image != image.strip() or " " in image:
        raise FunctionError(f"image_normalize: invalid image reference {image!r}")
    first, _, rest = image.partition("/")
    if not rest or ("." not in first and ":" not in first and first != "localhost"):
        registry, path = DEFAULT_REGISTRY, image
    else:
        registry, path = first, rest
    name, digest = path.split("@", 1) if "@" in path else (path, "")
    tag = ""
    if ":" in name.rsplit("/", 1)[-1]:
        name, tag = name.rsplit(":", 1)
    if registry == DEFAULT_REGISTRY and "/" not in name:
        # Kyverno keeps Docker Hub's short names without the library/ prefix
        pass
    reference = f"{registry}/{name}"
    if tag:
        reference += f":{tag}"
    if digest:
        reference += f"@{digest}"
    if not tag and not digest:
        reference += ":latest"
    return reference


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
