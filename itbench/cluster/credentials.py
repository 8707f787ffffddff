"""The runner's own kubeconfig (the user's: trusted) made fit for a confined kubectl call.

A live cluster's kubeconfig often gets its credentials by running a program (an ``exec``
credential plugin: ``aws eks get-token``, ``gke-gcloud-auth-plugin``) or from files it names (a
``tokenFile``, certificate and key files). The agents' kubectl runs confined
(:mod:`itbench.sandbox.kubectl`): an empty ``PATH``, no file but the workspace, no network but
the API server, so none of those work inside. The runner resolves them here, outside, as
kubectl would (the plugin run per the ``client.authentication.k8s.io`` ExecCredential protocol,
its credential kept until its ``expirationTimestamp`` and then asked for again), and hands the
sandbox a kubeconfig holding only the resulting token or certificate data, which
:class:`~itbench.cluster.kubeconfig.AgentKubeconfig` checks like any other.

Only a text the runner wrote takes this path (:class:`~itbench.cluster.kubeconfig.
AgentKubeconfig` pins it before the agent acts): a kubeconfig an agent wrote is checked and its
``exec`` refused, never run.
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import json
import os
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from itbench.errors import InputError

#: how long before its ``expirationTimestamp`` a credential is asked for again: a request never
#: leaves with a credential about to lapse
EXPIRY_MARGIN_S = 60.0
#: how long an exec plugin may take (a cloud CLI fetching a token)
PLUGIN_TIMEOUT_S = 60.0


@dataclass
class ExecPlugin:
    """Credentials from a kubeconfig's ``exec`` plugin (``client.authentication.k8s.io``): the
    command run as kubectl runs it, its ExecCredential's token kept until it expires."""

    command: str
    args: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    api_version: str
    token: str | None = None
    expires: float | None = None  # time.time()
    client_cert: tuple[bytes, bytes] | None = None
    #: ``spec.cluster`` of the ExecCredential asked for (``provideClusterInfo``), or None
    cluster: dict[str, Any] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def of(cls, spec: dict[str, Any]) -> ExecPlugin:
        """The plugin a kubeconfig user's ``exec`` mapping names."""
        if not spec.get("command"):
            raise InputError("kubeconfig exec plugin: no command")
        try:
            env = tuple((str(e["name"]), str(e.get("value", ""))) for e in spec.get("env") or ())
        except (KeyError, TypeError, AttributeError):
            raise InputError("kubeconfig exec plugin: env is not a list of name/value") from None
        return cls(
            str(spec["command"]),
            tuple(str(a) for a in spec.get("args") or ()),
            env,
            str(spec.get("apiVersion") or "client.authentication.k8s.io/v1"),
        )

    def credential(self) -> None:
        """Run the plugin when no credential is held or it has expired; an error names the
        plugin."""
        with self._lock:
            if self.token is not None and (self.expires is None or time.time() < self.expires):
                return
            spec: dict[str, Any] = {"interactive": False}
            if self.cluster is not None:
                spec["cluster"] = self.cluster
            info = {"apiVersion": self.api_version, "kind": "ExecCredential", "spec": spec}
            env = {**os.environ, **dict(self.env), "KUBERNETES_EXEC_INFO": json.dumps(info)}
            try:
                done = subprocess.run([self.command, *self.args], capture_output=True, text=True,
                                      env=env, stdin=subprocess.DEVNULL,
                                      timeout=PLUGIN_TIMEOUT_S)  # fmt: skip
                doc = json.loads(done.stdout) if done.returncode == 0 else None
            except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
                raise InputError(f"kubeconfig exec plugin {self.command}: {exc}") from None
            status = (doc or {}).get("status") if isinstance(doc, dict) else None
            if not isinstance(status, dict):
                reason = (done.stderr or "").strip().splitlines()[-1:] or [
                    f"exit {done.returncode}"
                ]
                raise InputError(
                    f"kubeconfig exec plugin {self.command}: no ExecCredential status ({reason[0]})"
                )
            self.client_cert = None
            if status.get("clientCertificateData") and status.get("clientKeyData"):
                self.client_cert = (str(status["clientCertificateData"]).encode(),
                                    str(status["clientKeyData"]).encode())  # fmt: skip
            self.token = str(status["token"]) if status.get("token") else ""
            stamp = status.get("expirationTimestamp")
            self.expires = None
            if isinstance(stamp, str) and stamp:
                with contextlib.suppress(ValueError):
                    moment = dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
                    self.expires = moment.timestamp() - EXPIRY_MARGIN_S


#: a user's fields that name a file, and the inline field kubectl reads instead
_USER_FILES = {"client-certificate": "client-certificate-data", "client-key": "client-key-data"}
#: a cluster's fields kubectl hands an exec plugin that asks for them (``provideClusterInfo``)
_CLUSTER_INFO = frozenset(
    {"server", "certificate-authority-data", "tls-server-name", "insecure-skip-tls-verify",
     "proxy-url", "disable-compression"}
)  # fmt: skip
#: fields that make kubectl run a program or read a file: what the runner resolves
_RESOLVED = frozenset({"exec", "auth-provider", "tokenFile", *_USER_FILES})


