"""The HMAC under a suite's secret seed: the fresh diagnosis suite's tag and fault order
(``sre.agents.scenarios``) and the mitigation suite's ids and seeds (``sre.twin.suite``) are
keyed by it, so the same seed gives the same suite and no agent can compute it from public
names."""

from __future__ import annotations

import hashlib
import hmac


def seed_key(seed: int) -> bytes:
    """The seed as an HMAC key (big-endian, one byte to spare so 0 has a key)."""
    return seed.to_bytes((seed.bit_length() + 8) // 8, "big")


def keyed_hex(seed: int, text: str) -> str:
    """The HMAC-SHA256 of ``text`` under ``seed``, as hex."""
    return hmac.new(seed_key(seed), text.encode(), hashlib.sha256).hexdigest()
