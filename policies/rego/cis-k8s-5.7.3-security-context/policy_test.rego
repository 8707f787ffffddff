package check_test

import rego.v1

pod(ns, spec) := {"kind": "Pod", "metadata": {"name": "p", "namespace": ns}, "spec": spec}

hardened := {"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true}

non_root := {"runAsNonRoot": true}

test_no_security_context_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [{"name": "c"}]})]}
}

test_pod_non_root_and_hardened_containers_comply if {
	spec := {"securityContext": non_root, "containers": [{"name": "a", "securityContext": hardened}, {"name": "b", "securityContext": hardened}]}
	data.check.result with input as {"items": [pod("shop", spec)]}
}

test_container_non_root_overrides_pod_false if {
	spec := {"securityContext": {"runAsNonRoot": false}, "containers": [{"name": "a", "securityContext": object.union(hardened, non_root)}]}
	data.check.result with input as {"items": [pod("shop", spec)]}
}

test_container_overriding_non_root_with_false_violates if {
	spec := {"securityContext": non_root, "containers": [{"name": "a", "securityContext": object.union(hardened, {"runAsNonRoot": false})}]}
	not data.check.result with input as {"items": [pod("shop", spec)]}
}

test_run_as_user_without_run_as_non_root_violates if {
	spec := {"securityContext": {"runAsUser": 65534}, "containers": [{"name": "a", "securityContext": hardened}]}
	not data.check.result with input as {"items": [pod("shop", spec)]}
}

test_writable_root_in_second_container_violates if {
	spec := {"securityContext": non_root, "containers": [{"name": "a", "securityContext": hardened}, {"name": "b", "securityContext": {"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": false}}]}
	not data.check.result with input as {"items": [pod("shop", spec)]}
}

test_unset_privilege_escalation_in_init_container_violates if {
	spec := {"securityContext": non_root, "initContainers": [{"name": "i", "securityContext": {"readOnlyRootFilesystem": true}}], "containers": [{"name": "a", "securityContext": hardened}]}
	job := {"kind": "Job", "metadata": {"name": "j", "namespace": "batch"}, "spec": {"template": {"spec": spec}}}
	not data.check.result with input as {"items": [job]}
}

test_bare_ephemeral_container_violates if {
	spec := {"securityContext": non_root, "containers": [{"name": "a", "securityContext": hardened}], "ephemeralContainers": [{"name": "debug"}]}
	not data.check.result with input as {"items": [pod("ops", spec)]}
}

test_cronjob_template_checked if {
	spec := {"containers": [{"name": "a", "securityContext": hardened}]}
	cronjob := {"kind": "CronJob", "metadata": {"name": "c", "namespace": "batch"}, "spec": {"jobTemplate": {"spec": {"template": {"spec": spec}}}}}
	not data.check.result with input as {"items": [cronjob]}
}

test_string_values_do_not_count if {
	spec := {"securityContext": non_root, "containers": [{"name": "a", "securityContext": {"allowPrivilegeEscalation": "false", "readOnlyRootFilesystem": "true"}}]}
	not data.check.result with input as {"items": [pod("shop", spec)]}
}

test_system_namespace_is_exempt if {
	data.check.result with input as {"items": [pod("kube-system", {"containers": [{"name": "a"}]})]}
}
