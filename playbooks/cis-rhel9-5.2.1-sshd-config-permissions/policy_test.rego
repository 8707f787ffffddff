package check_test

import rego.v1

file(path, mode) := {"path": path, "mode": mode, "pw_name": "root", "gr_name": "root"}

test_0600_root_complies if {
	data.check.result with input as {"files": [file("/etc/ssh/sshd_config", "0600")]}
}

test_stricter_modes_comply if {
	data.check.result with input as {"files": [file("/etc/ssh/sshd_config", "0400"), file("/etc/ssh/sshd_config", "0000")]}
}

test_world_readable_violates if {
	not data.check.result with input as {"files": [file("/etc/ssh/sshd_config", "0644")]}
}

test_group_readable_violates if {
	not data.check.result with input as {"files": [file("/etc/ssh/sshd_config", "0640")]}
}

test_owner_execute_violates if {
	not data.check.result with input as {"files": [file("/etc/ssh/sshd_config", "0700")]}
}

test_setuid_violates if {
	not data.check.result with input as {"files": [file("/etc/ssh/sshd_config", "4600")]}
}

test_short_mode_string if {
	data.check.result with input as {"files": [file("/etc/ssh/sshd_config", "600")]}
	not data.check.result with input as {"files": [file("/etc/ssh/sshd_config", "644")]}
}

test_wrong_owner_or_group_violates if {
	not data.check.result with input as {"files": [object.union(file("/etc/ssh/sshd_config", "0600"), {"pw_name": "admin"})]}
	not data.check.result with input as {"files": [object.union(file("/etc/ssh/sshd_config", "0600"), {"gr_name": "wheel"})]}
}

test_drop_in_counts if {
	not data.check.result with input as {"files": [
		file("/etc/ssh/sshd_config", "0600"),
		file("/etc/ssh/sshd_config.d/50-redhat.conf", "0644"),
	]}
}

test_files_sshd_does_not_read_do_not_count if {
	data.check.result with input as {"files": [
		file("/etc/ssh/sshd_config", "0600"),
		file("/etc/ssh/sshd_config.d/60-old.conf.disabled", "0644"),
		file("/etc/ssh/ssh_config", "0644"),
		file("/etc/ssh/ssh_config.d/50-redhat.conf", "0644"),
	]}
}
