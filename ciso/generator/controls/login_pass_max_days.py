"""CIS RHEL 9 5.6.1.1: passwords of new accounts expire within 365 days."""

import re

from ciso.generator.login_defs import LoginDefsControl


def within_a_year(value: str) -> bool:
    return re.fullmatch(r"[0-9]+", value) is not None and 1 <= int(value) <= 365


CONTROL = LoginDefsControl(
    cis_id="5.6.1.1",
    builtin_id="cis-rhel9-5.6.1.1-pass-max-days",
    name="PASS_MAX_DAYS",
    complies=within_a_year,
    bad_values=("99999", "400", "-1", "0", "730"),
    good_values=("365", "90", "180", "60"),
    phrasings=(
        "New accounts' passwords must expire within a year: PASS_MAX_DAYS in /etc/login.defs "
        "must be a number of days from 1 to 365; unset, -1 or 99999 (never) are findings. Read "
        "the file as passwd and useradd do: names are case-sensitive, and when the name is set "
        "twice the last line counts.",
        "Finding criteria: the host fails unless the PASS_MAX_DAYS value in force in "
        "/etc/login.defs (the last line setting that exact, upper-case name; quotes around the "
        "value allowed) is a whole number between 1 and 365. Unset fails; comments are not "
        "evidence.",
        "Password aging limits how long a compromised password stays usable. Ensure the "
        "password expiration (PASS_MAX_DAYS in /etc/login.defs, last definition wins, name "
        "case-sensitive) is 365 days or less, and not 0 or unset.",
    ),
)
