# CIS RHEL 9 6.1.5: Ensure permissions on /etc/shadow are configured.
# Checked: /etc/shadow, /etc/shadow-, /etc/gshadow, /etc/gshadow- (the backups hold the
# previous password hashes). Other names (shadow.rpmnew) are not live databases.
#
# Input (collected_data.json): {"files": [<Ansible find results>]}, each with at least
#   {"path": "/etc/...", "mode": "0600", "pw_name": "root", "gr_name": "root"}.
package check

import rego.v1

default result := true

shadow_files := {"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-"}

result := false if {
	some file in input.files
	file.path in shadow_files
	not compliant(file)
}

# "0644" -> ["0", "6", "4", "4"]: special bits, owner, group, other (shorter modes padded).
mode_digits(mode) := split(substring(concat("", ["0000", mode]), count(mode), 4), "")

# Read/write for the owner at most: no execute, nothing for group or other, no special bits.
owner_read_write_only(mode) if {
	regex.match(`^[0-7]{1,4}$`, mode)
	digits := mode_digits(mode)
	digits[0] == "0"
	digits[1] in {"0", "2", "4", "6"}
	digits[2] == "0"
	digits[3] == "0"
}

owned_by_root(file) if {
	file.pw_name == "root"
	file.gr_name == "root"
}

compliant(file) if {
	owned_by_root(file)
	owner_read_write_only(file.mode)
}
