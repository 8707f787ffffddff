"""An HTTP server speaking enough of the Kubernetes API for real kubectl and the Python client.

Discovery (``/api``, ``/apis``, group versions), ``/version``, list/get per kind in one namespace or
across all, label and field selectors, ``Table`` responses for plain ``kubectl get``, create,
replace, patch and delete into the overlay, errors as ``Status`` objects. Loopback only; request
bodies are bounded; no route reads a file.

Every request carries the server's credential, a random token made for this server alone and
written only into the kubeconfig of the client it serves: loopback is shared by every process of
the host (another trial's agent among them), so a port is no secret. kubectl sends a kubeconfig
user's token over TLS only; over this server's plain HTTP it sends the user and password of the
server's URL (``http://itbench:<token>@127.0.0.1:PORT``, :attr:`ApiServer.kubeconfig_server`) as
Basic authorization with every request, ``--raw`` ones included. ``Authorization: Bearer <token>``
is taken too (the Python clients). A request without it, or with another, is answered 401
Unauthorized before any route sees it, as an API server answers a request it cannot authenticate.

What a client can make the server hold before it shows the token is bounded, because any process
of the host can connect: one request's line and headers together may take
:data:`MAX_HEADER_BYTES` (431 past it), a connection that has not yet shown the token has
:data:`HEADER_DEADLINE_S` to send its first request's line and headers (then it is closed), at
most :data:`MAX_UNAUTHENTICATED` such connections are held (a new one closes the oldest), and the
server holds at most :data:`MAX_CONNECTIONS` connections in all (past it a new one is answered
503 with ``Retry-After`` at once, without a thread).
"""

from __future__ import annotations

import base64
import contextlib
import hmac
import http.client
import json
import re
import secrets
import socket
import threading
import time
from collections import OrderedDict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import yaml

from itbench import jsonsafe
from itbench.cluster import apiserver_rules, decoding, disruption, openapi, protobuf, scale
from itbench.cluster import patch as patches
from itbench.cluster.extensions import OFFLINE_USER
from itbench.cluster.resources import VERBS, ResourceType
from itbench.cluster.selectors import field_selector, label_selector
from itbench.cluster.state import ClusterError, ClusterState
from itbench.cluster.tables import table
from itbench.errors import UsageError
from itbench.yamlsafe import load_all

EPHEMERAL_SUBRESOURCE = apiserver_rules.EPHEMERAL_SUBRESOURCE
#: the subresource a Pod is evicted through (``kubectl drain``)
EVICTION_SUBRESOURCE = "eviction"
MAX_BODY = 10 * 2**20
#: one request's line and headers together: kubectl's are under 2 KiB (the standard library alone
#: would take 100 header lines of 64 KiB each, 6.4 MB, before the token is checked)
MAX_HEADER_BYTES = 64 * 2**10
#: seconds a connection that has not shown the token has to send its first request's line and
#: headers (kubectl sends them at once; a slow-loris client never finishes)
HEADER_DEADLINE_S = 10.0
#: connections held before they show the token; a new one past it closes the oldest, so a flood
#: of them costs at most this many threads while the trial's own kubectl, which sends its
#: request as soon as it connects, is still served
MAX_UNAUTHENTICATED = 32
#: connections held in all. kubectl keeps one keep-alive connection per request in flight and
#: the controllers run inside the server's process (no connection at all), so a trial reaches a
#: few dozen at most, with an agent running kubectl in parallel; past it a new connection is
#: answered 503 with Retry-After, which client-go retries
MAX_CONNECTIONS = 256
#: simulated seconds one watch request waits on a reacting cluster (see ``reconcile.py``)
WATCH_WAIT_S = 120.0
#: The version kubectl's dispatcher reads to pick its client binary.
SERVER_VERSION = {
    "major": "1",
    "minor": "32",
    "gitVersion": "v1.32.0",
    "gitCommit": "itbench-offline",
    "gitTreeState": "clean",
    "buildDate": "2026-01-01T00:00:00Z",
    "goVersion": "go1.23",
    "compiler": "gc",
    "platform": "linux/amd64",
}


#: Review "resources" an API server answers on create and never stores: (group, version) ->
#: plural -> kind. The offline cluster has no RBAC, so every access review is allowed.
REVIEWS: dict[tuple[str, str], dict[str, str]] = {
    ("authorization.k8s.io", "v1"): {
        "selfsubjectaccessreviews": "SelfSubjectAccessReview",
        "selfsubjectrulesreviews": "SelfSubjectRulesReview",
    },
    ("authentication.k8s.io", "v1"): {"selfsubjectreviews": "SelfSubjectReview"},
}
#: The reason a Status carries for an HTTP code the server answers without a route's error.
_REASONS = {
    400: "BadRequest",
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    405: "MethodNotAllowed",
    408: "Timeout",
    413: "RequestEntityTooLarge",
    414: "RequestURITooLong",
    415: "UnsupportedMediaType",
    431: "RequestHeaderFieldsTooLarge",
    500: "InternalError",
}


