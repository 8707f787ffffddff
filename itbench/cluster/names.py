"""Object names as the API server validates them on create, with its words (apimachinery's
``validation.IsDNS1123Subdomain`` and friends), and ``metadata.generateName``.

Which rule a kind's name follows (``ValidateObjectMeta``'s name function per kind):

- Namespace: an RFC 1123 label (63 characters at most);
- Service: an RFC 1035 label (a letter first: ``1web`` is refused);
- Role, ClusterRole, RoleBinding, ClusterRoleBinding: a path segment (``system:auth-delegator``
  is fine; ``.``, ``..``, ``/`` and ``%`` are not);
- every other kind, custom resources included: an RFC 1123 subdomain (253 characters at most).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from itbench import goregexp

_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_SUBDOMAIN = _LABEL + r"(\." + _LABEL + ")*"
_DNS1035 = "[a-z]([-a-z0-9]*[a-z0-9])?"

_PATH_SEGMENT_KINDS = frozenset(
    ("rbac.authorization.k8s.io", kind)
    for kind in ("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding")
)


def _matches(pattern: str, text: str) -> bool:
    # RE2: a name is request data, up to the body limit; Python's re backtracks on these patterns
    return goregexp.compile(f"^(?:{pattern})$").matches(text)


#: generated names: 5 characters from the API server's alphabet (no vowels, no 0/1/3)
_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
_MAX_GENERATED_PREFIX = 63 - 5


def _regex_error(message: str, pattern: str, *examples: str) -> str:
    """apimachinery's RegexError: the message, the examples and the pattern."""
    shown = "".join((" or " if i else "") + f"'{e}', " for i, e in enumerate(examples))
    return f"{message} (e.g. {shown}regex used for validation is '{pattern}')"


def _too_long(text: str, limit: int) -> list[str]:
    return [f"must be no more than {limit} characters"] if len(text) > limit else []


def dns1123_subdomain(text: str) -> list[str]:
    errors = _too_long(text, 253)
    if not _matches(_SUBDOMAIN, text):
        errors.append(
            _regex_error(
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                "characters, '-' or '.', and must start and end with an alphanumeric character",
                _SUBDOMAIN,
                "example.com",
            )
        )
    return errors


def dns1123_label(text: str) -> list[str]:
    errors = _too_long(text, 63)
    if not _matches(_LABEL, text):
        errors.append(
            _regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters "
                "or '-', and must start and end with an alphanumeric character",
                _LABEL,
                "my-name",
                "123-abc",
            )
        )
    return errors


def dns1035_label(text: str) -> list[str]:
    errors = _too_long(text, 63)
    if not _matches(_DNS1035, text):
        errors.append(
            _regex_error(
                "a DNS-1035 label must consist of lower case alphanumeric characters or '-', "
                "start with an alphabetic character, and end with an alphanumeric character",
                _DNS1035,
                "my-name",
                "abc-123",
            )
        )
    return errors


def path_segment(text: str, prefix: bool = False) -> list[str]:
    errors = [f"may not be '{text}'"] if not prefix and text in (".", "..") else []
    errors += [f"may not contain '{c}'" for c in "/%" if c in text]
    return errors


def rule_for(group: str, kind: str) -> Callable[[str], list[str]]:
    if group == "" and kind == "Namespace":
        return dns1123_label
    if group == "" and kind == "Service":
        return dns1035_label
    if (group, kind) in _PATH_SEGMENT_KINDS:
        return path_segment
    return dns1123_subdomain


def _as_prefix(text: str) -> str:
    """A generateName is validated as a name with its trailing '-' standing for a character."""
    return text[:-1] + "a" if len(text) > 1 and text.endswith("-") else text


def generate_name(meta: dict[str, Any]) -> None:
    """Give ``meta`` a name from its ``generateName`` when it has none, as the API server does
    before validating a create (the prefix cut to 58 characters, then 5 random ones)."""
    prefix = meta.get("generateName")
    if not meta.get("name") and isinstance(prefix, str) and prefix:
        suffix = "".join(random.choice(_ALPHABET) for _ in range(5))  # noqa: S311 - not a secret
        meta["name"] = prefix[:_MAX_GENERATED_PREFIX] + suffix


def _quoted(value: Any) -> str:
    """A value as Go's field.Invalid prints a string: in double quotes, escaped."""
    text = str(value)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def field_errors(group: str, kind: str, meta: dict[str, Any]) -> list[str]:
    """``metadata.name`` / ``metadata.generateName`` errors of a new object, each as the API
    server words one (``metadata.name: Invalid value: "A": a lowercase RFC 1123 ...``)."""
    rule = rule_for(group, kind)
    errors: list[str] = []
    prefix = meta.get("generateName")
    if isinstance(prefix, str) and prefix:
        problems = path_segment(prefix, True) if rule is path_segment else rule(_as_prefix(prefix))
        errors += [
            f"metadata.generateName: Invalid value: {_quoted(prefix)}: {p}" for p in problems
        ]
    name = meta.get("name")
    if not isinstance(name, str) or not name:
        errors.append("metadata.name: Required value: name or generateName is required")
        return errors
    errors += [f"metadata.name: Invalid value: {_quoted(name)}: {p}" for p in rule(name)]
    return errors
