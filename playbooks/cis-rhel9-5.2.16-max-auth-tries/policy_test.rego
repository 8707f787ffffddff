package check_test

import rego.v1

include := "Include /etc/ssh/sshd_config.d/*.conf\n"

test_four_complies if {
	data.check.result with input as {"sshd_config": "MaxAuthTries 4\n"}
}

test_five_violates if {
	not data.check.result with input as {"sshd_config": "MaxAuthTries 5\n"}
}

test_unset_violates if {
	not data.check.result with input as {"sshd_config": "#MaxAuthTries 3\nPermitRootLogin no\n"}
}

test_not_a_number_violates if {
	not data.check.result with input as {"sshd_config": "MaxAuthTries four\n"}
}

test_odd_case_first_value_wins if {
	not data.check.result with input as {"sshd_config": "maxauthtries   8\nMaxAuthTries 4\n"}
}

test_drop_in_wins_over_main_file if {
	data.check.result with input as {
		"sshd_config": concat("", [include, "MaxAuthTries 10\n"]),
		"drop_ins": {"/etc/ssh/sshd_config.d/10-cis.conf": "MaxAuthTries 2\n"},
	}
	not data.check.result with input as {
		"sshd_config": concat("", [include, "MaxAuthTries 3\n"]),
		"drop_ins": {"/etc/ssh/sshd_config.d/10-x.conf": "MaxAuthTries 6\n"},
	}
}

test_equals_sign_form if {
	not data.check.result with input as {"sshd_config": "MaxAuthTries=6\n"}
}

test_disabled_drop_in_is_not_read if {
	data.check.result with input as {
		"sshd_config": concat("", [include, "MaxAuthTries 4\n"]),
		"drop_ins": {"/etc/ssh/sshd_config.d/01-debug.conf.disabled": "MaxAuthTries 20\n"},
	}
}

test_match_block_raising_it_violates if {
	not data.check.result with input as {"sshd_config": "MaxAuthTries 4\nMatch Address 10.0.0.0/8\n  MaxAuthTries 10\n"}
}

test_match_block_lowering_it_complies if {
	data.check.result with input as {"sshd_config": "MaxAuthTries 4\nMatch Group sftp\n  MaxAuthTries 2\n"}
}

test_only_match_value_leaves_global_default if {
	not data.check.result with input as {"sshd_config": "Match Group sftp\n  MaxAuthTries 2\n"}
}