#: What a read-only cluster lets its user do, as RBAC's ``view`` role words it.
READ_VERBS = ("get", "list", "watch")


def review_answer(kind: str, body: Any, read_only: bool = False) -> dict[str, Any]:
    """The answer to a self-review: allowed for everything, as for a cluster admin, or on a
    read-only cluster for reading only."""
    spec = body.get("spec") if isinstance(body, dict) else None
    answer: dict[str, Any] = {
        "kind": kind,
        "apiVersion": (body or {}).get("apiVersion") if isinstance(body, dict) else None,
        "metadata": {"creationTimestamp": None},
        "spec": spec or {},
    }
    if kind == "SelfSubjectAccessReview" and read_only:
        attributes = (spec or {}).get("resourceAttributes") or {}
        allowed = attributes.get("verb") in READ_VERBS or "nonResourceAttributes" in (spec or {})
        # as RBAC answers: a bare yes or no (RBAC gives no reason for a denial)
        answer["status"] = {"allowed": allowed, **({} if allowed else {"denied": True})}
    elif kind == "SelfSubjectAccessReview":
        answer["status"] = {
            "allowed": True,
            "reason": "the offline cluster has no authorization: every request is allowed",
        }
    elif kind == "SelfSubjectRulesReview":
        verbs = list(READ_VERBS) if read_only else ["*"]
        answer["status"] = {
            "resourceRules": [{"verbs": verbs, "apiGroups": ["*"], "resources": ["*"]}],
            "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}],
            "incomplete": False,
        }
    else:
        answer["status"] = {"userInfo": dict(OFFLINE_USER)}
    return answer


def status(
    code: int, reason: str, message: str, details: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success" if code < 400 else "Failure",
        "message": message,
        "reason": reason,
        "details": details or {},
        "code": code,
    }


_FIELD_ERROR = re.compile(r"^([A-Za-z_$][\w$.\[\]\-]*): (.+)$", re.DOTALL)


def _cause(message: str) -> dict[str, str]:
    """A Status cause; ``spec.x: Required value`` becomes field and message, as kubectl prints
    them (``* spec.x: Required value``)."""
    match = _FIELD_ERROR.match(message)
    if match is None:
        return {"reason": "FieldValueInvalid", "message": message, "field": ""}
    return {"reason": "FieldValueInvalid", "message": match.group(2), "field": match.group(1)}


def _subresources(t: ResourceType) -> list[dict[str, Any]]:
    """The subresources of ``t`` that the server serves, listed in discovery as the API server
    lists them (``deployments/scale`` …): kubectl reads them there before using one, e.g.
    ``kubectl scale --current-replicas`` refuses to run when discovery has no scale subresource."""
    listed = [
        {"name": f"{t.plural}/status", "namespaced": t.namespaced, "kind": t.kind,
         "verbs": ["get", "patch", "update"]},
    ]  # fmt: skip
    if (t.group, t.plural) in scale.SCALABLE:
        listed.append({"name": f"{t.plural}/scale", "namespaced": t.namespaced, "group":
                       "autoscaling", "version": "v1", "kind": "Scale",
                       "verbs": ["get", "patch", "update"]})  # fmt: skip
    if (t.group, t.plural) == ("", "pods"):
        listed.append({"name": f"pods/{EVICTION_SUBRESOURCE}", "namespaced": True,
                       "group": "policy", "version": "v1", "kind": "Eviction",
                       "verbs": ["create"]})  # fmt: skip
        listed.append({"name": f"pods/{EPHEMERAL_SUBRESOURCE}", "namespaced": True,
                       "kind": "Pod", "verbs": ["get", "patch", "update"]})  # fmt: skip
    for entry in listed:
        entry["singularName"] = ""
    return listed


#: the user name of the offline cluster's URL; the password is the token
TOKEN_USER = "itbench"


def presents_token(authorization: str, token: str) -> bool:
    """Whether an ``Authorization`` header carries ``token``: ``Bearer <token>``, or ``Basic``
    of ``itbench:<token>`` (what kubectl sends for a server URL's user and password)."""
    scheme, _, credential = authorization.strip().partition(" ")
    presented = credential.strip().encode("utf-8", "replace")
    if scheme.lower() == "basic":
        try:
            presented = base64.b64decode(presented, validate=True)
        except ValueError:
            return False
        expected = f"{TOKEN_USER}:{token}".encode()
    elif scheme.lower() == "bearer":
        expected = token.encode()
    else:
        return False
    # compared in constant time: how long a refusal takes tells nothing of the token's prefix
    return hmac.compare_digest(presented, expected)


class Route:
    """A parsed resource path: /api/v1/... or /apis/<group>/<version>/..."""

    def __init__(
        self,
        group: str,
        version: str,
        namespace: str | None,
        plural: str,
        name: str | None,
        sub: str | None,
    ) -> None:
        self.group, self.version, self.namespace, self.plural, self.name, self.sub = (
            group,
            version,
            namespace,
            plural,
            name,
            sub,
        )


