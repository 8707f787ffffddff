package check_test

import rego.v1

include := "Include /etc/ssh/sshd_config.d/*.conf\n"

test_no_violates if {
	not data.check.result with input as {"sshd_config": "IgnoreRhosts no\n"}
}

test_shosts_only_violates if {
	not data.check.result with input as {"sshd_config": "IgnoreRhosts shosts-only\n"}
}

test_yes_and_unset_comply if {
	data.check.result with input as {"sshd_config": "IgnoreRhosts yes\n"}
	data.check.result with input as {"sshd_config": "#IgnoreRhosts no\nHostbasedAuthentication no\n"}
}

test_drop_in_wins_over_main_file if {
	not data.check.result with input as {
		"sshd_config": concat("", [include, "IgnoreRhosts yes\n"]),
		"drop_ins": {"/etc/ssh/sshd_config.d/20-legacy.conf": "ignorerhosts   No\n"},
	}
}

test_only_conf_files_are_included if {
	data.check.result with input as {
		"sshd_config": concat("", [include, "IgnoreRhosts yes\n"]),
		"drop_ins": {
			"/etc/ssh/sshd_config.d/20-legacy.conf.disabled": "IgnoreRhosts no\n",
			"/etc/ssh/sshd_config.d/README": "IgnoreRhosts no\n",
		},
	}
}

test_match_block_no_violates if {
	not data.check.result with input as {"sshd_config": "Match Host batch*\n IgnoreRhosts no\n"}
}
