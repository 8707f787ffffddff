"""cel-go's encoders extension (``ext.Encoders()``): ``base64.encode(bytes) -> string`` (standard
alphabet, padded) and ``base64.decode(string) -> bytes``, which reads padded text and, as cel-go
does after a padded read fails, unpadded text too. Like Go's decoder it skips CR and LF and
accepts non-zero bits after the last full byte."""

from __future__ import annotations

import base64
import binascii
import re

from ciso.engines.kyverno.cel.syntax import namespaced

_PADDED = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
_UNPADDED = re.compile(r"[A-Za-z0-9+/]*")


def _encode(data: bytes) -> str:
    if not isinstance(data, bytes):
        raise ValueError(f"no such overload: base64.encode({type(data).__name__})")
    return base64.b64encode(data).decode("ascii")


def _decode(text: str) -> bytes:
    if not isinstance(text, str):
        raise ValueError(f"no such overload: base64.decode({type(text).__name__})")
    stripped = text.replace("\r", "").replace("\n", "")
    if _PADDED.fullmatch(stripped):
        padded = stripped
    elif _UNPADDED.fullmatch(stripped) and len(stripped) % 4 != 1:
        padded = stripped + "=" * (-len(stripped) % 4)
    else:
        raise ValueError(f"base64.decode: illegal base64 data in {text[:64]!r}")
    try:
        return base64.b64decode(padded, validate=True)
    except binascii.Error as exc:  # not reached for text the patterns accept; kept as a guard
        raise ValueError(f"base64.decode: {exc}") from None


FUNCTIONS = {
    namespaced("base64", "encode"): _encode,
    namespaced("base64", "decode"): _decode,
}
