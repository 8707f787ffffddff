package check_test

import rego.v1

include := "Include /etc/ssh/sshd_config.d/*.conf\n"

test_sixty_seconds_complies if {
	data.check.result with input as {"sshd_config": "LoginGraceTime 60\n"}
	data.check.result with input as {"sshd_config": "LoginGraceTime 1m\n"}
	data.check.result with input as {"sshd_config": "LoginGraceTime 30s\n"}
}

test_more_than_a_minute_violates if {
	not data.check.result with input as {"sshd_config": "LoginGraceTime 61\n"}
	not data.check.result with input as {"sshd_config": "LoginGraceTime 1m30s\n"}
	not data.check.result with input as {"sshd_config": "LoginGraceTime 2M\n"}
	not data.check.result with input as {"sshd_config": "LoginGraceTime 1h\n"}
}

test_units_add_up if {
	data.check.result with input as {"sshd_config": "LoginGraceTime 30s30\n"}
	not data.check.result with input as {"sshd_config": "LoginGraceTime 30s31\n"}
}

test_zero_means_no_limit_and_violates if {
	not data.check.result with input as {"sshd_config": "LoginGraceTime 0\n"}
}

test_unset_violates if {
	not data.check.result with input as {"sshd_config": "#LoginGraceTime 60\n"}
}

test_malformed_violates if {
	not data.check.result with input as {"sshd_config": "LoginGraceTime 1x\n"}
}

test_drop_in_wins if {
	data.check.result with input as {
		"sshd_config": concat("", [include, "LoginGraceTime 2m\n"]),
		"drop_ins": {"/etc/ssh/sshd_config.d/10-cis.conf": "logingracetime 45\n"},
	}
	not data.check.result with input as {
		"sshd_config": concat("", [include, "LoginGraceTime 60\n"]),
		"drop_ins": {
			"/etc/ssh/sshd_config.d/10-slow.conf": "LoginGraceTime 5m\n",
			"/etc/ssh/sshd_config.d/05-x.conf.disabled": "LoginGraceTime 10\n",
		},
	}
}