def parse_route(path: str) -> Route | None:
    parts = [p for p in path.split("/") if p]
    if len(parts) >= 2 and parts[0] == "api":
        group, version, rest = "", parts[1], parts[2:]
    elif len(parts) >= 3 and parts[0] == "apis":
        group, version, rest = parts[1], parts[2], parts[3:]
    else:
        return None
    if not rest:
        return None
    namespace = None
    if rest[0] == "namespaces" and len(rest) >= 3:
        namespace, rest = rest[1], rest[2:]
    plural = rest[0]
    name = rest[1] if len(rest) > 1 else None
    sub = rest[2] if len(rest) > 2 else None
    return Route(group, version, namespace, plural, name, sub)


def group_list(state: ClusterState) -> dict[str, Any]:
    """``/apis``: every group the cluster serves, with the review APIs."""
    groups = []
    for group, versions in state.registry.groups().items():
        entries = [{"groupVersion": f"{group}/{v}", "version": v} for v in versions]
        groups.append({"name": group, "versions": entries, "preferredVersion": entries[0]})
    for group, version in REVIEWS:
        entry = {"groupVersion": f"{group}/{version}", "version": version}
        groups.append({"name": group, "versions": [entry], "preferredVersion": entry})
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


def resource_list(state: ClusterState, group: str, version: str) -> dict[str, Any]:
    """``/api/v1`` (group ``""``) or ``/apis/<group>/<version>``."""
    resources = []
    for t in state.registry.in_group_version(group, version):
        entry: dict[str, Any] = {
            "name": t.plural,
            "singularName": t.singular,
            "namespaced": t.namespaced,
            "kind": t.kind,
            "verbs": list(VERBS),
        }
        if t.short_names:
            entry["shortNames"] = list(t.short_names)
        if t.categories:
            entry["categories"] = list(t.categories)
        resources.append(entry)
        resources.extend(_subresources(t))
    for plural, kind in REVIEWS.get((group, version), {}).items():
        resources.append(
            {
                "name": plural,
                "singularName": kind.lower(),
                "namespaced": False,
                "kind": kind,
                "verbs": ["create"],
            }
        )
    return {
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": f"{group}/{version}" if group else version,
        "resources": resources,
    }


