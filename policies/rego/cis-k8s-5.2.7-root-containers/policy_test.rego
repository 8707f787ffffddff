package check_test

import rego.v1

pod(ns, spec) := {"kind": "Pod", "metadata": {"name": "p", "namespace": ns}, "spec": spec}

non_root := {"runAsNonRoot": true}

test_no_security_context_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [{"name": "c"}]})]}
}

test_pod_level_non_root_complies if {
	data.check.result with input as {"items": [pod("shop", {"securityContext": non_root, "containers": [{"name": "a"}, {"name": "b"}], "ephemeralContainers": [{"name": "e"}]})]}
}

test_container_overriding_pod_with_false_violates if {
	spec := {"securityContext": non_root, "containers": [{"name": "a"}, {"name": "b", "securityContext": {"runAsNonRoot": false}}]}
	not data.check.result with input as {"items": [pod("shop", spec)]}
}

test_container_true_overrides_pod_false if {
	spec := {"securityContext": {"runAsNonRoot": false}, "containers": [{"name": "a", "securityContext": non_root}]}
	data.check.result with input as {"items": [pod("shop", spec)]}
}

test_ephemeral_container_without_setting_violates if {
	spec := {"containers": [{"name": "a", "securityContext": non_root}], "ephemeralContainers": [{"name": "debug"}]}
	not data.check.result with input as {"items": [pod("ops", spec)]}
}

test_init_container_without_setting_violates if {
	spec := {"containers": [{"name": "a", "securityContext": non_root}], "initContainers": [{"name": "i"}]}
	not data.check.result with input as {"items": [pod("ops", spec)]}
}

test_run_as_user_zero_in_container_violates if {
	spec := {"securityContext": non_root, "containers": [{"name": "a", "securityContext": {"runAsUser": 0}}]}
	cronjob := {"kind": "CronJob", "metadata": {"name": "c", "namespace": "batch"}, "spec": {"jobTemplate": {"spec": {"template": {"spec": spec}}}}}
	not data.check.result with input as {"items": [cronjob]}
}

test_run_as_user_zero_in_pod_violates if {
	spec := {"securityContext": {"runAsNonRoot": true, "runAsUser": 0}, "containers": [{"name": "a"}]}
	not data.check.result with input as {"items": [pod("shop", spec)]}
}

test_group_zero_is_not_root_user if {
	spec := {"securityContext": {"runAsNonRoot": true, "runAsUser": 1000, "runAsGroup": 0, "fsGroup": 0}, "containers": [{"name": "a"}]}
	data.check.result with input as {"items": [pod("shop", spec)]}
}

test_system_namespace_is_exempt if {
	data.check.result with input as {"items": [pod("kube-system", {"securityContext": {"runAsUser": 0}, "containers": [{"name": "a"}]})]}
}
