"""The container engine behind ``--sandbox container``: a ``docker`` SDK client for DOCKER_HOST.

Absent (the ``docker`` package missing, nothing listening at ``DOCKER_HOST``) or unreachable is a
:class:`SandboxUnavailable` naming ``DOCKER_HOST`` (exit 3), never a fall-back to running the
command unsandboxed.
"""

from __future__ import annotations

import functools
import os
import threading
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


#: DOCKER_HOST -> the cgroup parent given to every container (None: the engine's default); asked
#: once per process, inherited by a forked worker.
_CGROUP_PARENTS: dict[str, str | None] = {}


def _cgroup_parent(client: DockerClient) -> str | None:
    """``/`` where the engine manages cgroups itself (``cgroupfs``), else None (the default).

    With the cgroupfs driver every container lies in one parent group (Podman: ``libpod_parent``,
    Docker: ``/docker``), which the CPU scheduler weighs as one task group: all containers of the
    machine together get the share of one bubblewrap sandbox, since each bubblewrap sandbox is a
    session of its own and the kernel's autogroup gives every session its own group. Under load,
    containers running side by side (a trial's two playbooks, parallel trials) then wait for one
    another. At the top of the hierarchy each container weighs what one sandbox weighs. A systemd
    driver names slices instead and keeps its default."""
    try:
        info = client.info()
    except Exception:  # an engine that does not say: its default
        return None
    return "/" if info.get("CgroupDriver") == "cgroupfs" else None


#: Overrides the cgroup parent of every container: a parent group (a slice name with systemd's
#: driver), or empty for the engine's default.
CGROUP_PARENT_ENV = "ITBENCH_CONTAINER_CGROUP_PARENT"


def cgroup_parent() -> str | None:
    """The cgroup parent for containers of the engine at DOCKER_HOST: ``ITBENCH_CONTAINER_CGROUP_
    PARENT`` when set (empty: the engine's default), else :func:`_cgroup_parent`'s choice."""
    if CGROUP_PARENT_ENV in os.environ:
        return os.environ[CGROUP_PARENT_ENV] or None
    _join_cgroup_questions()
    return _CGROUP_PARENTS.get(os.environ.get("DOCKER_HOST", ""))


#: The API version of the client that pings the engine (the ping's path has no version in it):
#: the oldest the SDK speaks.
_PROBE_API_VERSION = "1.24"
#: DOCKER_HOST -> the thread asking the engine for its cgroup driver (``/info``: over a second
#: on Podman), started with the client and joined when the answer is needed or before a fork
#: (a forked trial worker inherits the answer, not the thread).
_CGROUP_QUESTIONS: dict[str, threading.Thread] = {}
#: Seconds a fork or a container waits for that answer.
_INFO_WAIT_S = 60.0


def _ask_cgroup_parent(host: str, client: DockerClient) -> None:
    def ask() -> None:
        _CGROUP_PARENTS[host] = _cgroup_parent(client)

    question = threading.Thread(target=ask, name="itbench-engine-info", daemon=True)
    _CGROUP_QUESTIONS[host] = question
    question.start()


def _join_cgroup_questions() -> None:
    for host, question in list(_CGROUP_QUESTIONS.items()):
        if question.ident is not None:
            question.join(timeout=_INFO_WAIT_S)  # unanswered: the engine's default parent
        _CGROUP_QUESTIONS.pop(host, None)


os.register_at_fork(before=_join_cgroup_questions)


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
        known = _API_VERSIONS.get(host)
        # a version given: the SDK asks nothing before the ping (its own ``/version`` request
        # costs Podman about 2 s, many times that on a loaded machine)
        client = docker.from_env(timeout=600, version=known or _PROBE_API_VERSION)
        # the ping, read whole: the engine's API version and, for Podman, its name are in its
        # headers (see outbound_network)
        answer = client.api.get(client.api.base_url + "/_ping", timeout=client.api.timeout)
        answer.raise_for_status()
        _IS_PODMAN[host] = "Libpod-Api-Version" in answer.headers
        if known is None:
            # an engine whose ping names no version is asked for it (the SDK's ``/version``)
            client = docker.from_env(timeout=600, version=answer.headers.get("Api-Version"))
        _API_VERSIONS[host] = client.api.api_version
        if host not in _CGROUP_PARENTS:
            _ask_cgroup_parent(host, client)
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
    """The newest evaluation image built from this process's environment (labelled with its
    venv's path and content hash): an engine shared by several checkouts holds theirs too, whose
    environment at the same paths would be another one or missing."""
    import sys

    from itbench.sandbox.image import IMAGE_REPOSITORY, matches_environment

    images = client.images.list(name=IMAGE_REPOSITORY)
    tagged = [
        (image.attrs.get("Created", ""), tag)
        for image in images
        for tag in image.tags
        if tag.startswith(IMAGE_REPOSITORY + ":")
    ]
    own = [
        (image.attrs.get("Created", ""), tag)
        for image in images
        if matches_environment(image.labels)
        for tag in image.tags
        if tag.startswith(IMAGE_REPOSITORY + ":")
    ]
    if not own:
        others = f" ({len(tagged)} built from other environments)" if tagged else ""
        raise SandboxUnavailable(
            f"no evaluation image of this environment ({sys.prefix}) at "
            f"DOCKER_HOST={docker_host()}{others}: run `itbench sandbox image build` first, or "
            f"name one with {IMAGE_ENV}"
        )
    return str(max(own)[1])


def agent_image(client: DockerClient) -> str:
    return os.environ.get(AGENT_IMAGE_ENV) or evaluation_image(client)


#: The outbound network of an agent's container (``--agent-network allow``): a network namespace of
#: its own, whose abstract UNIX sockets and loopback are private. The host's loopback is not
#: reached through it: the services the agent is given there are relayed into its own loopback
#: (:mod:`itbench.sandbox.loopback`). Podman: slirp4netns (user-mode networking, no bridge, no
#: firewall rules on the host) without ``allow_host_loopback``, so its gateway does not lead to
#: the host's loopback.
PODMAN_OUTBOUND = "slirp4netns"
#: Docker: its default bridge (on Docker Engine started with ``--bridge=none``: a loopback only).
DOCKER_OUTBOUND = "bridge"
#: DOCKER_HOST -> whether Podman answers there (asked once per process, inherited by a fork).
_IS_PODMAN: dict[str, bool] = {}


def outbound_network(client: DockerClient) -> str:
    """The outbound network of the engine behind ``client``: Podman says who it is in the
    headers of its ping (``Libpod-Api-Version``), read when the client was made (a forked worker
    inherits it); asked again only for a client made otherwise."""
    host = os.environ.get("DOCKER_HOST", "")
    if host not in _IS_PODMAN:
        try:
            answer = client.api.get(client.api.base_url + "/_ping", timeout=client.api.timeout)
        except Exception as exc:  # requests' errors, OSError
            raise SandboxUnavailable(
                f"the container engine at DOCKER_HOST={docker_host()} stopped answering: {exc}"
            ) from None
        _IS_PODMAN[host] = "Libpod-Api-Version" in answer.headers
    return PODMAN_OUTBOUND if _IS_PODMAN[host] else DOCKER_OUTBOUND
