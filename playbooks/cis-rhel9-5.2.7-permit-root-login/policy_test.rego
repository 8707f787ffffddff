package check_test

import rego.v1

include := "Include /etc/ssh/sshd_config.d/*.conf\n"

test_no_complies if {
	data.check.result with input as {"sshd_config": "PermitRootLogin no\n"}
}

test_yes_violates if {
	not data.check.result with input as {"sshd_config": "PermitRootLogin yes\n"}
}

test_unset_violates if {
	not data.check.result with input as {"sshd_config": "#PermitRootLogin no\n"}
}

test_key_only_values_violate if {
	not data.check.result with input as {"sshd_config": "PermitRootLogin prohibit-password\n"}
	not data.check.result with input as {"sshd_config": "PermitRootLogin without-password\n"}
	not data.check.result with input as {"sshd_config": "PermitRootLogin forced-commands-only\n"}
}

test_odd_case_complies if {
	data.check.result with input as {"sshd_config": "  PERMITROOTLOGIN\tNo\n"}
}

test_no_only_in_match_block_violates if {
	not data.check.result with input as {"sshd_config": "Match Address 192.0.2.0/24\n  PermitRootLogin no\n"}
}

test_match_block_allowing_root_violates if {
	not data.check.result with input as {"sshd_config": "PermitRootLogin no\nMatch User admin\n  PermitRootLogin yes\n"}
}

test_drop_in_wins if {
	data.check.result with input as {
		"sshd_config": concat("", [include, "PermitRootLogin yes\n"]),
		"drop_ins": {"/etc/ssh/sshd_config.d/01-cis.conf": "PermitRootLogin no\n"},
	}
	not data.check.result with input as {
		"sshd_config": concat("", [include, "PermitRootLogin no\n"]),
		"drop_ins": {"/etc/ssh/sshd_config.d/40-admin.conf": "PermitRootLogin yes\n"},
	}
}

test_disabled_drop_in_is_not_read if {
	data.check.result with input as {
		"sshd_config": concat("", [include, "PermitRootLogin no\n"]),
		"drop_ins": {"/etc/ssh/sshd_config.d/00-rescue.conf.disabled": "PermitRootLogin yes\n"},
	}
}
