package check_test

import rego.v1

pod(ns, spec) := {"kind": "Pod", "metadata": {"name": "p", "namespace": ns}, "spec": spec}

caps(drop, add) := {"name": "c", "securityContext": {"capabilities": {"drop": drop, "add": add}}}

hardened := caps(["ALL"], [])

test_no_security_context_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [{"name": "bare"}]})]}
}

test_dropping_some_capabilities_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [hardened, caps(["NET_RAW", "SYS_ADMIN"], [])]})]}
}

test_only_adding_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [hardened], "initContainers": [caps(null, ["CHOWN"])]})]}
}

test_ephemeral_container_violates if {
	not data.check.result with input as {"items": [pod("ops", {"containers": [hardened], "ephemeralContainers": [{"name": "debug"}]})]}
}

test_cronjob_template_violates if {
	cronjob := {"kind": "CronJob", "metadata": {"name": "c", "namespace": "batch"}, "spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c", "securityContext": {"runAsNonRoot": true}}]}}}}}}
	not data.check.result with input as {"items": [cronjob]}
}

test_drop_all_complies if {
	data.check.result with input as {"items": [pod("shop", {"containers": [hardened], "initContainers": [hardened], "ephemeralContainers": [hardened]})]}
}

test_drop_all_among_others_and_added_back_complies if {
	data.check.result with input as {"items": [pod("shop", {"containers": [caps(["NET_RAW", "ALL"], []), caps(["all"], ["NET_BIND_SERVICE"])]})]}
}

test_system_namespace_is_exempt if {
	data.check.result with input as {"items": [pod("kube-system", {"containers": [caps([], ["NET_ADMIN"])]})]}
}