def _entry(doc: dict[str, Any], section: str, name: object) -> dict[str, Any]:
    for entry in doc.get(section) or []:
        if isinstance(entry, dict) and entry.get("name") == name:
            body = entry.get(section[:-1]) or {}
            if isinstance(body, dict):
                return body
    raise InputError(f"the runner's kubeconfig: no {section[:-1]} named {name!r}")


def _absolute(value: object, what: str) -> Path:
    """A file the runner's kubeconfig names: absolute only, since the copy the runner reads
    lies in the agent's workspace, where a relative path would lead to a file the agent
    wrote."""
    path = Path(str(value)).expanduser()
    if not path.is_absolute():
        raise InputError(
            f"the runner's kubeconfig names {what} {value} by a relative path: give an absolute "
            "one, or flatten it (kubectl config view --minify --flatten)"
        )
    return path


def _read(value: object, what: str) -> bytes:
    path = _absolute(value, what)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"the runner's kubeconfig: {what} {path}: {exc.strerror}") from None


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


class RunnerCredentials:
    """The runner's kubeconfig ``text`` with its current context's credentials resolved by the
    runner: one per tool, so an exec plugin's credential is kept between calls until it
    expires."""

    def __init__(self, text: str) -> None:
        self.text = text
        doc = yaml.safe_load(text)
        if not isinstance(doc, dict):
            raise InputError("the runner's kubeconfig is not a mapping")
        self._doc = doc
        context = _entry(doc, "contexts", doc.get("current-context"))
        self._context = context
        self._cluster = _entry(doc, "clusters", context.get("cluster"))
        self._user = _entry(doc, "users", context.get("user")) if "user" in context else {}
        spec = self._user.get("exec")
        self._plugin = ExecPlugin.of(spec) if isinstance(spec, dict) else None
        if self._plugin is not None and isinstance(spec, dict) and spec.get("provideClusterInfo"):
            # the fields an ExecCredential's spec.cluster shares with a kubeconfig's cluster
            self._plugin.cluster = {k: v for k, v in self._cluster.items() if k in _CLUSTER_INFO}

    @property
    def needs_resolving(self) -> bool:
        """Whether kubectl would run a program or read a file for these credentials."""
        return bool(_RESOLVED & set(self._user)) or "certificate-authority" in self._cluster

    def _user_body(self) -> dict[str, Any]:
        user = {k: v for k, v in self._user.items() if k not in _RESOLVED and k != "extensions"}
        for file_field, data_field in _USER_FILES.items():
            if file_field in self._user:
                user[data_field] = _b64(_read(self._user[file_field], file_field))
        if "tokenFile" in self._user and "token" not in user:
            # kubectl prefers an inline token; it re-reads the file, so does the runner per call
            user["token"] = _read(self._user["tokenFile"], "tokenFile").decode().strip()
        provider = self._user.get("auth-provider")
        if isinstance(provider, dict):
            config = provider.get("config") or {}
            # what kubectl sends: an oidc id-token, a legacy provider's access-token; it cannot
            # refresh them here (kubectl would run the provider's command or reach its issuer)
            token = config.get("id-token") or config.get("access-token")
            if not token:
                raise InputError(
                    f"the runner's kubeconfig: auth-provider {provider.get('name')!r} holds no "
                    "token the runner can hand on: use an exec credential plugin"
                )
            user["token"] = str(token)
        if self._plugin is not None:
            if "/" in self._plugin.command:  # kubectl reads it from the kubeconfig's folder
                _absolute(self._plugin.command, "the exec plugin")
            self._plugin.credential()
            if self._plugin.token:
                user["token"] = self._plugin.token
            if self._plugin.client_cert is not None:
                cert, key = self._plugin.client_cert  # PEM as the plugin gave it
                user["client-certificate-data"] = _b64(cert)
                user["client-key-data"] = _b64(key)
        return user

    def kubeconfig(self) -> str:
        """The text a confined call runs on: ``text`` itself when kubectl would run nothing and
        read no file for it; else its current context alone with the credentials inline (for
        the caller to check as an agent's: nothing but inline credentials may remain). The
        exec plugin runs here, when its credential is missing or expired; :class:`InputError`
        names what failed."""
        if not self.needs_resolving:
            return self.text
        cluster = dict(self._cluster)
        if "certificate-authority" in cluster:
            authority = _read(cluster.pop("certificate-authority"), "certificate-authority")
            cluster.setdefault("certificate-authority-data", _b64(authority))
        context = {k: v for k, v in self._context.items() if k in ("namespace",)}
        resolved = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": "runner", "cluster": cluster}],
            "users": [{"name": "runner", "user": self._user_body()}],
            "contexts": [
                {"name": "runner", "context": {"cluster": "runner", "user": "runner", **context}}
            ],
            "current-context": "runner",
        }
        return yaml.safe_dump(resolved, sort_keys=False)
