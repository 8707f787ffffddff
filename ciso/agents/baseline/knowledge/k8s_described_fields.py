"""Fields of the Kubernetes API a requirement describes by what they do instead of naming them:
"a hook Kubernetes runs right after the container starts" is ``postStart``, "fall back to the
end of the container's log" is ``terminationMessagePolicy: FallbackToLogsOnError``.

Each description is rewritten into the field's API name in place, so that the schema reader
(``k8s_schema_fields``) reads the rewritten sentence with its own polarity, values and defaults.
The parser uses the rewriting only for a text nothing else understood, so a text that names the
field, or that a concept reads, keeps its reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial


@dataclass(frozen=True)
class DescribedField:
    """A way of describing a field, and the words that spell it as the API does."""

    description: re.Pattern[str]
    spelled: str


def _described(pattern: str, spelled: str) -> DescribedField:
    return DescribedField(re.compile(pattern, re.I), spelled)


_CONTAINER = r"(?:the|a|its|each|every)\s+container"
_RUNS = r"(?:Kubernetes\s+|the\s+kubelet\s+)?(?:runs?|executes?|calls?|fires?|triggers?)"
_HOOK = r"\b(?:lifecycle\s+)?hooks?"

DESCRIBED_FIELDS: tuple[DescribedField, ...] = (
    # lifecycle.postStart: run right after the container is created
    _described(
        rf"{_HOOK}\s+(?:that|which)\s+{_RUNS}\s+(?:right\s+|immediately\s+|just\s+|directly\s+)?"
        rf"(?:after|once|as\s+soon\s+as|when)\s+{_CONTAINER}\s+(?:starts|has\s+started|is\s+"
        r"(?:started|created)|comes\s+up|launches)",
        "postStart hook",
    ),
    _described(r"\b(?:post-?start|start-?up|on-?start)\s+hooks?", "postStart hook"),
    # lifecycle.preStop: run before the container is stopped
    _described(
        rf"{_HOOK}\s+(?:that|which)\s+{_RUNS}\s+(?:right\s+|just\s+)?(?:when|before|as)\s+"
        rf"{_CONTAINER}\s+(?:is\s+(?:being\s+)?(?:stopped|terminated|killed)|stops|"
        r"terminates|shuts\s+down)",
        "preStop hook",
    ),
    _described(r"\b(?:pre-?stop|shut-?down|on-?stop)\s+hooks?", "preStop hook"),
    # terminationMessagePolicy: the log's end stands in for an empty termination-message file
    _described(
        r"\bfall\s+back\s+(?:on|to)\s+(?:the\s+)?(?:(?:end|tail|last|final)\b[^.;]{0,30}?\bof\s+)?"
        r"(?:the\s+|its\s+)?(?:container'?s?\s+)?(?:own\s+)?logs?\b",
        "set terminationMessagePolicy to FallbackToLogsOnError",
    ),
)


def spelled_out(text: str) -> str:
    """``text`` with every field it describes spelled as the API does (unchanged when it
    describes none)."""
    for field in DESCRIBED_FIELDS:
        text = field.description.sub(partial(_in_number, field.spelled), text)
    return text


def _in_number(spelled: str, described: re.Match[str]) -> str:
    """``spelled`` in the plural when the description's noun is ("start-up hooks")."""
    if re.search(r"\bhooks\b", described.group(0), re.I):
        return re.sub(r"\bhook\b", "hooks", spelled)
    return spelled
