"""A kubeconfig for the offline cluster, written atomically (a reader sees all or nothing); and
the check of a kubeconfig an agent could have written before kubectl runs on it."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from itbench.cluster.credentials import RunnerCredentials
from itbench.errors import InputError
from itbench.fsutil import atomic_write_text, read_agent_text

CONTEXT = "itbench-offline"


def kubeconfig_text(url: str, token: str = "offline") -> str:
    """The kubeconfig of the API server at ``url``, its user holding ``token``. For the offline
    cluster both hold its credential (:attr:`itbench.cluster.server.ApiServer.kubeconfig_server`
    for kubectl, which sends a user's token over TLS only; the token for the Python client, which
    sends it over HTTP too): whoever has this text may use the cluster, and nobody else."""
    return yaml.safe_dump(
        {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": CONTEXT, "cluster": {"server": url}}],
            "users": [{"name": CONTEXT, "user": {"token": token}}],
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


def write_kubeconfig(path: Path, url: str, token: str = "offline") -> Path:
    atomic_write_text(path, kubeconfig_text(url, token))
    return path


# --- a kubeconfig an agent could have written -------------------------------------------------
# kubectl runs what a kubeconfig tells it to: an ``exec`` credential plugin or an auth-provider's
# command (as the runner's user, outside any sandbox), reads the files it names (a ``tokenFile``
# is sent to the server as a bearer token), goes through the proxy it names. The runner runs
# kubectl for agents (their kubectl tools, the dry run) on a kubeconfig in their workspace, which
# they can rewrite: only what reaches one API server with inline credentials is kept.

#: per part of the current context, the fields kept (anything else is refused, by name).
#: ``extensions`` are data kubectl hands only to an exec credential plugin, which is refused.
_KEPT = {
    "cluster": frozenset(
        {"server", "certificate-authority-data", "insecure-skip-tls-verify", "tls-server-name",
         "extensions"}
    ),
    "user": frozenset(
        {"token", "client-certificate-data", "client-key-data", "username", "password",
         "extensions"}
    ),
    "context": frozenset({"cluster", "user", "namespace", "extensions"}),
}  # fmt: skip


class UnsafeKubeconfig(InputError):
    """An agent's kubeconfig that kubectl is not run on: it names a command, a local file or a
    proxy, or is not a kubeconfig."""


class _OneValueLoader(yaml.SafeLoader):
    """PyYAML with a key given twice in one mapping refused: PyYAML keeps the last value,
    another parser may keep the first (the check and kubectl would read two kubeconfigs)."""


def _mapping_once(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    seen: set[object] = set()
    for key_node, _value in node.value:
        key = loader.construct_object(key_node, deep=True)
        if isinstance(key, (str, int, float, bool)) and key in seen:
            raise UnsafeKubeconfig(f"the key {key!r} is given twice in one mapping")
        seen.add(key if isinstance(key, (str, int, float, bool)) else id(key_node))
    return loader.construct_mapping(node, deep=True)


_OneValueLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping_once)


def _servers(doc: dict[str, Any]) -> set[str]:
    """Every server URL the kubeconfig's clusters name."""
    clusters = doc.get("clusters")
    return {
        str(entry["cluster"].get("server"))
        for entry in (clusters if isinstance(clusters, list) else [])
        if isinstance(entry, dict) and isinstance(entry.get("cluster"), dict)
    }


def _named(doc: dict[str, Any], section: str, name: object, shown: str) -> dict[str, Any]:
    """The body (``cluster``, ``user`` or ``context``) of the entry called ``name``."""
    key = section[:-1]
    entries = doc.get(section) or []
    if not isinstance(entries, list):
        raise UnsafeKubeconfig(f"{shown}: {section} is not a list")
    for entry in entries:
        if isinstance(entry, dict) and entry.get("name") == name:
            body = entry.get(key) or {}
            if not isinstance(body, dict):
                raise UnsafeKubeconfig(f"{shown}: {section} {name!r}: {key} is not a mapping")
            refused = sorted(str(k) for k in body if k not in _KEPT[key])
            if refused:
                raise UnsafeKubeconfig(
                    f"{shown}: {section} {name!r} sets {', '.join(refused)}: kubectl is not "
                    "run on a kubeconfig that names a command, a local file or a proxy"
                )
            return body
    raise UnsafeKubeconfig(f"{shown}: no {key} named {name!r}")


