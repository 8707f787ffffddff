"""CIS RHEL 9 5.2.7: root may not log in over SSH."""

from ciso.generator.controls._sshd_text import MATCH, WHERE_AUDITOR, WHERE_CIS, WHERE_OPERATOR
from ciso.generator.sshd import SshdControl

CONTROL = SshdControl(
    cis_id="5.2.7",
    builtin_id="cis-rhel9-5.2.7-permit-root-login",
    keyword="PermitRootLogin",
    complies=lambda value: value.lower() == "no",
    default_complies=False,  # prohibit-password still admits root with a key
    in_match=True,
    bad_values=("yes", "prohibit-password", "without-password", "forced-commands-only"),
    good_values=("no", "NO", "No"),
    lookalikes=("PermitUserEnvironment no", "PermitTTY yes"),
    phrasings=(
        "Nobody logs in as root over SSH, by password or by key: PermitRootLogin must be set "
        "to no; leaving it unset is a finding (sshd's default, prohibit-password, admits root "
        f"with a key). {WHERE_OPERATOR} {MATCH}",
        "Finding criteria: the host fails unless the effective PermitRootLogin is no (unset, "
        "yes, prohibit-password, without-password and forced-commands-only fail), and fails if "
        f"any Match block sets another value. {WHERE_AUDITOR}",
        "Disallowing root logins over SSH forces administrators to authenticate as themselves. "
        "Ensure PermitRootLogin is explicitly set to no, globally and in every Match block. "
        f"{WHERE_CIS}",
    ),
)
