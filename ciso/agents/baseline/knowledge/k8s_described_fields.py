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


_CONTAINER = r"(?:(?:the|a|its|each|every)\s+container|it)"
_HOOK = r"\b(?:lifecycle\s+)?hooks?\b"
#: the words between a hook and when it runs, in one clause ("that the kubelet fires", "which
#: are executed", "invoked by Kubernetes"): no modal, so the rule's own verb stays outside
_HOOK_TO_TIME = (
    r"(?:(?!\b(?:must|may|shall|should|can|cannot|has\s+to|have\s+to|needs?\s+to|and|but|or)\b)"
    r"[^.;:,()]){0,60}?"
)
#: a container starting, as a clause ("the container has started", "it comes up") or as a noun
#: ("container start", "startup", "its creation")
_STARTS = (
    rf"(?:{_CONTAINER}\s+(?:starts|launches|boots|comes\s+up|is\s+up|begins\s+running|"
    r"(?:is|gets|has\s+been|has)\s+(?:started|created|launched|booted|come\s+up))"
    r"|(?:(?:the|its|a|each)\s+)?(?:container(?:'s)?\s+)?(?:start(?:-?up)?|startup|creation|launch|"
    r"boot))\b"
)
#: a container being stopped, as a clause ("the container is being terminated") or as a noun
#: ("container shutdown", "its termination"; not the termination message)
_STOPS = (
    rf"(?:{_CONTAINER}\s+(?:stops|terminates|shuts\s+down|is\s+(?:being\s+)?(?:stopped|"
    r"terminated|killed|shut\s+down)|gets\s+(?:stopped|terminated|killed))"
    r"|(?:(?:the|its|a|each)\s+)?(?:container(?:'s)?\s+)?(?:termination|shut-?down|stop(?:ping)?)"
    r"(?![\s-]+messages?))\b"
)
_SOON = r"(?:right\s+|immediately\s+|just\s+|directly\s+)?"

#: a termination message, and the container's log as what fills it ("take its termination
#: message from the container log", "use the end of its log as the exit message")
_MESSAGE = r"\b(?:termination|exit|crash|failure)[\s-]+(?:messages?|reasons?)\b(?![\s-]+files?\b)"
_LOG = (
    r"\b(?:(?:end|tail|last\s+(?:\w+\s+)?lines?|final\s+(?:\w+\s+)?lines?|output)\s+of\s+"
    r"(?:the\s+|its\s+|their\s+)?)?(?:container'?s?\s+)?(?:own\s+)?logs?(?:\s+output)?\b"
)
_NEAR = r"[^.;:]{0,40}?"
_FILLS = (
    r"\b(?:take|taken|takes|fill|filled|fills|populate|populated|populates|read|reads|draw|drawn|"
    r"derive|derived|build|built|get|gets|pull|pulled|fetch|fetched|source|sourced|compose|"
    r"composed|come|comes)\b"
)
_STANDS_IN = (
    r"\b(?:stand|stands|serve|serves|be\s+used|is\s+used|substitute|substitutes|fill|fills)"
    r"(?:\s+in)?\s+(?:for|as)\b"
)
#: a modal the description itself holds ("the log has to stand in for ..."): kept in the rewrite
_MODAL = re.compile(
    r"\b(?:must|may|shall|should|has\s+to|have\s+to|needs?\s+to|cannot|can)\b(?:\s+not\b)?", re.I
)
_FALLS_BACK = "set terminationMessagePolicy to FallbackToLogsOnError"

DESCRIBED_FIELDS: tuple[DescribedField, ...] = (
    # lifecycle.postStart: a hook, and a time at or right after the container's start
    _described(
        rf"{_HOOK}{_HOOK_TO_TIME}\b{_SOON}(?:after|once|as\s+soon\s+as|when(?:ever)?|upon|on|at|"
        rf"following)\s+{_STARTS}",
        "postStart hook",
    ),
    _described(r"\b(?:post-?start|start-?up|on-?start|after-?start)\s+hooks?", "postStart hook"),
    # lifecycle.preStop: a hook, and a time before or as the container is stopped
    _described(
        rf"{_HOOK}{_HOOK_TO_TIME}\b{_SOON}(?:before|prior\s+to|ahead\s+of|when(?:ever)?|as|upon|"
        rf"on|at)\s+{_STOPS}",
        "preStop hook",
    ),
    _described(r"\b(?:pre-?stop|shut-?down|on-?stop|pre-?termination)\s+hooks?", "preStop hook"),
    # terminationMessagePolicy: the log's end stands in for an empty termination-message file
    _described(
        r"\bfall\s+back\s+(?:on|to)\s+(?:the\s+)?(?:(?:end|tail|last|final)\b[^.;]{0,30}?\bof\s+)?"
        r"(?:the\s+|its\s+)?(?:container'?s?\s+)?(?:own\s+)?logs?\b",
        _FALLS_BACK,
    ),
    # the message filled from the log: "take its termination message from the log", "the
    # termination message must be read from its log", "use the log as the exit message", "the
    # log has to stand in for an empty termination message"
    _described(
        rf"{_FILLS}{_NEAR}{_MESSAGE}{_NEAR}\b(?:from|out\s+of|off)\s+{_NEAR}{_LOG}", _FALLS_BACK
    ),
    _described(rf"{_MESSAGE}{_NEAR}{_FILLS}\s+(?:from|out\s+of|off)\s+{_NEAR}{_LOG}", _FALLS_BACK),
    _described(
        rf"\b(?:use|uses|used|take|takes|treat|treats){_NEAR}{_LOG}{_NEAR}\bas\s+{_NEAR}{_MESSAGE}",
        _FALLS_BACK,
    ),
    _described(rf"{_LOG}{_NEAR}{_STANDS_IN}{_NEAR}{_MESSAGE}", _FALLS_BACK),
)


def spelled_out(text: str) -> str:
    """``text`` with every field it describes spelled as the API does (unchanged when it
    describes none)."""
    for field in DESCRIBED_FIELDS:
        text = field.description.sub(partial(_in_number, field.spelled), text)
    return text


def _in_number(spelled: str, described: re.Match[str]) -> str:
    """``spelled`` in the plural when the description's noun is ("start-up hooks"), after the
    modal the description holds ("the log must stand in for ..." keeps its "must")."""
    if re.search(r"\bhooks\b", described.group(0), re.I):
        spelled = re.sub(r"\bhook\b", "hooks", spelled)
    modal = _MODAL.search(described.group(0))
    return f"{modal.group(0)} {spelled}" if modal else spelled
