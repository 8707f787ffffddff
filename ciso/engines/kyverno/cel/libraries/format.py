"""Kubernetes' format library: ``format.<name>()`` for the named formats, ``format.named(name)``
(an optional format; empty for an unknown name) and ``<format>.validate(string)``: an empty
optional when the string is valid, else the optional list of Kubernetes' error messages (those of
apimachinery's name validators, word for word, so policies can match on them).

A format crosses the evaluator as ``{"@format": "<name>"}``."""

from __future__ import annotations

import base64
import binascii
import calendar
import re
from collections.abc import Callable
from typing import Any

import cel

from ciso.engines.kyverno.cel.libraries.url import parse_request_uri
from ciso.engines.kyverno.cel.syntax import namespaced

KEY = "@format"

_DNS1123_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN = _DNS1123_LABEL + "(\\." + _DNS1123_LABEL + ")*"
_DNS1035_LABEL = "[a-z]([-a-z0-9]*[a-z0-9])?"
_QUALIFIED_NAME = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_VALUE = "(" + _QUALIFIED_NAME + ")?"
# go-openapi strfmt's UUIDPattern and DateTimePattern ('$' is Go's: the end of the text)
_UUID = re.compile(
    r"(?i)(^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\Z)|(^[0-9a-f]{32}\Z)"
)
_TIME = re.compile(r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))\Z")
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")

_LABEL_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character"
)
_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character"
)
_DNS1035_MSG = (
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character"
)
_QUALIFIED_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character"
)
_LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character"
)


def _regex_error(message: str, pattern: str, *examples: str) -> str:
    """apimachinery's RegexError, spacing included ("'my-name',  or '123-abc'")."""
    if not examples:
        return f"{message} (regex used for validation is '{pattern}')"
    shown = "".join((" or " if i else "") + f"'{e}', " for i, e in enumerate(examples))
    return f"{message} (e.g. {shown}regex used for validation is '{pattern}')"


def _max_len(n: int) -> str:
    return f"must be no more than {n} characters"


def _full(pattern: str, text: str) -> bool:
    return re.fullmatch(pattern, text) is not None


def _dns1123_label(text: str) -> list[str]:
    errors = [_max_len(63)] if len(text) > 63 else []
    if not _full(_DNS1123_LABEL, text):
        if _full(_DNS1123_SUBDOMAIN, text):  # valid but for the dots
            errors.append("must not contain dots")
        else:
            errors.append(_regex_error(_LABEL_MSG, _DNS1123_LABEL, "my-name", "123-abc"))
    return errors


def _dns1123_subdomain(text: str) -> list[str]:
    errors = [_max_len(253)] if len(text) > 253 else []
    if not _full(_DNS1123_SUBDOMAIN, text):
        errors.append(_regex_error(_SUBDOMAIN_MSG, _DNS1123_SUBDOMAIN, "example.com"))
    return errors


def _dns1035_label(text: str) -> list[str]:
    errors = [_max_len(63)] if len(text) > 63 else []
    if not _full(_DNS1035_LABEL, text):
        errors.append(_regex_error(_DNS1035_MSG, _DNS1035_LABEL, "my-name", "abc-123"))
    return errors


def _prefix(validate: Callable[[str], list[str]]) -> Callable[[str], list[str]]:
    """apimachinery's NameIs…(name, prefix=true): a generateName prefix may end in '-'; it
    masks a trailing dash (as it does: the last two characters become 'a') before validating."""

    def check(text: str) -> list[str]:
        if len(text) > 1 and text.endswith("-"):
            text = text[:-2] + "a"
        return validate(text)

    return check


