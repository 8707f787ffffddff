package check_test

import rego.v1

include := "Include /etc/ssh/sshd_config.d/*.conf\n"

test_yes_violates if {
	not data.check.result with input as {"sshd_config": "PermitEmptyPasswords yes\n"}
}

test_no_and_unset_comply if {
	data.check.result with input as {"sshd_config": "PermitEmptyPasswords no\n"}
	data.check.result with input as {"sshd_config": "# PermitEmptyPasswords yes\n"}
}

test_first_value_wins if {
	data.check.result with input as {"sshd_config": "PermitEmptyPasswords no\npermitemptypasswords yes\n"}
	not data.check.result with input as {"sshd_config": "PERMITEMPTYPASSWORDS Yes\nPermitEmptyPasswords no\n"}
}

test_match_block_yes_violates if {
	not data.check.result with input as {"sshd_config": "PermitEmptyPasswords no\nMatch User kiosk\n  PermitEmptyPasswords yes\n"}
}

test_match_block_in_drop_in_violates if {
	not data.check.result with input as {
		"sshd_config": include,
		"drop_ins": {"/etc/ssh/sshd_config.d/20-kiosk.conf": "Match User kiosk\nPermitEmptyPasswords yes\n"},
	}
}

test_match_block_ends_with_its_file if {
	# the Match in the drop-in does not extend into the main file: the global value is yes
	not data.check.result with input as {
		"sshd_config": concat("", [include, "PermitEmptyPasswords yes\n"]),
		"drop_ins": {"/etc/ssh/sshd_config.d/20-kiosk.conf": "Match User kiosk\nPermitEmptyPasswords no\n"},
	}
}

test_disabled_drop_in_is_not_read if {
	data.check.result with input as {
		"sshd_config": include,
		"drop_ins": {"/etc/ssh/sshd_config.d/20-kiosk.conf.disabled": "PermitEmptyPasswords yes\n"},
	}
}
