"""CIS RHEL 9 5.2.11: sshd ignores .rhosts and .shosts."""

from ciso.generator.controls._sshd_text import MATCH, WHERE_AUDITOR, WHERE_CIS, WHERE_OPERATOR
from ciso.generator.sshd import SshdControl

CONTROL = SshdControl(
    cis_id="5.2.11",
    builtin_id="cis-rhel9-5.2.11-ignore-rhosts",
    keyword="IgnoreRhosts",
    complies=lambda value: value.lower() == "yes",
    default_complies=True,
    in_match=True,
    bad_values=("no", "shosts-only", "No"),
    good_values=("yes", "Yes"),
    lookalikes=("HostbasedAuthentication no", "IgnoreUserKnownHosts no"),
    phrasings=(
        "sshd must never trust users' .rhosts or .shosts files: IgnoreRhosts must be yes "
        "(unset is fine, that is the default; shosts-only still reads .shosts and fails). "
        f"{WHERE_OPERATOR} {MATCH}",
        "Finding criteria: the host fails when the effective IgnoreRhosts, or one set in a "
        f"Match block, is anything but yes. An unset keyword passes. {WHERE_AUDITOR}",
        "The .rhosts and .shosts files provide weak host-based authentication. Ensure SSH "
        f"IgnoreRhosts is enabled. {WHERE_CIS} {MATCH}",
    ),
)
