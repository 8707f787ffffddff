"""Which Rego built-ins reach outside the evaluation: refused in an agent's policy.

An agent's ``policy.rego`` is evaluated on the host, once per environment, with that environment's
collected data as input: ``http.send`` would hand every leave-one-in environment (together: the
ground truth) to a listener, ``net.lookup_ip_addr`` leaks through DNS, ``opa.runtime()`` returns
the host's environment variables. Rego has no first-class functions, so a call names the built-in
in the source; comments and strings are skipped so a mention there costs nothing. (The evaluation
worker also runs without the host's network and environment: this refusal is what says why.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: Built-ins doing I/O (network, DNS, the host's environment and configuration).
IO_BUILTINS = ("http.send", "net.lookup_ip_addr", "opa.runtime")

_CALL = re.compile(
    r"(?<![\w.])("
    + "|".join(r"\s*\.\s*".join(map(re.escape, b.split("."))) for b in IO_BUILTINS)
    + r")(?![\w])"
)


def code_only(source: str) -> str:
    """``source`` with comments and string literals blanked (lengths and lines kept)."""
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        char = source[i]
        if char == "#":
            end = source.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif char in '"`':
            j = i + 1
            while j < n and source[j] != char:
                j += 2 if char == '"' and source[j] == "\\" else 1
            j = min(j + 1, n)
            out.append("".join(c if c == "\n" else " " for c in source[i:j]))
            i = j
        else:
            out.append(char)
            i += 1
    return "".join(out)


def offline_problem(modules: Mapping[str, str]) -> str | None:
    """Why these modules may not be evaluated offline (the first I/O built-in called, with its
    file and line), or None."""
    for path, source in modules.items():
        code = code_only(source)
        match = _CALL.search(code)
        if match:
            line = code.count("\n", 0, match.start()) + 1
            name = re.sub(r"\s+", "", match.group(1))
            return (
                f"{path}:{line}: {name} is not allowed: an evaluated policy has no network and "
                f"no access to the host (refused built-ins: {', '.join(IO_BUILTINS)})"
            )
    return None
