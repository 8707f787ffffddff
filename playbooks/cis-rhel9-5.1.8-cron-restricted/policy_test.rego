package check_test

import rego.v1

file(path, mode) := {"path": path, "mode": mode, "pw_name": "root", "gr_name": "root"}

test_cron_allow_complies if {
	data.check.result with input as {"files": [file("/etc/cron.allow", "0600")]}
	data.check.result with input as {"files": [file("/etc/cron.allow", "0640")]}
}

test_cron_deny_alone_violates if {
	not data.check.result with input as {"files": [file("/etc/cron.deny", "0600")]}
	not data.check.result with input as {"files": []}
}

test_cron_deny_is_ignored_next_to_cron_allow if {
	data.check.result with input as {"files": [file("/etc/cron.allow", "0600"), file("/etc/cron.deny", "0644")]}
}

test_loose_mode_violates if {
	not data.check.result with input as {"files": [file("/etc/cron.allow", "0644")]}
	not data.check.result with input as {"files": [file("/etc/cron.allow", "0660")]}
}

test_wrong_owner_violates if {
	not data.check.result with input as {"files": [object.union(file("/etc/cron.allow", "0600"), {"pw_name": "alice"})]}
}

test_similar_names_do_not_count if {
	not data.check.result with input as {"files": [file("/etc/cron.allow.bak", "0600"), file("/etc/cron.d/cron.allow", "0600")]}
}
