# CIS RHEL 9 5.1.8: ensure cron is restricted to authorized users.
# cronie lets a user run crontab when /etc/cron.allow lists them; only when cron.allow is missing
# does it fall back to /etc/cron.deny (everyone not listed there). So /etc/cron.allow must exist,
# owned by root:root, mode 0640 or stricter (owner rw at most, group read at most, nothing else).
#
# Input (collected_data.json): {"files": [<Ansible find results>]}, each with at least
#   {"path": "/etc/cron.allow", "mode": "0600", "pw_name": "root", "gr_name": "root"}.
package check

import rego.v1

default result := true

# "0644" -> ["0", "6", "4", "4"]: special bits, owner, group, other (shorter modes padded).
mode_digits(mode) := split(substring(concat("", ["0000", mode]), count(mode), 4), "")

at_most_0640(mode) if {
	regex.match(`^[0-7]{1,4}$`, mode)
	digits := mode_digits(mode)
	digits[0] == "0"
	digits[1] in {"0", "2", "4", "6"}
	digits[2] in {"0", "4"}
	digits[3] == "0"
}

allow_file_compliant if {
	some file in input.files
	file.path == "/etc/cron.allow"
	file.pw_name == "root"
	file.gr_name == "root"
	at_most_0640(file.mode)
}

result := false if not allow_file_compliant
