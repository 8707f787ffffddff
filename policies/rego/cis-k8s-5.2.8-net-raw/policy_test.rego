package check_test

import rego.v1

pod(ns, spec) := {"kind": "Pod", "metadata": {"name": "p", "namespace": ns}, "spec": spec}

caps(drop, add) := {"name": "c", "securityContext": {"capabilities": {"drop": drop, "add": add}}}

test_no_capabilities_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [{"name": "bare"}]})]}
}

test_dropping_other_capabilities_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [caps(["SYS_ADMIN"], [])]})]}
}

test_net_raw_added_back_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [caps(["ALL"], ["NET_RAW"])]})]}
}

test_kept_in_init_container_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [caps(["ALL"], [])], "initContainers": [{"name": "i"}]})]}
}

test_kept_in_ephemeral_container_violates if {
	not data.check.result with input as {"items": [pod("ops", {"containers": [caps(["ALL"], [])], "ephemeralContainers": [caps(["SYS_ADMIN"], [])]})]}
}

test_cronjob_template_violates if {
	cronjob := {"kind": "CronJob", "metadata": {"name": "c", "namespace": "batch"}, "spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c"}]}}}}}}
	not data.check.result with input as {"items": [cronjob]}
}

test_cap_prefix_is_not_a_drop if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [caps(["CAP_NET_RAW"], [])]})]}
}

test_drop_net_raw_or_all_complies if {
	data.check.result with input as {"items": [pod("shop", {"containers": [caps(["SYS_ADMIN", "NET_RAW"], []), caps(["ALL"], ["NET_BIND_SERVICE"])]})]}
}

test_lower_case_names_comply if {
	data.check.result with input as {"items": [pod("shop", {"containers": [caps(["net_raw"], []), caps(["all"], null)]})]}
}

test_system_namespace_is_exempt if {
	data.check.result with input as {"items": [pod("kube-system", {"containers": [caps([], ["NET_RAW"])]})]}
}
