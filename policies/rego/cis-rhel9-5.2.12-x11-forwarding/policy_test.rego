package check_test

import rego.v1

test_enabled_violates if {
	not data.check.result with input as {"x11_forwarding": "X11Forwarding yes"}
}

test_disabled_complies if {
	data.check.result with input as {"x11_forwarding": "X11Forwarding no"}
}

test_unset_complies if {
	data.check.result with input as {"x11_forwarding": "X11Forwarding not set"}
}
