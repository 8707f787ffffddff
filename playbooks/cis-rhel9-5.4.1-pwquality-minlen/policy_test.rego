package check_test

import rego.v1

pam(args) := concat("", ["auth required pam_env.so\npassword    requisite    pam_pwquality.so ", args, "\npassword sufficient pam_unix.so sha512\n"])

# Both stacks with the same module line, plus the given pwquality files.
host(args, config) := {"files": object.union(config, {
	"/etc/pam.d/system-auth": pam(args),
	"/etc/pam.d/password-auth": pam(args),
})}

main_file(text) := {"/etc/security/pwquality.conf": text}

test_main_file_fourteen_complies if {
	data.check.result with input as host("local_users_only", main_file("minlen = 14\n"))
}

test_thirteen_violates if {
	not data.check.result with input as host("", main_file("minlen = 13\n"))
}

test_unset_violates if {
	not data.check.result with input as host("", main_file("# minlen = 14\ndcredit = -1\n"))
}

test_no_files_violates if {
	not data.check.result with input as {}
}

test_missing_module_violates if {
	config := {"/etc/security/pwquality.conf": "minlen = 16\n", "/etc/pam.d/system-auth": pam(""), "/etc/pam.d/password-auth": "password sufficient pam_unix.so sha512\n"}
	not data.check.result with input as {"files": config}
}

test_commented_module_line_does_not_count if {
	config := {"/etc/security/pwquality.conf": "minlen = 16\n", "/etc/pam.d/system-auth": pam(""), "/etc/pam.d/password-auth": "#password requisite pam_pwquality.so minlen=16\n"}
	not data.check.result with input as {"files": config}
}

test_drop_in_alone_complies if {
	data.check.result with input as host("", {"/etc/security/pwquality.conf.d/50-cis.conf": "minlen = 14\n"})
}

test_main_file_wins_over_drop_in if {
	not data.check.result with input as host("", {
		"/etc/security/pwquality.conf.d/50-cis.conf": "minlen = 14\n",
		"/etc/security/pwquality.conf": "minlen = 10\n",
	})
	data.check.result with input as host("", {
		"/etc/security/pwquality.conf.d/10-legacy.conf": "minlen = 8\n",
		"/etc/security/pwquality.conf": "minlen = 15\n",
	})
}

test_later_drop_in_wins if {
	data.check.result with input as host("", {
		"/etc/security/pwquality.conf.d/10-a.conf": "minlen = 8\n",
		"/etc/security/pwquality.conf.d/20-b.conf": "minlen = 14\n",
	})
	not data.check.result with input as host("", {
		"/etc/security/pwquality.conf.d/10-a.conf": "minlen = 14\n",
		"/etc/security/pwquality.conf.d/20-b.conf": "minlen = 8\n",
	})
}

test_last_value_in_a_file_wins if {
	not data.check.result with input as host("", main_file("minlen = 14\nminlen = 9\n"))
}

test_disabled_drop_in_is_not_read if {
	data.check.result with input as host("", {
		"/etc/security/pwquality.conf.d/10-cis.conf": "minlen = 14\n",
		"/etc/security/pwquality.conf.d/90-weak.conf.disabled": "minlen = 6\n",
	})
}

test_odd_case_and_spacing if {
	not data.check.result with input as host("", main_file("  MinLen=10   # local\n"))
	data.check.result with input as host("", main_file("MINLEN 20\n"))
}

test_inline_comment_is_stripped if {
	data.check.result with input as host("", main_file("minlen = 14 # CIS 5.4.1\n"))
	not data.check.result with input as host("", main_file("# minlen = 14\n"))
}

test_module_argument_overrides_files if {
	not data.check.result with input as host("minlen=8 retry=3", main_file("minlen = 16\n"))
	data.check.result with input as host("try_first_pass minlen=14", main_file("minlen = 8\n"))
}

test_last_module_argument_wins if {
	not data.check.result with input as host("minlen=16 minlen=10", main_file("minlen = 16\n"))
}

test_one_weak_stack_violates if {
	config := {"/etc/security/pwquality.conf": "minlen = 14\n", "/etc/pam.d/system-auth": pam(""), "/etc/pam.d/password-auth": pam("minlen=12")}
	not data.check.result with input as {"files": config}
}

test_similar_option_names_do_not_count if {
	not data.check.result with input as host("minclass=14", main_file("minlength = 14\nmaxlen = 14\n"))
}

test_not_a_number_violates if {
	not data.check.result with input as host("", main_file("minlen = fourteen\n"))
	not data.check.result with input as host("", main_file("minlen = 14 chars\n"))
}

test_malformed_drop_in_stops_the_reading if {
	not data.check.result with input as host("", {
		"/etc/security/pwquality.conf.d/10-a.conf": "minlen = 14x\n",
		"/etc/security/pwquality.conf": "minlen = 16\n",
	})
	data.check.result with input as host("minlen=14", {"/etc/security/pwquality.conf.d/10-a.conf": "minlen = 14x\n"})
}

test_optional_module_and_bracket_control if {
	text := "-password [success=1 default=ignore] pam_pwquality.so minlen=14\n"
	data.check.result with input as {"files": {"/etc/pam.d/system-auth": text, "/etc/pam.d/password-auth": text}}
}

test_pam_comment_after_arguments_is_ignored if {
	data.check.result with input as host("minlen=14 # was minlen=8", main_file("minlen = 8\n"))
}
