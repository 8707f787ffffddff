# CIS RHEL 9 5.6.1.3: ensure password expiration warning days is 7 or more.
# PASS_WARN_AGE must be a whole number >= 7; unset violates (no warning is given).
package check

import rego.v1

default result := true

# A helper rule, so that an unset name makes "not" succeed instead of undefining the body.
warn_age_compliant if {
	value := effective("PASS_WARN_AGE")
	whole_number(value)
	to_number(value) >= 7
}

result := false if not warn_age_compliant

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
