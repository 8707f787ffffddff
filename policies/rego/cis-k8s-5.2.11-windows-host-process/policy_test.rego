package check_test

import rego.v1

pod(ns, spec) := {"kind": "Pod", "metadata": {"name": "p", "namespace": ns}, "spec": spec}

host_process(value) := {"windowsOptions": {"hostProcess": value}}

plain := {"name": "ok", "image": "nanoserver"}

test_pod_level_host_process_violates if {
	not data.check.result with input as {"items": [pod("win", {"securityContext": host_process(true), "containers": [plain]})]}
}

test_container_level_host_process_violates if {
	ds := {"kind": "DaemonSet", "metadata": {"name": "d", "namespace": "win"}, "spec": {"template": {"spec": {"containers": [plain, {"name": "c", "securityContext": host_process(true)}]}}}}
	not data.check.result with input as {"items": [ds]}
}

test_init_container_host_process_violates if {
	job := {"kind": "Job", "metadata": {"name": "j", "namespace": "win"}, "spec": {"template": {"spec": {"containers": [plain], "initContainers": [{"name": "i", "securityContext": host_process(true)}]}}}}
	not data.check.result with input as {"items": [job]}
}

test_ephemeral_container_host_process_violates if {
	not data.check.result with input as {"items": [pod("win", {"containers": [plain], "ephemeralContainers": [{"name": "e", "securityContext": host_process(true)}]})]}
}

test_cronjob_template_violates if {
	cronjob := {"kind": "CronJob", "metadata": {"name": "c", "namespace": "win"}, "spec": {"jobTemplate": {"spec": {"template": {"spec": {"securityContext": host_process(true), "containers": [plain]}}}}}}
	not data.check.result with input as {"items": [cronjob]}
}

test_host_process_false_complies if {
	data.check.result with input as {"items": [pod("win", {"securityContext": host_process(false), "containers": [{"name": "c", "securityContext": host_process(false)}]})]}
}

test_other_windows_options_comply if {
	gmsa := {"name": "c", "securityContext": {"windowsOptions": {"gmsaCredentialSpecName": "x", "runAsUserName": "ContainerUser"}}}
	data.check.result with input as {"items": [pod("win", {"containers": [gmsa]})]}
}

test_system_namespace_is_exempt if {
	data.check.result with input as {"items": [pod("kube-system", {"securityContext": host_process(true), "containers": [plain]})]}
}
