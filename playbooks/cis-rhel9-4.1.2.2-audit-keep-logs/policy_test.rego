package check_test

import rego.v1

test_keep_logs_complies if {
	data.check.result with input as {"auditd_conf": "max_log_file_action = keep_logs\n"}
	data.check.result with input as {"auditd_conf": "max_log_file_action=KEEP_LOGS\n"}
}

test_other_actions_violate if {
	not data.check.result with input as {"auditd_conf": "max_log_file_action = ROTATE\n"}
	not data.check.result with input as {"auditd_conf": "max_log_file_action = ignore\n"}
	not data.check.result with input as {"auditd_conf": "max_log_file_action = syslog\n"}
}

test_unset_violates if {
	not data.check.result with input as {"auditd_conf": "# max_log_file_action = keep_logs\nmax_log_file = 8\n"}
	not data.check.result with input as {}
}

test_a_second_rotate_violates if {
	not data.check.result with input as {"auditd_conf": "max_log_file_action = keep_logs\nmax_log_file_action=ROTATE\n"}
}

test_similar_key_does_not_count if {
	data.check.result with input as {"auditd_conf": "max_log_file = 8\nmax_log_file_action = keep_logs\nspace_left_action = ROTATE\n"}
}
