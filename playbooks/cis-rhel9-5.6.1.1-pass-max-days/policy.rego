# CIS RHEL 9 5.6.1.1: ensure password expiration is 365 days or less.
# PASS_MAX_DAYS must be 1..365. Unset means shadow-utils' default -1 (never expires),
# which violates, as do -1, 0 and anything that is not a whole number.
package check

import rego.v1

default result := true

# A helper rule, so that an unset name makes "not" succeed instead of undefining the body.
max_days_compliant if {
	value := effective("PASS_MAX_DAYS")
	whole_number(value)
	to_number(value) >= 1
	to_number(value) <= 365
}

result := false if not max_days_compliant

# How shadow-utils reads /etc/login.defs: "NAME value" per line, names case-sensitive, lines
# starting with "#" ignored, a value may be quoted; when a name appears twice the LAST line wins.
#
# Input (collected_data.json): {"login_defs": "<text of /etc/login.defs>"}
definitions(name) := [m[2] |
	some line in split(object.get(input, "login_defs", ""), "\n")
	some m in regex.find_all_string_submatch_n(`^\s*([A-Za-z0-9_]+)\s+"?([^"\s]*)`, line, 1)
	m[1] == name
]

# The value in force (undefined when the name is not set).
effective(name) := values[count(values) - 1] if {
	values := definitions(name)
	count(values) > 0
}

whole_number(value) if regex.match(`^[0-9]+$`, value)
