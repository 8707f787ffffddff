package check_test

import rego.v1

include := "Include /etc/ssh/sshd_config.d/*.conf\n"

test_plain_yes_violates if {
	not data.check.result with input as {"sshd_config": "X11Forwarding yes\n"}
}

test_unset_complies if {
	data.check.result with input as {"sshd_config": "#X11Forwarding yes\nPermitRootLogin no\n"}
}

test_no_complies if {
	data.check.result with input as {"sshd_config": "X11Forwarding no\n"}
}

test_odd_case_and_spacing_violates if {
	not data.check.result with input as {"sshd_config": "  x11forwarding\t\tYES  \n"}
}

test_first_value_wins if {
	data.check.result with input as {"sshd_config": "X11Forwarding no\nX11Forwarding yes\n"}
	not data.check.result with input as {"sshd_config": "X11Forwarding yes\nX11Forwarding no\n"}
}

test_drop_in_read_before_main_file_violates if {
	not data.check.result with input as {
		"sshd_config": concat("", [include, "X11Forwarding no\n"]),
		"drop_ins": {"/etc/ssh/sshd_config.d/50-redhat.conf": "X11Forwarding yes\n"},
	}
}

test_earlier_drop_in_wins if {
	data.check.result with input as {
		"sshd_config": include,
		"drop_ins": {
			"/etc/ssh/sshd_config.d/50-redhat.conf": "X11Forwarding yes\n",
			"/etc/ssh/sshd_config.d/00-cis.conf": "X11Forwarding no\n",
		},
	}
}

test_disabled_drop_in_is_not_read if {
	data.check.result with input as {
		"sshd_config": include,
		"drop_ins": {"/etc/ssh/sshd_config.d/50-x.conf.disabled": "X11Forwarding yes\n"},
	}
}

test_drop_ins_need_the_include if {
	data.check.result with input as {
		"sshd_config": "X11Forwarding no\n",
		"drop_ins": {"/etc/ssh/sshd_config.d/50-redhat.conf": "X11Forwarding yes\n"},
	}
}

test_relative_include_pattern if {
	not data.check.result with input as {
		"sshd_config": "Include sshd_config.d/*.conf\n",
		"drop_ins": {"/etc/ssh/sshd_config.d/50-redhat.conf": "X11Forwarding yes\n"},
	}
}

test_match_block_yes_violates if {
	not data.check.result with input as {"sshd_config": "X11Forwarding no\nMatch User dev\n  X11Forwarding yes\n"}
}

test_match_block_no_complies if {
	data.check.result with input as {"sshd_config": "Match User dev\n  X11Forwarding no\n"}
}

test_setting_after_match_is_not_global if {
	# the global value is unset (default no); the yes applies to user dev only, and violates
	not data.check.result with input as {"sshd_config": "Match User dev\nX11Forwarding yes\n"}
}

test_empty_input_complies if {
	data.check.result with input as {}
}
