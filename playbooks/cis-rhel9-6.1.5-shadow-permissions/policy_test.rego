package check_test

import rego.v1

file(path, mode) := {"path": path, "mode": mode, "pw_name": "root", "gr_name": "root"}

all_zero := [file("/etc/shadow", "0000"), file("/etc/shadow-", "0000"), file("/etc/gshadow", "0000"), file("/etc/gshadow-", "0000")]

test_all_0000_complies if {
	data.check.result with input as {"files": all_zero}
}

test_0600_and_0400_are_accepted if {
	data.check.result with input as {"files": [file("/etc/shadow", "0600"), file("/etc/gshadow", "0400")]}
}

test_world_readable_shadow_violates if {
	not data.check.result with input as {"files": [file("/etc/shadow", "0644")]}
}

test_group_readable_violates if {
	# Debian's root:shadow 0640 does not comply with this requirement
	not data.check.result with input as {"files": [object.union(file("/etc/shadow", "0640"), {"gr_name": "shadow"})]}
	not data.check.result with input as {"files": [file("/etc/gshadow", "0640")]}
}

test_backup_counts if {
	not data.check.result with input as {"files": array.concat(all_zero, [file("/etc/shadow-", "0644")])}
}

test_owner_must_be_root if {
	not data.check.result with input as {"files": [object.union(file("/etc/shadow", "0000"), {"pw_name": "nobody"})]}
}

test_other_names_do_not_count if {
	data.check.result with input as {"files": array.concat(all_zero, [file("/etc/shadow.rpmnew", "0644")])}
}
