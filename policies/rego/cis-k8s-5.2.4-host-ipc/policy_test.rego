package check_test

import rego.v1

pod_spec(host_ipc) := {"hostIPC": host_ipc, "containers": [{"name": "c", "image": "nginx"}]}

deployment(ns, host_ipc) := {
	"kind": "Deployment",
	"metadata": {"name": "d", "namespace": ns},
	"spec": {"template": {"spec": pod_spec(host_ipc)}},
}

test_host_ipc_deployment_violates if {
	not data.check.result with input as {"items": [deployment("paa", true)]}
}

test_host_ipc_false_complies if {
	data.check.result with input as {"items": [deployment("paa", false)]}
}

test_host_ipc_unset_complies if {
	data.check.result with input as {"items": [{"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}]}}]}
}

test_cronjob_job_template_violates if {
	cronjob := {"kind": "CronJob", "metadata": {"name": "c", "namespace": "batch"}, "spec": {"jobTemplate": {"spec": {"template": {"spec": pod_spec(true)}}}}}
	not data.check.result with input as {"items": [cronjob]}
}

test_daemonset_and_statefulset_templates_violate if {
	every kind in ["DaemonSet", "StatefulSet", "Job", "ReplicaSet"] {
		obj := object.union(deployment("ops", true), {"kind": kind})
		not data.check.result with input as {"items": [obj]}
	}
}

test_single_pod_object_violates if {
	not data.check.result with input as {"kind": "Pod", "metadata": {"name": "p", "namespace": "ops"}, "spec": pod_spec(true)}
}

test_system_namespace_is_exempt if {
	data.check.result with input as {"items": [deployment("kube-system", true), deployment("kube-node-lease", true)]}
}

test_pod_without_namespace_is_not_exempt if {
	not data.check.result with input as {"items": [{"kind": "Pod", "metadata": {"name": "p"}, "spec": pod_spec(true)}]}
}

test_memory_backed_dev_shm_is_not_host_ipc if {
	spec := {
		"containers": [{"name": "c", "volumeMounts": [{"name": "dshm", "mountPath": "/dev/shm"}]}],
		"volumes": [{"name": "dshm", "emptyDir": {"medium": "Memory"}}],
	}
	data.check.result with input as {"items": [{"kind": "Pod", "metadata": {"name": "p", "namespace": "shop"}, "spec": spec}]}
}

test_label_mentioning_host_ipc_complies if {
	job := {"kind": "Job", "metadata": {"name": "j", "namespace": "batch", "labels": {"ipc-mode": "host"}}, "spec": {"template": {"spec": pod_spec(false)}}}
	data.check.result with input as {"items": [job]}
}

test_empty_cluster_complies if {
	data.check.result with input as {"apiVersion": "v1", "kind": "List", "items": []}
}
