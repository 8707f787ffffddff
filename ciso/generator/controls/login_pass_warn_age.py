"""CIS RHEL 9 5.6.1.3: users are warned at least 7 days before their password expires."""

import re

from ciso.generator.login_defs import LoginDefsControl


def a_week_or_more(value: str) -> bool:
    return re.fullmatch(r"[0-9]+", value) is not None and int(value) >= 7


CONTROL = LoginDefsControl(
    cis_id="5.6.1.3",
    builtin_id="cis-rhel9-5.6.1.3-pass-warn-age",
    name="PASS_WARN_AGE",
    complies=a_week_or_more,
    bad_values=("5", "0", "3", "6"),
    good_values=("7", "14", "10"),
    phrasings=(
        "Users get at least a week's warning before their password expires: PASS_WARN_AGE in "
        "/etc/login.defs must be 7 or more; unset is a finding. Read the file as passwd and "
        "useradd do: names are case-sensitive, and when the name is set twice the last line "
        "counts.",
        "Finding criteria: the host fails unless the PASS_WARN_AGE value in force in "
        "/etc/login.defs (the last line setting that exact, upper-case name; quotes around the "
        "value allowed) is a whole number of at least 7. Unset fails; comments are not evidence.",
        "An expiry warning gives users time to choose a new password. Ensure the password "
        "expiration warning days (PASS_WARN_AGE in /etc/login.defs, last definition wins, name "
        "case-sensitive) is 7 or more.",
    ),
)
