package check_test

import rego.v1

both_off := "net.ipv4.ip_forward = 0\nnet.ipv6.conf.all.forwarding = 0\n"

test_both_off_complies if {
	data.check.result with input as {"files": {"/etc/sysctl.d/60-cis.conf": both_off}}
}

test_on_violates if {
	not data.check.result with input as {"files": {"/etc/sysctl.d/60-cis.conf": "net.ipv4.ip_forward = 1\nnet.ipv6.conf.all.forwarding = 0\n"}}
}

test_unset_violates if {
	not data.check.result with input as {"files": {"/etc/sysctl.d/60-cis.conf": "net.ipv4.ip_forward = 0\n"}}
	not data.check.result with input as {}
}

test_sysctl_conf_is_applied_last if {
	not data.check.result with input as {"files": {
		"/etc/sysctl.d/60-cis.conf": both_off,
		"/etc/sysctl.conf": "net.ipv4.ip_forward=1\n",
	}}
}

test_later_file_name_wins_across_directories if {
	not data.check.result with input as {"files": {
		"/etc/sysctl.d/10-cis.conf": both_off,
		"/usr/lib/sysctl.d/50-router.conf": "net.ipv4.ip_forward = 1\n",
	}}
}

test_etc_hides_the_same_name_in_usr_lib if {
	data.check.result with input as {"files": {
		"/usr/lib/sysctl.d/50-router.conf": "net.ipv4.ip_forward = 1\n",
		"/etc/sysctl.d/50-router.conf": both_off,
	}}
}

test_slash_form_and_dash_prefix if {
	not data.check.result with input as {"files": {"/etc/sysctl.d/60-cis.conf": concat("", [both_off, "-net/ipv4/ip_forward=1\n"])}}
}

test_comments_disabled_files_and_similar_keys_do_not_count if {
	data.check.result with input as {"files": {
		"/etc/sysctl.d/60-cis.conf": both_off,
		"/etc/sysctl.d/70-docker.conf.disabled": "net.ipv4.ip_forward = 1\n",
		"/etc/sysctl.conf": "# net.ipv4.ip_forward = 1\n; net.ipv4.ip_forward = 1\nnet.ipv4.ip_forward_update_priority = 1\n",
	}}
}
