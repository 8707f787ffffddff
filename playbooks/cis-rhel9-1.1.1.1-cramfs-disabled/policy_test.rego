package check_test

import rego.v1

compliant_text := "install cramfs /bin/false\nblacklist cramfs\n"

test_install_false_and_blacklist_comply if {
	data.check.result with input as {"files": {"/etc/modprobe.d/cramfs.conf": compliant_text}}
}

test_install_true_complies if {
	data.check.result with input as {"files": {"/etc/modprobe.d/cramfs.conf": "install cramfs /bin/true\nblacklist cramfs\n"}}
}

test_nothing_configured_violates if {
	not data.check.result with input as {"files": {}}
	not data.check.result with input as {}
}

test_blacklist_without_install_violates if {
	not data.check.result with input as {"files": {"/etc/modprobe.d/cramfs.conf": "blacklist cramfs\n"}}
}

test_install_without_blacklist_violates if {
	not data.check.result with input as {"files": {"/etc/modprobe.d/cramfs.conf": "install cramfs /bin/false\n"}}
}

test_disabled_file_is_not_read if {
	not data.check.result with input as {"files": {
		"/etc/modprobe.d/cramfs.conf.disabled": "install cramfs /bin/false\n",
		"/etc/modprobe.d/blacklist.conf": "blacklist cramfs\n",
	}}
}

test_commented_install_does_not_count if {
	not data.check.result with input as {"files": {"/etc/modprobe.d/cramfs.conf": "  # install cramfs /bin/false\nblacklist cramfs\n"}}
}

test_first_install_rule_wins if {
	not data.check.result with input as {"files": {
		"/etc/modprobe.d/10-media.conf": "install cramfs /sbin/modprobe --ignore-install cramfs\n",
		"/etc/modprobe.d/60-cis.conf": compliant_text,
	}}
	data.check.result with input as {"files": {
		"/etc/modprobe.d/10-cis.conf": compliant_text,
		"/etc/modprobe.d/60-media.conf": "install cramfs /sbin/modprobe --ignore-install cramfs\n",
	}}
}

test_order_is_by_name_across_directories if {
	not data.check.result with input as {"files": {
		"/usr/lib/modprobe.d/05-vendor.conf": "install cramfs /sbin/modprobe --ignore-install cramfs\n",
		"/etc/modprobe.d/50-cis.conf": compliant_text,
	}}
}

test_etc_file_hides_same_named_vendor_file if {
	data.check.result with input as {"files": {
		"/usr/lib/modprobe.d/10-media.conf": "install cramfs /sbin/modprobe --ignore-install cramfs\n",
		"/etc/modprobe.d/10-media.conf": compliant_text,
	}}
	not data.check.result with input as {"files": {
		"/usr/lib/modprobe.d/50-cis.conf": compliant_text,
		"/etc/modprobe.d/50-cis.conf": "blacklist cramfs\n",
	}}
}

test_run_directory_counts if {
	data.check.result with input as {"files": {
		"/etc/modprobe.d/10-cis.conf": "install cramfs /bin/false\n",
		"/run/modprobe.d/bl.conf": "blacklist cramfs\n",
	}}
}

test_other_directories_do_not_count if {
	not data.check.result with input as {"files": {"/etc/modprobe.conf.d/cramfs.conf": compliant_text}}
}

test_odd_spacing_and_usr_bin_path if {
	data.check.result with input as {"files": {"/etc/modprobe.d/c.conf": "install \t cramfs   /usr/bin/false  \nblacklist\tcramfs\n"}}
}

test_command_loading_something_else_violates if {
	not data.check.result with input as {"files": {"/etc/modprobe.d/c.conf": "install cramfs /bin/true; /sbin/modprobe cramfs\nblacklist cramfs\n"}}
}

test_similar_module_names_do_not_count if {
	not data.check.result with input as {"files": {"/etc/modprobe.d/c.conf": "install cramfs_ng /bin/false\nblacklist cramfs2\n"}}
}

test_dash_and_underscore_are_one_module if {
	# cramfs has neither, so check the rule on a module name that has one.
	text := "install nf-conntrack /bin/false\nblacklist nf_conntrack\n"
	data.check.result with input as {"files": {"/etc/modprobe.d/c.conf": text}} with data.check.module as "nf_conntrack"
	not data.check.result with input as {"files": {"/etc/modprobe.d/c.conf": text}} with data.check.module as "nfconntrack"
}

test_continued_line if {
	data.check.result with input as {"files": {"/etc/modprobe.d/c.conf": "install cramfs \\\n /bin/false\nblacklist cramfs\n"}}
}
