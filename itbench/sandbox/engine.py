"""The container engine behind ``--sandbox container``: a ``docker`` SDK client for DOCKER_HOST.

Absent (the ``docker`` package missing, nothing listening at ``DOCKER_HOST``) or unreachable is a
:class:`SandboxUnavailable` naming ``DOCKER_HOST`` (exit 3), never a fall-back to running the
command unsandboxed.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING

from itbench.sandbox.availability import SandboxUnavailable

if TYPE_CHECKING:  # the docker SDK is an optional extra, imported when a client is made
    from docker import DockerClient

#: The image evaluation commands run in (default: the newest ``itbench sandbox image build``).
IMAGE_ENV = "ITBENCH_SANDBOX_IMAGE"
#: The image agent commands run in (``--agent-image``; default: the evaluation image).
AGENT_IMAGE_ENV = "ITBENCH_AGENT_IMAGE"

#: What to start when no engine answers (the message's advice).
_HOW = (
    "start Docker (Docker Desktop on macOS) or Podman's socket "
    "(`podman system service --time=0 unix:///run/podman/podman.sock`) and point DOCKER_HOST at it"
)


def docker_host() -> str:
    return os.environ.get("DOCKER_HOST") or "(unset: the default unix:///var/run/docker.sock)"


#: DOCKER_HOST -> the API version its engine answered with. A client asks the engine for it
#: unless told (Podman takes about 2 s to answer ``/version``); a forked trial worker inherits
#: this and makes its own client without asking again.
_API_VERSIONS: dict[str, str] = {}
#: DOCKER_HOST -> the newest evaluation image found there, looked up once per process (a list of
#: the engine's images per sandboxed command otherwise); a forked worker inherits it.
_EVALUATION_IMAGES: dict[str, str] = {}


@functools.cache
def _client_for(host: str, pid: int) -> DockerClient:
    """One client per process: a forked trial worker must not share its parent's connections."""
    try:
        import docker
    except ImportError:
        raise SandboxUnavailable(
            "--sandbox container needs the docker Python package to reach the engine at "
            f"DOCKER_HOST={docker_host()}: pip install 'itbench[container]'"
        ) from None
    try:
        client = docker.from_env(timeout=600, version=_API_VERSIONS.get(host))
        client.ping()
        _API_VERSIONS[host] = client.api.api_version
    except Exception as exc:  # the SDK raises DockerException, requests' errors, OSError
        raise SandboxUnavailable(
            f"no container engine answers at DOCKER_HOST={docker_host()}: "
            f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}; {_HOW}"
        ) from None
    return client


def engine_client() -> DockerClient:
    """A ``docker.DockerClient`` that answered a ping (one per DOCKER_HOST per process)."""
    return _client_for(os.environ.get("DOCKER_HOST", ""), os.getpid())


def evaluation_image(client: DockerClient) -> str:
    """``ITBENCH_SANDBOX_IMAGE``, else the newest image ``itbench sandbox image build`` made."""
    named = os.environ.get(IMAGE_ENV)
    if named:
        return named
    host = os.environ.get("DOCKER_HOST", "")
    if host not in _EVALUATION_IMAGES:
        _EVALUATION_IMAGES[host] = _newest_evaluation_image(client)
    return _EVALUATION_IMAGES[host]


def _newest_evaluation_image(client: DockerClient) -> str:
    from itbench.sandbox.image import IMAGE_REPOSITORY

    images = client.images.list(name=IMAGE_REPOSITORY)
    tagged = [
        (image.attrs.get("Created", ""), tag)
        for image in images
        for tag in image.tags
        if tag.startswith(IMAGE_REPOSITORY + ":")
    ]
    if not tagged:
        raise SandboxUnavailable(
            f"no evaluation image at DOCKER_HOST={docker_host()}: run `itbench sandbox image "
            f"build` first, or name one with {IMAGE_ENV}"
        )
    return str(max(tagged)[1])


def agent_image(client: DockerClient) -> str:
    return os.environ.get(AGENT_IMAGE_ENV) or evaluation_image(client)
