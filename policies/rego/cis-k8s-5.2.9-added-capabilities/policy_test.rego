package check_test

import rego.v1

pod(ns, spec) := {"kind": "Pod", "metadata": {"name": "p", "namespace": ns}, "spec": spec}

caps(add, drop) := {"name": "c", "securityContext": {"capabilities": {"add": add, "drop": drop}}}

plain := {"name": "ok", "image": "nginx"}

test_added_capability_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [plain, caps(["NET_ADMIN"], [])]})]}
}

test_add_after_drop_all_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [caps(["NET_BIND_SERVICE"], ["ALL"])]})]}
}

test_added_in_init_container_violates if {
	sts := {"kind": "StatefulSet", "metadata": {"name": "s", "namespace": "payments"}, "spec": {"template": {"spec": {"containers": [plain], "initContainers": [caps(["CHOWN"], ["ALL"])]}}}}
	not data.check.result with input as {"items": [sts]}
}

test_added_in_ephemeral_container_violates if {
	not data.check.result with input as {"items": [pod("ops", {"containers": [plain], "ephemeralContainers": [caps(["SYS_PTRACE"], [])]})]}
}

test_added_in_cronjob_template_violates if {
	cronjob := {"kind": "CronJob", "metadata": {"name": "c", "namespace": "batch"}, "spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [caps(["SYS_TIME"], [])]}}}}}}
	not data.check.result with input as {"items": [cronjob]}
}

test_empty_add_list_complies if {
	data.check.result with input as {"items": [pod("shop", {"containers": [caps([], ["ALL"])]})]}
}

test_null_add_complies if {
	data.check.result with input as {"items": [pod("shop", {"containers": [caps(null, ["NET_RAW"])]})]}
}

test_only_dropping_complies if {
	drop_only := {"name": "c", "securityContext": {"capabilities": {"drop": ["ALL"]}}}
	data.check.result with input as {"items": [pod("shop", {"containers": [plain, drop_only]})]}
}

test_annotation_naming_a_capability_complies if {
	obj := {"kind": "Pod", "metadata": {"name": "p", "namespace": "ops", "annotations": {"capabilities.add": "NET_ADMIN"}}, "spec": {"containers": [plain]}}
	data.check.result with input as {"items": [obj]}
}

test_system_namespace_is_exempt if {
	data.check.result with input as {"items": [pod("kube-system", {"containers": [caps(["NET_ADMIN"], [])]})]}
}