class ApiHandler(BaseHTTPRequestHandler):
    server: ApiServer
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; with Nagle on, every keep-alive request after
    # the first waits ~40 ms for the client's delayed ACK (kubectl listing 7 kinds: 0.36 s).
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        if self.server.verbose:
            super().log_message(format, *args)

    # -- plumbing -----------------------------------------------------------------------------
    #: a socket timeout until the token is shown (see :meth:`ApiServer.service_actions` for the
    #: deadline over the whole header block)
    timeout = HEADER_DEADLINE_S

    def parse_request(self) -> bool:
        """The request line and headers, within :data:`MAX_HEADER_BYTES`, then the credential:
        a request that does not carry this server's token is answered 401 before any route sees
        it (its body unread)."""
        rfile = self.rfile
        budget = _HeaderBudget(rfile, MAX_HEADER_BYTES - len(getattr(self, "raw_requestline", b"")))
        self.rfile = budget  # type: ignore[assignment]  # parse_headers only calls readline
        try:
            parsed = super().parse_request()
        finally:
            self.rfile = rfile
        if not parsed:
            return False
        if presents_token(self.headers.get("Authorization") or "", self.server.token):
            self.server.authenticated(self.connection)
            return True
        self.send_error(401, "Unauthorized")
        return False

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Every error the HTTP layer answers by itself (an unknown method, a malformed request
        line, oversized headers) as a Kubernetes ``Status``, never the standard library's HTML
        page: kubectl and the clients parse Status objects."""
        if code == 501:  # "Unsupported method": the API server says 405 for a verb it lacks
            code = 405
            message = f"the server does not allow the method {self.command or '?'}"
        if code == 431:
            message = f"request headers exceed {MAX_HEADER_BYTES} bytes"
        reason = _REASONS.get(code, "BadRequest" if code < 500 else "InternalError")
        body = json.dumps(status(code, reason, message or reason)).encode()
        self.close_connection = True
        if getattr(self, "request_version", "HTTP/0.9") == "HTTP/0.9":
            # an unparsable request line leaves the version at 0.9, whose responses carry no
            # status line or headers; answer in HTTP/1.1, which every client here speaks
            self.request_version = "HTTP/1.1"
        try:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except OSError:
            pass  # the client has gone: nothing to tell it

    def _unexpected(self, exc: Exception) -> None:
        # a bug in a route must answer a Status (and keep serving), not drop the connection
        self._send(
            500,
            status(500, "InternalError", f"internal error: {type(exc).__name__}: {exc}"),
        )

    def _send(self, code: int, body: Any, content_type: str = "application/json") -> None:
        data = json.dumps(body).encode() if not isinstance(body, bytes) else body
        self.send_response(code)
        for warning in getattr(self, "_warnings", ()):
            # RFC 7234 warn-code 299, as the API server sends them (kubectl prints each)
            self.send_header("Warning", '299 - "' + warning.replace('"', '\\"') + '"')
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _error(self, exc: ClusterError, route: Route | None = None) -> None:
        details: dict[str, Any] = (
            {"name": route.name, "group": route.group, "kind": route.plural}
            if route and route.name
            else {}
        )
        details.update(exc.details)
        if exc.causes:
            details["causes"] = [_cause(cause) for cause in exc.causes]
        self._send(exc.code, status(exc.code, exc.reason, str(exc), details))

    def _chunked_body(self) -> bytes:
        """A body sent with ``Transfer-Encoding: chunked`` (``kubectl create --raw -f``
        streams its file so): chunks up to the empty one, trailers skipped."""
        body = b""
        while True:
            line = self.rfile.readline(1024).split(b";")[0].strip()
            try:
                size = int(line, 16)
            except ValueError:
                self.close_connection = True
                raise ClusterError(400, "BadRequest", f"bad chunk size {line[:20]!r}") from None
            if size == 0:
                while self.rfile.readline(1024).strip():
                    pass
                return body
            if len(body) + size > MAX_BODY:
                self.close_connection = True
                raise ClusterError(
                    413, "RequestEntityTooLarge", f"request body exceeds {MAX_BODY} bytes"
                )
            body += self.rfile.read(size)
            self.rfile.readline(1024)  # the CRLF closing the chunk

    def _raw_body(self) -> bytes:
        if (self.headers.get("Transfer-Encoding") or "").strip().lower() == "chunked":
            return self._chunked_body()
        declared = (self.headers.get("Content-Length") or "0").strip()
        if not declared.isdigit():  # negative, or not a number: the body cannot be framed
            self.close_connection = True  # what follows on the connection is not a request
            raise ClusterError(400, "BadRequest", f'bad Content-Length "{declared}"')
        length = int(declared)
        if length > MAX_BODY:
            raise ClusterError(
                413, "RequestEntityTooLarge", f"request body of {length} bytes exceeds {MAX_BODY}"
            )
        return self.rfile.read(length) if length else b""

    def _body(self) -> Any:
        raw = self._raw_body()
        if "protobuf" in (self.headers.get("Content-Type") or ""):
            # kubectl's generator commands (create namespace|deployment|...) send typed objects
            # as Kubernetes protobuf; decoded to the JSON object they stand for
            return protobuf.decode_body(raw)
        try:
            if "yaml" in (self.headers.get("Content-Type") or ""):
                # libyaml with the alias and nesting checks every other reader has
                documents = load_all(raw.decode("utf-8"))
                if len(documents) > 1:
                    raise ClusterError(400, "BadRequest", "the request body holds several objects")
                return documents[0] if documents else None
            # bounded nesting: json recurses per level (RecursionError was a 500)
            return jsonsafe.loads(raw or b"null", "request body")
        except (ValueError, yaml.YAMLError) as exc:  # JSONDecodeError, TooDeep, YAMLError
            raise ClusterError(
                400, "BadRequest", f"request body is not valid JSON or YAML: {exc}"
            ) from exc

    @property
    def _query(self) -> dict[str, str]:
        return {k: v[-1] for k, v in parse_qs(urlsplit(self.path).query).items()}

    # -- verbs --------------------------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        path = urlsplit(self.path).path.rstrip("/") or "/"
        try:
            if path in ("/healthz", "/livez", "/readyz"):
                self._send(200, b"ok", "text/plain")
            elif path == "/version":
                self._send(200, SERVER_VERSION)
            elif path == "/api":
                self._send(
                    200,
                    {
                        "kind": "APIVersions",
                        "versions": ["v1"],
                        "serverAddressByClientCIDRs": [
                            {"clientCIDR": "0.0.0.0/0", "serverAddress": self.server.address}
                        ],
                    },
                )
            elif path == "/apis":
                self._send(200, group_list(self.server.state))
            elif path == "/api/v1":
                self._send(200, resource_list(self.server.state, "", "v1"))
            elif path.startswith("/apis/") and path.count("/") == 2:
                group = path.split("/")[2]
                match = [g for g in group_list(self.server.state)["groups"] if g["name"] == group]
                if not match:
                    raise ClusterError(
                        404,
                        "NotFound",
                        f"the server could not find the requested resource (group {group})",
                    )
                self._send(200, {"kind": "APIGroup", "apiVersion": "v1", **match[0]})
            elif path.startswith("/apis/") and path.count("/") == 3:
                _, _, group, version = path.split("/")
                served = self.server.state.registry.groups().get(group, [])
                if version not in served and (group, version) not in REVIEWS:
                    raise ClusterError(
                        404,
                        "NotFound",
                        f"the server could not find the requested resource ({group}/{version})",
                    )
                self._send(200, resource_list(self.server.state, group, version))
            elif path == "/openapi/v2":
                if "protobuf" in (self.headers.get("Accept") or ""):
                    self._send(200, openapi.v2_protobuf(), "application/octet-stream")
                else:
                    self._send(200, openapi.v2_document(self.server.state.registry))
            elif path == "/openapi/v3":
                self._send(200, openapi.v3_index(self.server.state.registry))
            elif path.startswith("/openapi/v3/"):
                parts = path.split("/")[3:]
                group, version = ("", parts[1]) if parts[0] == "api" else (parts[1], parts[2])
                document = openapi.v3_document(self.server.state.registry, group, version)
                if document is None:
                    raise ClusterError(404, "NotFound", f"no OpenAPI document for {path}")
                self._send(200, document)
            else:
                self._read(path)
        except ClusterError as exc:
            self._error(exc, parse_route(path))
        except UsageError as exc:
            self._error(ClusterError(400, "BadRequest", str(exc)))
        except Exception as exc:  # noqa: BLE001 - answered as a Status, see _unexpected
            self._unexpected(exc)

    def do_POST(self) -> None:
        self._write("create")

    def do_PUT(self) -> None:
        self._write("replace")

    def do_PATCH(self) -> None:
        self._write("patch")

    def do_DELETE(self) -> None:
        self._write("delete")

    def _type(self, route: Route) -> ResourceType:
        rtype = self.server.state.registry.by_plural(route.group, route.plural)
        if rtype is None or route.version not in rtype.versions():
            gv = f"{route.group}/{route.version}" if route.group else route.version
            raise ClusterError(
                404,
                "NotFound",
                f"the server could not find the requested resource ({route.plural} in {gv})",
            )
        return rtype

    # -- reads --------------------------------------------------------------------------------
    def _read(self, path: str) -> None:
        route = parse_route(path)
        if route is None:
            raise ClusterError(404, "NotFound", "the server could not find the requested resource")
        rtype = self._type(route)
        state = self.server.state
        if route.sub == "scale" and route.name is not None:
            self._send(200, scale.scale_of(self._scalable(rtype, route)))
            return
        served = ("status", EPHEMERAL_SUBRESOURCE) if rtype.plural == "pods" else ("status",)
        if route.sub is not None and route.sub not in served:
            raise ClusterError(404, "NotFound", f"subresource {route.sub!r} is not served offline")
        query = self._query
        as_table = "as=Table" in (self.headers.get("Accept") or "")
        if route.name is not None:
            obj = state.get(rtype, route.namespace or "", route.name)
            if as_table:
                self._send(
                    200,
                    table(
                        state.catalog.columns_of(rtype),
                        [obj],
                        state.resource_version,
                        query.get("includeObject", "Metadata"),
                    ),
                    "application/json",
                )
            else:
                self._send(200, obj)
            return
        labels = label_selector(query.get("labelSelector"))
        fields = field_selector(query.get("fieldSelector"))
        if query.get("watch") in ("true", "1"):
            # a client watches to wait for a change: on a reacting cluster waiting lets simulated
            # time pass (pods start, deadlines expire), so ``kubectl rollout status`` ends
            state.let_time_pass(WATCH_WAIT_S)
        items = [
            o
            for o in state.list(rtype, route.namespace if rtype.namespaced else None)
            if labels(o["metadata"].get("labels") or {}) and fields(o)
        ]
        if query.get("watch") in ("true", "1"):
            self._watch(rtype, items, query, as_table)
            return
        if as_table:
            self._send(
                200,
                table(
                    state.catalog.columns_of(rtype),
                    items,
                    state.resource_version,
                    query.get("includeObject", "Metadata"),
                ),
            )
            return
        self._send(
            200,
            {
                "kind": f"{rtype.kind}List",
                "apiVersion": rtype.group_version,
                "metadata": {"resourceVersion": state.resource_version},
                "items": items,
            },
        )

    def _watch(
        self,
        rtype: ResourceType,
        items: list[dict[str, Any]],
        query: dict[str, str],
        as_table: bool,
    ) -> None:
        """No live watch offline: the objects newer than the ``resourceVersion`` the client
        listed at (all of them without one) as ADDED events, then the stream ends. So
        ``kubectl get -w`` prints its list once, under one header, and returns."""
        since = query.get("resourceVersion") or "0"
        try:
            floor = int(since)
        except ValueError:
            raise ClusterError(
                400, "BadRequest", f"resourceVersion {since!r} is not a number"
            ) from None
        state = self.server.state
        fresh = [o for o in items if _version_of(o) > floor]
        events = []
        for obj in fresh:
            shown: Any = obj
            if as_table:
                shown = table(
                    state.catalog.columns_of(rtype),
                    [obj],
                    state.resource_version,
                    query.get("includeObject", "Object"),
                )
            events.append(json.dumps({"type": "ADDED", "object": shown}).encode() + b"\n")
        self._send(200, b"".join(events), "application/json")

    # -- writes -------------------------------------------------------------------------------
    def _write(self, verb: str) -> None:
        path = urlsplit(self.path).path.rstrip("/")
        route = parse_route(path)
        self._warnings: list[str] = []
        try:
            if route is None:
                raise ClusterError(
                    404, "NotFound", "the server could not find the requested resource"
                )
            if self._review(route, verb):
                return
            rtype = self._type(route)
            if self.server.read_only:
                self._body()  # read, so the connection stays in sync
                raise _forbidden(verb, rtype, route)
            state = self.server.state
            namespace = route.namespace if rtype.namespaced else None
            if rtype.namespaced and namespace is None and verb != "delete":
                raise ClusterError(
                    400,
                    "BadRequest",
                    f"{rtype.plural} are namespaced: use /namespaces/<ns>/{rtype.plural}",
                )
            if verb == "delete":
                self._body()  # DeleteOptions (propagationPolicy ...): read so the connection stays in sync
                if route.name is None:
                    raise ClusterError(
                        405, "MethodNotAllowed", "collection delete is not supported offline"
                    )
                if self._dry_run:
                    self._send(200, state.get(rtype, namespace or "", route.name))
                else:
                    self._send(200, state.delete(rtype, namespace or "", route.name))
                return
            body = self._body()
            if route.sub == "scale" and route.name is not None and verb in ("replace", "patch"):
                current = self._scalable(rtype, route)
                content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip()
                updated = scale.scaled(current, body, content_type if verb == "patch" else "")
                stored = state.replace(updated, namespace, dry_run=self._dry_run)
                self._send(200, scale.scale_of(stored))
                return
            if route.sub == EPHEMERAL_SUBRESOURCE and route.name is not None:
                self._ephemeral(rtype, route, verb, namespace, body)
                return
            if route.sub == EVICTION_SUBRESOURCE and route.name is not None:
                self._evict(rtype, route, verb, namespace, body)
                return
            if route.sub is not None and route.sub != "status":
                raise ClusterError(
                    404, "NotFound", f"subresource {route.sub!r} is not served offline"
                )
            if isinstance(body, dict) and self.headers.get("Content-Type", "").split(";")[
                0
            ] not in (patches.JSON_PATCH,):
                self._warnings = decoding.check(
                    body,
                    f"{rtype.group}/{rtype.version}" if rtype.group else rtype.version,
                    rtype.kind,
                    self._query.get("fieldValidation", "Warn"),
                )
            if verb == "create":
                if not isinstance(body, dict):
                    raise ClusterError(400, "BadRequest", "the request body must be an object")
                self._check_kind(rtype, body, named=False)  # generateName; create checks names
                self._send(201, state.create(body, namespace, dry_run=self._dry_run))
            elif verb == "replace":
                self._check_kind(rtype, body)
                self._send(
                    200,
                    state.replace(body, namespace, dry_run=self._dry_run, subresource=route.sub),
                )
            else:
                self._patch(rtype, route, namespace, body)
        except ClusterError as exc:
            self._error(exc, route)
        except Exception as exc:  # noqa: BLE001 - answered as a Status, see _unexpected
            self._unexpected(exc)

    def _evict(
        self, rtype: ResourceType, route: Route, verb: str, namespace: str | None, body: Any
    ) -> None:
        """POST ``pods/NAME/eviction`` (what ``kubectl drain`` sends): an ``Eviction`` naming
        the Pod deletes it, unless the PodDisruptionBudget guarding it allows no disruption:
        then 429 and Kubernetes' message, as the API server answers (``disruption.py``)."""
        if (rtype.group, rtype.plural) != ("", "pods") or verb != "create":
            raise ClusterError(
                404, "NotFound", f"{rtype.plural} have no {EVICTION_SUBRESOURCE} subresource"
            )
        meta = body.get("metadata") if isinstance(body, dict) else None
        if not isinstance(body, dict) or body.get("kind") != "Eviction":
            raise ClusterError(400, "BadRequest", "the request body must be an Eviction")
        if isinstance(meta, dict) and meta.get("name") not in (None, route.name):
            raise ClusterError(
                400, "BadRequest", "name in URL does not match name in Eviction object"
            )
        state = self.server.state
        with state.lock:  # the budget's status and the delete see the same cluster
            pod = state.get(rtype, namespace or "", route.name or "")  # 404 for a missing Pod
            budgets = state.registry.by_plural(disruption.GROUP, disruption.PLURAL)
            try:
                disruption.check_eviction(
                    pod, state.list(budgets, namespace) if budgets is not None else ()
                )
            except disruption.Refusal as refusal:
                raise ClusterError(
                    refusal.code, refusal.reason, str(refusal),
                    details={"causes": [{"reason": "DisruptionBudget", "message": refusal.cause}]}
                    if refusal.cause else None,
                ) from None  # fmt: skip
            if not self._dry_run:
                state.delete(rtype, namespace or "", route.name or "")
        self._send(201, {"kind": "Status", "apiVersion": "v1", "metadata": {},
                         "status": "Success", "code": 201})  # fmt: skip

    def _ephemeral(
        self, rtype: ResourceType, route: Route, verb: str, namespace: str | None, body: Any
    ) -> None:
        """PUT or PATCH ``pods/NAME/ephemeralcontainers``: the one way to add ephemeral
        containers to a Pod (create refuses them); the answer is the Pod."""
        if (rtype.group, rtype.plural) != ("", "pods") or verb not in ("replace", "patch"):
            raise ClusterError(
                404, "NotFound", f"{rtype.plural} have no {EPHEMERAL_SUBRESOURCE} subresource"
            )
        current = self.server.state.get(rtype, namespace or "", route.name or "")
        if verb == "replace":
            if not isinstance(body, dict):
                raise ClusterError(400, "BadRequest", "the request body must be a Pod")
            self._check_kind(rtype, body)
            written = body
        else:
            written = self._patched(current, body)
        updated = apiserver_rules.with_ephemeral_containers(current, written)
        self._send(
            200,
            self.server.state.replace(
                updated, namespace, dry_run=self._dry_run, subresource=EPHEMERAL_SUBRESOURCE
            ),
        )

    def _scalable(self, rtype: ResourceType, route: Route) -> dict[str, Any]:
        """The object whose ``scale`` subresource the route names (404 for kinds without one)."""
        if (rtype.group, rtype.plural) not in scale.SCALABLE:
            raise ClusterError(404, "NotFound", f"{rtype.plural} have no scale subresource")
        return self.server.state.get(rtype, route.namespace or "", route.name or "")

    def _review(self, route: Route, verb: str) -> bool:
        """Answer a self-review (``kubectl auth can-i``, ``auth whoami``); False if the route
        is not one."""
        kind = REVIEWS.get((route.group, route.version), {}).get(route.plural)
        if kind is None:
            return False
        if verb != "create" or route.name is not None:
            self._body()
            raise ClusterError(
                405, "MethodNotAllowed", f"{route.plural} can only be created (it is a review)"
            )
        # kubectl's typed client sends reviews as protobuf, which _body decodes: the answer
        # echoes the question's spec, as the API server's does
        self._send(201, review_answer(kind, self._body(), self.server.read_only))
        return True

    def _check_kind(self, rtype: ResourceType, body: dict[str, Any], named: bool = True) -> None:
        if body.get("kind") != rtype.kind:
            raise ClusterError(
                400,
                "BadRequest",
                f"the body's kind {body.get('kind')!r} does not match {rtype.plural}",
            )
        if not isinstance(body.get("metadata"), dict):
            raise ClusterError(422, "Invalid", f"{rtype.kind}: metadata is required")
        if named and not body["metadata"].get("name"):
            raise ClusterError(422, "Invalid", f"{rtype.kind}: metadata.name is required")

    def _patch(self, rtype: ResourceType, route: Route, namespace: str | None, body: Any) -> None:
        state = self.server.state
        if route.name is None:
            raise ClusterError(405, "MethodNotAllowed", "a patch needs an object name")
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        try:
            current = state.get(rtype, namespace or "", route.name)
        except ClusterError:
            if kind == patches.APPLY and isinstance(body, dict):  # server-side apply creates
                self._send(201, state.create(body, namespace, dry_run=self._dry_run))
                return
            raise
        updated = self._patched(current, body)
        self._send(200, state.replace(updated, namespace, dry_run=self._dry_run))

    def _patched(self, current: dict[str, Any], body: Any) -> dict[str, Any]:
        """``current`` with the request's patch applied, in the patch type it names."""
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        if kind == patches.JSON_PATCH:
            patched = patches.json_patch(current, body)
        elif kind in (patches.MERGE, patches.STRATEGIC, patches.APPLY):
            patched = patches.merge_patch(current, body, strategic=kind != patches.MERGE)
        else:
            raise ClusterError(415, "UnsupportedMediaType", f"patch type {kind!r} is not supported")
        if not isinstance(patched, dict):  # a JSON patch may replace the root ("path": "")
            raise ClusterError(422, "Invalid", "the patched object is not an object")
        return patched

    @property
    def _dry_run(self) -> bool:
        # ``kubectl apply --dry-run=server``: validated and answered like a write, stored nowhere.
        return self._query.get("dryRun") == "All"


