"""CIS RHEL 9 5.2.19: an unauthenticated SSH connection is dropped within a minute."""

import re

from ciso.generator.controls._sshd_text import WHERE_AUDITOR, WHERE_CIS, WHERE_OPERATOR
from ciso.generator.sshd import SshdControl

_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def seconds(value: str) -> int | None:
    """sshd's time format: 90, 90s, 1m30s, 2h (None: not a time)."""
    if not re.fullmatch(r"([0-9]+[sSmMhHdDwW]?)+", value):
        return None
    return sum(int(n) * _UNIT[u.lower()] for n, u in re.findall(r"([0-9]+)([a-zA-Z]?)", value))


def within_a_minute(value: str) -> bool:
    total = seconds(value)
    return total is not None and 0 < total <= 60


CONTROL = SshdControl(
    cis_id="5.2.19",
    builtin_id="cis-rhel9-5.2.19-login-grace-time",
    keyword="LoginGraceTime",
    complies=within_a_minute,
    default_complies=False,  # the default is 120 seconds
    in_match=False,  # sshd refuses it in a Match block
    bad_values=("120", "1m30s", "2m", "0", "90s", "1h"),
    good_values=("60", "1m", "45s", "30", "0m50s"),
    lookalikes=("ClientAliveInterval 300", "ClientAliveCountMax 3"),
    phrasings=(
        "An SSH connection that has not authenticated within a minute must be dropped: "
        "LoginGraceTime must be set to between 1 second and 60 seconds, in any of sshd's time "
        "formats (90, 1m30s, 2m). Unset fails (the default is 120 s) and 0 (no limit) fails. "
        + WHERE_OPERATOR,
        "Finding criteria: the host fails unless the effective LoginGraceTime, converted to "
        "seconds (s, m, h, d, w suffixes add up), is above 0 and at most 60. Unset fails. "
        + WHERE_AUDITOR,
        "A short login grace time limits unauthenticated connections held open. Ensure SSH "
        "LoginGraceTime is set to one minute or less (and not 0, which disables the limit). "
        + WHERE_CIS,
    ),
)
