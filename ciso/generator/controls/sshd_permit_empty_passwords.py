"""CIS RHEL 9 5.2.9: sshd accepts no empty password."""

from ciso.generator.controls._sshd_text import MATCH, WHERE_AUDITOR, WHERE_CIS, WHERE_OPERATOR
from ciso.generator.sshd import SshdControl

CONTROL = SshdControl(
    cis_id="5.2.9",
    builtin_id="cis-rhel9-5.2.9-permit-empty-passwords",
    keyword="PermitEmptyPasswords",
    complies=lambda value: value.lower() == "no",
    default_complies=True,
    in_match=True,
    bad_values=("yes", "YES", "Yes"),
    good_values=("no", "No"),
    lookalikes=("PasswordAuthentication yes", "PermitUserEnvironment no"),
    phrasings=(
        "No account with an empty password may get in over SSH: the PermitEmptyPasswords value "
        f"sshd uses must be no (unset is fine, the default is no). {WHERE_OPERATOR} {MATCH}",
        "Finding criteria: the host fails when the effective PermitEmptyPasswords is anything "
        "but no, or when a Match block sets anything but no; an unset keyword passes. "
        f"{WHERE_AUDITOR}",
        "Accounts with empty passwords must not be reachable remotely. Ensure SSH "
        f"PermitEmptyPasswords is disabled (no, or left at its default). {WHERE_CIS} {MATCH}",
    ),
)
