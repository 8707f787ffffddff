package check_test

import rego.v1

pod(ns, spec) := {"kind": "Pod", "metadata": {"name": "p", "namespace": ns}, "spec": spec}

privileged := {"name": "bad", "securityContext": {"privileged": true}}

plain := {"name": "ok", "image": "nginx"}

test_privileged_container_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [privileged]})]}
}

test_privileged_second_container_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [plain, privileged]})]}
}

test_privileged_init_container_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [plain], "initContainers": [privileged]})]}
}

test_privileged_ephemeral_container_violates if {
	not data.check.result with input as {"items": [pod("ops", {"containers": [plain], "ephemeralContainers": [privileged]})]}
}

test_privileged_cronjob_template_violates if {
	cronjob := {"kind": "CronJob", "metadata": {"name": "c", "namespace": "batch"}, "spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [privileged]}}}}}}
	not data.check.result with input as {"items": [cronjob]}
}

test_privileged_daemonset_template_violates if {
	ds := {"kind": "DaemonSet", "metadata": {"name": "d", "namespace": "ops"}, "spec": {"template": {"spec": {"initContainers": [privileged], "containers": [plain]}}}}
	not data.check.result with input as {"items": [ds]}
}

test_privileged_false_complies if {
	explicit := {"name": "c", "securityContext": {"privileged": false}}
	data.check.result with input as {"items": [pod("shop", {"containers": [plain, explicit]})]}
}

test_added_capability_is_not_privileged if {
	debug := {"name": "d", "securityContext": {"capabilities": {"add": ["SYS_PTRACE"]}}}
	data.check.result with input as {"items": [pod("ops", {"containers": [plain], "ephemeralContainers": [debug]})]}
}

test_annotation_mentioning_privileged_complies if {
	obj := {"kind": "Pod", "metadata": {"name": "p", "namespace": "ops", "annotations": {"privileged": "true"}}, "spec": {"containers": [plain]}}
	data.check.result with input as {"items": [obj]}
}

test_system_namespace_is_exempt if {
	data.check.result with input as {"items": [pod("kube-system", {"containers": [privileged]})]}
}

test_single_object_input if {
	not data.check.result with input as pod("shop", {"containers": [privileged]})
}
