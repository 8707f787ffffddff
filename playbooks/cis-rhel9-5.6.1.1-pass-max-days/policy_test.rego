package check_test

import rego.v1

test_365_complies if {
	data.check.result with input as {"login_defs": "PASS_MAX_DAYS 365\n"}
	data.check.result with input as {"login_defs": "PASS_MAX_DAYS\t90\n"}
}

test_more_than_a_year_violates if {
	not data.check.result with input as {"login_defs": "PASS_MAX_DAYS 366\n"}
	not data.check.result with input as {"login_defs": "PASS_MAX_DAYS 99999\n"}
}

test_never_and_zero_violate if {
	not data.check.result with input as {"login_defs": "PASS_MAX_DAYS -1\n"}
	not data.check.result with input as {"login_defs": "PASS_MAX_DAYS 0\n"}
}

test_unset_violates if {
	not data.check.result with input as {"login_defs": "#PASS_MAX_DAYS 90\nPASS_MIN_DAYS 1\n"}
	not data.check.result with input as {}
}

test_last_value_wins if {
	not data.check.result with input as {"login_defs": "PASS_MAX_DAYS 90\nPASS_MAX_DAYS 99999\n"}
	data.check.result with input as {"login_defs": "PASS_MAX_DAYS 99999\nPASS_MAX_DAYS 90\n"}
}

test_names_are_case_sensitive if {
	data.check.result with input as {"login_defs": "PASS_MAX_DAYS 90\npass_max_days 9999\n"}
}

test_quoted_value if {
	data.check.result with input as {"login_defs": "PASS_MAX_DAYS \"60\"\n"}
}

test_similar_name_is_not_the_setting if {
	not data.check.result with input as {"login_defs": "PASS_MAX_DAYS_NOTE 30\n"}
}
