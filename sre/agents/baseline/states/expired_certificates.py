"""A TLS certificate that expired: nothing changed and no pod fails, but every handshake with
the server is refused. The server's proxy logs the alert it sends (``CERTIFICATE_EXPIRED``) and
its clients log their refusal (``certificate verify failed: certificate has expired``); the
certificate lives in the Secret the server mounts, which ITBench names. So an application whose
log lines say a certificate expired and that reads a Secret is the server, and that Secret is a
failing state (its clients' blame counts for it: they are what fails)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

from sre.agents.baseline.evidence import INFRA_NAMESPACES, FailingState
from sre.snapshot import SourceKind, open_source

#: how a TLS library, a proxy or a client says the peer's certificate is past its date
EXPIRED = re.compile(r"certificate (?:has )?expired|CERTIFICATE_EXPIRED|cert(?:ificate)? is expired",
                     re.IGNORECASE)  # fmt: skip
#: a Secret named for what it holds, when the server reads several
TLS_NAME = re.compile(r"tls|cert", re.IGNORECASE)
#: the server says it itself: as telling as a container's own failure
STRENGTH = 3.0


def reporting(logs: Path) -> Counter[str]:
    """application -> how many of its log lines say a certificate expired."""
    src = open_source(logs, SourceKind.LOGS)
    rows = src.con.cursor().execute(
        "SELECT service_name, left(body, 1000) FROM data WHERE service_name IS NOT NULL"
    )
    return Counter(str(app) for app, body in rows.fetchall() if body and EXPIRED.search(body))


def find(reports: Mapping[str, int], users: Mapping[str, frozenset[str]]) -> list[FailingState]:
    """A state on the Secret each reporting application reads (``users``: namespace/Kind/name ->
    the workloads that use it); with several, the ones named for TLS."""
    out = []
    for entity, readers in sorted(users.items()):
        namespace, kind, name = (entity.split("/", 2) + ["", ""])[:3]
        if kind != "Secret" or namespace in INFRA_NAMESPACES:
            continue
        servers = sorted(set(readers) & set(reports))
        if not servers:
            continue
        held = _secrets_of(servers[0], users)
        if len(held) > 1 and not TLS_NAME.search(name):
            continue
        clients = [a for a, _ in Counter(reports).most_common() if a not in readers]
        what = (f"log lines of {', '.join(servers)} ({reports[servers[0]]}) say the certificate "
                f"expired; it reads Secret {name}")  # fmt: skip
        out.append(FailingState(namespace, kind, name, servers[0], what, STRENGTH,
                                reaches=_first(clients)))  # fmt: skip
    return out


def _secrets_of(app: str, users: Mapping[str, frozenset[str]]) -> list[str]:
    return [e for e, readers in users.items() if "/Secret/" in e and app in readers]


def _first(names: Iterable[str]) -> str:
    return next(iter(names), "")