def _version_of(obj: dict[str, Any]) -> int:
    try:
        return int((obj.get("metadata") or {}).get("resourceVersion") or 0)
    except ValueError:
        return 0


#: the verb RBAC names in its denial, by the verb of a write (a PUT is an ``update``)
_RBAC_VERB = {"create": "create", "replace": "update", "patch": "patch", "delete": "delete"}


def _forbidden(verb: str, rtype: ResourceType, route: Route) -> ClusterError:
    """A write on a read-only cluster, refused in the words of the API server's RBAC denial."""
    plural = f"{rtype.plural}/{route.sub}" if route.sub else rtype.plural
    # the subject is the group-qualified resource (``horizontalpodautoscalers.autoscaling``)
    resource = f"{rtype.plural}.{rtype.group}" if rtype.group else rtype.plural
    subject = f'{resource} "{route.name}"' if route.name else resource
    where = f' in the namespace "{route.namespace}"' if route.namespace else " at the cluster scope"
    return ClusterError(
        403,
        "Forbidden",
        f'{subject} is forbidden: User "{OFFLINE_USER["username"]}" cannot '
        f'{_RBAC_VERB[verb]} resource "{plural}" in API group "{rtype.group}"{where}',
    )


class _HeaderBudget:
    """The request's stream while its headers are read: ``readline`` past ``left`` bytes in all
    raises the error the standard library answers 431 for."""

    def __init__(self, rfile: Any, left: int) -> None:
        self._rfile, self._left = rfile, left

    def readline(self, limit: int = -1) -> bytes:
        cap = self._left + 1 if limit < 0 else min(limit, self._left + 1)
        line: bytes = self._rfile.readline(max(cap, 1))
        self._left -= len(line)
        if self._left < 0:
            raise http.client.LineTooLong("header block")
        return line


