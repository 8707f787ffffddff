"""CIS RHEL 9 5.2.16: at most 4 authentication attempts per SSH connection."""

import re

from ciso.generator.controls._sshd_text import MATCH, WHERE_AUDITOR, WHERE_CIS, WHERE_OPERATOR
from ciso.generator.sshd import SshdControl


def at_most_four(value: str) -> bool:
    return re.fullmatch(r"[0-9]+", value) is not None and int(value) <= 4


CONTROL = SshdControl(
    cis_id="5.2.16",
    builtin_id="cis-rhel9-5.2.16-max-auth-tries",
    keyword="MaxAuthTries",
    complies=at_most_four,
    default_complies=False,  # the default is 6
    in_match=True,
    bad_values=("6", "5", "10", "8"),
    good_values=("4", "3", "2"),
    lookalikes=("MaxSessions 10", "MaxStartups 10:30:60"),
    phrasings=(
        "Four tries per SSH connection, no more: MaxAuthTries must be set to 4 or less; unset "
        f"is a finding (sshd then allows 6). {WHERE_OPERATOR} {MATCH}",
        "Finding criteria: the host fails unless the effective MaxAuthTries is a number from 0 "
        "to 4, and fails if a Match block sets a higher one. An unset keyword fails. "
        f"{WHERE_AUDITOR}",
        "Limiting authentication attempts per connection slows brute-force attacks. Ensure SSH "
        f"MaxAuthTries is set to 4 or less. {WHERE_CIS} {MATCH}",
    ),
)
