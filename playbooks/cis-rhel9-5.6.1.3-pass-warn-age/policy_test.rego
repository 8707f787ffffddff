package check_test

import rego.v1

test_seven_or_more_complies if {
	data.check.result with input as {"login_defs": "PASS_WARN_AGE 7\n"}
	data.check.result with input as {"login_defs": "  PASS_WARN_AGE\t14 \n"}
}

test_less_than_seven_violates if {
	not data.check.result with input as {"login_defs": "PASS_WARN_AGE 6\n"}
	not data.check.result with input as {"login_defs": "PASS_WARN_AGE -1\n"}
}

test_only_in_a_comment_is_unset if {
	not data.check.result with input as {"login_defs": "#PASS_WARN_AGE 14\n# PASS_WARN_AGE is the warning\n"}
}

test_last_value_wins if {
	data.check.result with input as {"login_defs": "PASS_WARN_AGE 3\nPASS_WARN_AGE 7\n"}
	not data.check.result with input as {"login_defs": "PASS_WARN_AGE 7\nPASS_WARN_AGE 3\n"}
}

test_other_names_do_not_count if {
	not data.check.result with input as {"login_defs": "pass_warn_age 7\nPASS_MAX_DAYS 7\n"}
}