def _qualified_name(text: str) -> list[str]:
    errors: list[str] = []
    parts = text.split("/")
    if len(parts) > 2:
        return [
            "a qualified name "
            + _regex_error(_QUALIFIED_MSG, _QUALIFIED_NAME, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    name = parts[-1]
    if len(parts) == 2:
        if not parts[0]:
            errors.append("prefix part must be non-empty")
        else:
            errors += [f"prefix part {m}" for m in _dns1123_subdomain(parts[0])]
    if not name:
        errors.append("name part must be non-empty")
    elif len(name) > 63:
        errors.append("name part " + _max_len(63))
    if not _full(_QUALIFIED_NAME, name):
        errors.append(
            "name part "
            + _regex_error(_QUALIFIED_MSG, _QUALIFIED_NAME, "MyName", "my.name", "123-abc")
        )
    return errors


def _label_value(text: str) -> list[str]:
    errors = [_max_len(63)] if len(text) > 63 else []
    if not _full(_LABEL_VALUE, text):
        errors.append(_regex_error(_LABEL_VALUE_MSG, _LABEL_VALUE, "MyValue", "my_value", "12345"))
    return errors


def _uri(text: str) -> list[str]:
    """Go's url.ParseRequestURI, its error as the message (``parse "x": invalid URI…``)."""
    try:
        parse_request_uri(text)
    except ValueError as exc:
        return [str(exc)]
    return []


def _byte(text: str) -> list[str]:
    """go-openapi strfmt's "byte": Go's padded standard base64, which skips CR and LF."""
    try:
        base64.b64decode(text.replace("\r", "").replace("\n", ""), validate=True)
    except (binascii.Error, ValueError):
        return ["invalid base64"]
    return []


def _is_date(text: str) -> bool:
    """strfmt's IsDate: Go's time.Parse("2006-01-02"): four-digit year (0000 too), two-digit
    month and day, the day within its month."""
    match = _DATE.fullmatch(text)
    if match is None:
        return False
    year, month, day = (int(g) for g in match.groups())
    if not 1 <= month <= 12:
        return False
    days = calendar.monthrange(2000 if calendar.isleap(year) else 2001, month)[1]
    return 1 <= day <= days


def _date(text: str) -> list[str]:
    return [] if _is_date(text) else ["invalid date"]


def _datetime(text: str) -> list[str]:
    """strfmt's IsDateTime, quirks kept: lowercased and split at every 't', a date before the
    first, the time after it matched by DateTimePattern (any character before the fraction,
    an offset with a colon), hours, minutes and seconds compared as text."""
    if len(text) < 4:
        return ["invalid datetime"]
    parts = text.lower().split("t")
    if len(parts) < 2 or not _is_date(parts[0]):
        return ["invalid datetime"]
    match = _TIME.match(parts[1])
    if match is None or not (match[1] <= "23" and match[2] <= "59" and match[3] <= "59"):
        return ["invalid datetime"]
    return []


VALIDATORS: dict[str, Callable[[str], list[str]]] = {
    "dns1123Label": _dns1123_label,
    "dns1123Subdomain": _dns1123_subdomain,
    "dns1035Label": _dns1035_label,
    "qualifiedName": _qualified_name,
    "dns1123LabelPrefix": _prefix(_dns1123_label),
    "dns1123SubdomainPrefix": _prefix(_dns1123_subdomain),
    "dns1035LabelPrefix": _prefix(_dns1035_label),
    "labelValue": _label_value,
    "uri": _uri,
    "uuid": lambda text: [] if _UUID.match(text) else ["does not match the UUID format"],
    "byte": _byte,
    "date": _date,
    "datetime": _datetime,
}


def _named(name: str) -> Any:
    return cel.OptionalValue.of({KEY: name}) if name in VALIDATORS else cel.OptionalValue.none()


def _validate(fmt: Any, text: str) -> Any:
    if not (isinstance(fmt, dict) and KEY in fmt and fmt[KEY] in VALIDATORS):
        raise ValueError(f"no such overload: validate({type(fmt).__name__}, string)")
    if not isinstance(text, str):
        raise ValueError("no such overload: validate(format, string) needs a string")
    errors = VALIDATORS[fmt[KEY]](text)
    return cel.OptionalValue.of(errors) if errors else cel.OptionalValue.none()


def _constant(name: str) -> Callable[[], dict[str, str]]:
    return lambda: {KEY: name}


FUNCTIONS: dict[str, Callable[..., Any]] = {
    namespaced("format", "named"): _named,
    "validate": _validate,
    **{namespaced("format", name): _constant(name) for name in VALIDATORS},
}