def checked_kubeconfig(text: str, shown: str) -> str:
    """The current context of ``text`` (an agent-writable kubeconfig, ``shown`` in messages) as
    a kubeconfig of that context alone: its API server (an http or https URL) with inline
    credentials only. :class:`UnsafeKubeconfig`, naming the entry and the field, for anything
    else kubectl would act on, for a second server and for a key given twice."""
    try:
        doc = yaml.load(text, Loader=_OneValueLoader)  # noqa: S506 - a SafeLoader
    except yaml.YAMLError as exc:
        raise UnsafeKubeconfig(f"{shown}: not YAML ({exc})") from None
    except UnsafeKubeconfig as exc:
        raise UnsafeKubeconfig(f"{shown}: {exc}") from None
    if not isinstance(doc, dict):
        raise UnsafeKubeconfig(f"{shown}: not a kubeconfig (a mapping)")
    if len(_servers(doc)) > 1:
        # kubectl reaches one server, the one the agent was given: a second is a way elsewhere
        # (a --cluster or --context flag a tool missed, a context switched later)
        raise UnsafeKubeconfig(f"{shown}: its clusters name more than one server")
    current = doc.get("current-context")
    context = _named(doc, "contexts", current, shown)
    cluster = _named(doc, "clusters", context.get("cluster"), shown)
    user = _named(doc, "users", context.get("user"), shown) if "user" in context else {}
    server = cluster.get("server")
    if not isinstance(server, str) or urlsplit(server).scheme not in ("http", "https"):
        raise UnsafeKubeconfig(f"{shown}: cluster {context.get('cluster')!r}: server is not a URL")
    name = "agent"
    body = {k: v for k, v in context.items() if k == "namespace"}
    return yaml.safe_dump(
        {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": name, "cluster": cluster}],
            "users": [{"name": name, "user": user}],
            "contexts": [{"name": name, "context": {"cluster": name, "user": name, **body}}],
            "current-context": name,
        },
        sort_keys=False,
    )


@contextlib.contextmanager
def kubeconfig_file(text: str) -> Iterator[Path]:
    """``text`` in a file of its own (readable by this user only), removed afterwards: what
    ``KUBECONFIG`` points at for one kubectl call. The file's folder is private to the call too:
    the caller may keep kubectl's home or cache there (never in an agent's workspace)."""
    with tempfile.TemporaryDirectory(prefix="itbench-kubeconfig-") as folder:
        path = Path(folder) / "kubeconfig"
        path.write_text(text, encoding="utf-8")
        path.chmod(0o600)
        yield path


class AgentKubeconfig:
    """The kubeconfig in an agent's workspace, as kubectl is run on it for the agent (its kubectl
    tool): the text the runner wrote, read when the tool is made, is the user's and trusted: its
    credentials are resolved by the runner (:class:`~itbench.cluster.credentials.
    RunnerCredentials`: an exec plugin run outside the sandbox, files read) and what reaches
    kubectl holds them inline, checked; any other text, which the agent wrote, only once
    checked, its exec never run. The file is read without following a link."""

    def __init__(self, path: Path, *, pin: bool = True) -> None:
        """``pin``: take the file's text now as the runner's (before the agent acts); without
        it every text is checked."""
        self.path = path
        self._written: str | None = None
        self._runner: RunnerCredentials | None = None
        if pin:
            with contextlib.suppress(OSError, UnicodeDecodeError, InputError):
                self._written = read_agent_text(path)
            if self._written is not None:
                with contextlib.suppress(InputError, yaml.YAMLError):
                    # a text kubectl could not read anyway: used as it is, kubectl says why
                    self._runner = RunnerCredentials(self._written)

    def text(self) -> str:
        """The text kubectl may run on; ``FileNotFoundError`` when the workspace has none,
        :class:`UnsafeKubeconfig` (or ``UnsafeFile``) when it is refused, :class:`InputError`
        when the runner's credentials cannot be resolved (its exec plugin failed)."""
        text = read_agent_text(self.path)
        if text != self._written:
            return checked_kubeconfig(text, self.path.name)
        if self._runner is None or not self._runner.needs_resolving:
            return text
        return checked_kubeconfig(self._runner.kubeconfig(), "the runner's kubeconfig")

    @contextlib.contextmanager
    def file(self) -> Iterator[Path]:
        """:meth:`text` in a file of its own (:func:`kubeconfig_file`)."""
        with kubeconfig_file(self.text()) as path:
            yield path
