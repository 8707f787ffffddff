package check_test

import rego.v1

pod(ns, spec) := {"kind": "Pod", "metadata": {"name": "p", "namespace": ns}, "spec": spec}

profile(type) := {"seccompProfile": {"type": type}}

test_no_profile_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [{"name": "c"}]})]}
}

test_pod_level_runtime_default_complies if {
	spec := {"securityContext": profile("RuntimeDefault"), "containers": [{"name": "a"}, {"name": "b"}], "ephemeralContainers": [{"name": "e"}]}
	data.check.result with input as {"items": [pod("shop", spec)]}
}

test_localhost_complies if {
	spec := {"securityContext": {"seccompProfile": {"type": "Localhost", "localhostProfile": "profiles/a.json"}}, "containers": [{"name": "a"}]}
	data.check.result with input as {"items": [pod("shop", spec)]}
}

test_pod_level_unconfined_violates if {
	not data.check.result with input as {"items": [pod("shop", {"securityContext": profile("Unconfined"), "containers": [{"name": "a"}]})]}
}

test_second_container_overriding_with_unconfined_violates if {
	spec := {"securityContext": profile("RuntimeDefault"), "containers": [{"name": "a"}, {"name": "b", "securityContext": profile("Unconfined")}]}
	not data.check.result with input as {"items": [pod("shop", spec)]}
}

test_every_container_overriding_pod_unconfined_complies if {
	spec := {"securityContext": profile("Unconfined"), "initContainers": [{"name": "i", "securityContext": profile("RuntimeDefault")}], "containers": [{"name": "a", "securityContext": profile("Localhost")}]}
	data.check.result with input as {"items": [pod("shop", spec)]}
}

test_ephemeral_container_without_profile_violates if {
	spec := {"containers": [{"name": "a", "securityContext": profile("RuntimeDefault")}], "ephemeralContainers": [{"name": "debug"}]}
	not data.check.result with input as {"items": [pod("ops", spec)]}
}

test_init_container_in_cronjob_without_profile_violates if {
	spec := {"initContainers": [{"name": "i"}], "containers": [{"name": "a", "securityContext": profile("RuntimeDefault")}]}
	cronjob := {"kind": "CronJob", "metadata": {"name": "c", "namespace": "batch"}, "spec": {"jobTemplate": {"spec": {"template": {"spec": spec}}}}}
	not data.check.result with input as {"items": [cronjob]}
}

test_annotation_only_violates if {
	template := {"metadata": {"annotations": {"seccomp.security.alpha.kubernetes.io/pod": "runtime/default"}}, "spec": {"containers": [{"name": "a"}]}}
	sts := {"kind": "StatefulSet", "metadata": {"name": "s", "namespace": "data"}, "spec": {"template": template}}
	not data.check.result with input as {"items": [sts]}
}

test_other_workload_kinds_checked if {
	every kind in ["Deployment", "DaemonSet", "ReplicaSet", "Job"] {
		obj := {"kind": kind, "metadata": {"name": "w", "namespace": "shop"}, "spec": {"template": {"spec": {"containers": [{"name": "a"}]}}}}
		not data.check.result with input as {"items": [obj]}
	}
}

test_system_namespace_is_exempt if {
	data.check.result with input as {"items": [pod("kube-system", {"securityContext": profile("Unconfined"), "containers": [{"name": "a"}]})]}
}

test_single_object_input if {
	not data.check.result with input as pod("shop", {"containers": [{"name": "a"}]})
}
