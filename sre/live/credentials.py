"""The user's way in to a live cluster, as the write-counting proxy replays it: the API server's
address, its CA and the user's credentials read from a flattened single-context kubeconfig (a
bearer token, basic auth, a client certificate, a ``tokenFile`` read on each request, or an
``exec`` plugin run as kubectl runs it, its token kept until it expires:
:class:`itbench.cluster.credentials.ExecPlugin`, shared with the agents' confined kubectl).
Not supported: the deprecated ``auth-provider`` entries (:func:`upstream_of` returns None)."""

from __future__ import annotations

import base64
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from itbench.cluster.credentials import ExecPlugin
from itbench.errors import InputError


@dataclass(frozen=True)
class Upstream:
    scheme: str
    host: str
    port: int
    base_path: str
    headers: tuple[tuple[str, str], ...]
    context: ssl.SSLContext | None
    plugin: ExecPlugin | None = None
    token_file: Path | None = None

    def auth_headers(self) -> list[tuple[str, str]]:
        """The user's credentials for one request: static ones, or read now (a token file an
        agent of the cloud rotates, an exec plugin's token)."""
        if self.plugin is not None:
            self.plugin.credential()
            if self.plugin.token:
                return [("Authorization", f"Bearer {self.plugin.token}")]
        if self.token_file is not None:
            try:
                token = self.token_file.read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise InputError(f"kubeconfig tokenFile {self.token_file}: {exc}") from None
            return [("Authorization", f"Bearer {token}")]
        return list(self.headers)


def _decoded(value: str) -> bytes:
    return base64.b64decode(value)


def upstream_of(kubeconfig_text: str, scratch: Path) -> Upstream | None:
    """The API server and credentials of a flattened single-context kubeconfig (``kubectl
    config view --minify --flatten``); None when its credentials come from an auth-provider the proxy
    cannot replay. ``scratch`` receives the client certificate files ssl needs on disk."""
    doc: Any = yaml.safe_load(kubeconfig_text) or {}
    cluster = ((doc.get("clusters") or [{}])[0] or {}).get("cluster") or {}
    user = ((doc.get("users") or [{}])[0] or {}).get("user") or {}
    if user.get("auth-provider"):
        return None  # a deprecated in-tree provider (gcp, azure, oidc) kubectl alone runs
    plugin = None
    if isinstance(user.get("exec"), dict):
        spec = user["exec"]
        if not spec.get("command"):
            return None
        plugin = ExecPlugin(
            str(spec["command"]),
            tuple(str(a) for a in spec.get("args") or ()),
            tuple((str(e["name"]), str(e.get("value", ""))) for e in spec.get("env") or ()),
            str(spec.get("apiVersion") or "client.authentication.k8s.io/v1"),
        )
        plugin.credential()  # now: a plugin that fails says so before the agent starts
    url = urlsplit(str(cluster.get("server", "")))
    if url.scheme not in ("http", "https") or not url.hostname:
        return None
    headers: list[tuple[str, str]] = []
    if user.get("token"):
        headers.append(("Authorization", f"Bearer {user['token']}"))
    elif user.get("username"):
        pair = f"{user['username']}:{user.get('password', '')}".encode()
        headers.append(("Authorization", "Basic " + base64.b64encode(pair).decode()))
    context = None
    if url.scheme == "https":
        context = ssl.create_default_context()
        if cluster.get("insecure-skip-tls-verify"):
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        elif cluster.get("certificate-authority-data"):
            context.load_verify_locations(
                cadata=_decoded(cluster["certificate-authority-data"]).decode()
            )
        if cluster.get("tls-server-name"):
            context.check_hostname = False  # verified by name below would need SNI plumbing
        chain: tuple[bytes, bytes] | None = None
        if user.get("client-certificate-data") and user.get("client-key-data"):
            chain = (_decoded(user["client-certificate-data"]), _decoded(user["client-key-data"]))
        elif plugin is not None and plugin.client_cert is not None:
            chain = plugin.client_cert  # PEM as the plugin gave it
        if chain is not None:
            scratch.mkdir(parents=True, exist_ok=True)
            cert, key = scratch / "client.crt", scratch / "client.key"
            key.touch(mode=0o600)
            cert.write_bytes(chain[0])
            key.write_bytes(chain[1])
            context.load_cert_chain(str(cert), str(key))
    port = url.port or (443 if url.scheme == "https" else 80)
    token_file = Path(str(user["tokenFile"])) if user.get("tokenFile") and not headers else None
    return Upstream(url.scheme, url.hostname, port, url.path.rstrip("/"), tuple(headers), context,
                    plugin, token_file)  # fmt: skip