_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
    b"Connection: close\r\nContent-Length: %d\r\n\r\n%s"
)


class ApiServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self,
        state: ClusterState,
        port: int = 0,
        host: str = "127.0.0.1",
        verbose: bool = False,
        read_only: bool = False,
        token: str | None = None,
    ) -> None:
        """``token``: the credential every request carries (a new random one if not given;
        :attr:`kubeconfig_server` is the address a client's kubeconfig names)."""
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise UsageError(f"the offline API server binds loopback only, not {host!r}")
        self.state = state
        self.verbose = verbose
        #: every write answered 403 Forbidden, as RBAC answers a user bound to a read-only role
        self.read_only = read_only
        #: the credential of this server's clients (never logged, never in an answer)
        self.token = token if token else secrets.token_urlsafe(32)
        self.header_deadline_s = HEADER_DEADLINE_S
        self._held = threading.Lock()
        #: every connection with a thread; those that have not shown the token, oldest first,
        #: with the time their header deadline passes
        self._connections: set[socket.socket] = set()
        self._unauthenticated: OrderedDict[socket.socket, float] = OrderedDict()
        super().__init__((host, port), ApiHandler)

    # -- connections ----------------------------------------------------------------------------
    def process_request(self, request: Any, client_address: Any) -> None:
        with self._held:
            busy = len(self._connections) >= MAX_CONNECTIONS
            if not busy:
                self._connections.add(request)
                self._unauthenticated[request] = time.monotonic() + self.header_deadline_s
                while len(self._unauthenticated) > MAX_UNAUTHENTICATED:
                    _close(self._unauthenticated.popitem(last=False)[0])
        if busy:
            body = json.dumps(
                status(503, "ServiceUnavailable", "too many connections, retry later")
            ).encode()
            with contextlib.suppress(OSError):  # the client has gone
                request.sendall(_BUSY % (len(body), body))
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._held:
                self._connections.discard(request)
                self._unauthenticated.pop(request, None)

    def authenticated(self, connection: socket.socket) -> None:
        """``connection`` showed the token: no longer subject to the header deadline."""
        with self._held:
            if self._unauthenticated.pop(connection, None) is not None:
                connection.settimeout(None)

    def service_actions(self) -> None:
        # called by serve_forever between polls: close what has missed its header deadline
        now = time.monotonic()
        with self._held:
            late = [c for c, due in self._unauthenticated.items() if due <= now]
            for connection in late:
                del self._unauthenticated[connection]
                _close(connection)

    # -- addresses ------------------------------------------------------------------------------

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The server's address, without its credential."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def kubeconfig_server(self) -> str:
        """The address a client's kubeconfig names: :attr:`url` with the credential as its
        user and password, which kubectl sends with every request (see the module's text)."""
        return f"http://{TOKEN_USER}:{self.token}@127.0.0.1:{self.port}"

    def serve_in_thread(self) -> threading.Thread:
        # shutdown() waits for the loop's next poll: at the default 0.5 s every trial's cluster
        # took half a second to stop
        thread = threading.Thread(
            target=self.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="itbench-cluster",
            daemon=True,
        )
        thread.start()
        return thread


def _close(connection: socket.socket) -> None:
    """Ends a connection another thread is reading: its read returns at once and the thread ends."""
    with contextlib.suppress(OSError):  # already gone
        connection.shutdown(socket.SHUT_RDWR)
