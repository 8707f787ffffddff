"""CIS RHEL 9 5.2.12: no X11 forwarding (RHEL 9's own drop-in turns it on)."""

from ciso.generator.controls._sshd_text import MATCH, WHERE_AUDITOR, WHERE_CIS, WHERE_OPERATOR
from ciso.generator.sshd import SshdControl

CONTROL = SshdControl(
    cis_id="5.2.12",
    builtin_id="cis-rhel9-5.2.12-x11-forwarding",
    keyword="X11Forwarding",
    complies=lambda value: value.lower() == "no",
    default_complies=True,
    in_match=True,
    bad_values=("yes", "Yes"),
    good_values=("no", "NO"),
    lookalikes=("X11UseLocalhost yes", "X11DisplayOffset 10"),
    phrasings=(
        "No X11 forwarding over SSH for anyone: the X11Forwarding value sshd uses must be no "
        "(unset would be fine, but RHEL 9's own 50-redhat.conf drop-in says yes). "
        f"{WHERE_OPERATOR} {MATCH}",
        "Finding criteria: the host fails when the effective X11Forwarding, or a value set in a "
        f"Match block, is anything but no. {WHERE_AUDITOR}",
        "X11 forwarding exposes the client's display server to the remote host. Ensure SSH "
        f"X11 forwarding is disabled. {WHERE_CIS} {MATCH}",
    ),
)
