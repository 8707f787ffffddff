package check_test

import rego.v1

pod(ns, volumes) := {"kind": "Pod", "metadata": {"name": "p", "namespace": ns}, "spec": {"containers": [{"name": "c"}], "volumes": volumes}}

host_path := {"name": "h", "hostPath": {"path": "/var/log"}}

empty_dir := {"name": "host-path-cache", "emptyDir": {}}

test_host_path_volume_violates if {
	not data.check.result with input as {"items": [pod("shop", [host_path])]}
}

test_host_path_as_second_volume_violates if {
	not data.check.result with input as {"items": [pod("shop", [empty_dir, host_path])]}
}

test_host_path_with_type_violates if {
	typed := {"name": "sock", "hostPath": {"path": "/var/run/docker.sock", "type": "Socket"}}
	not data.check.result with input as {"items": [pod("ops", [typed])]}
}

test_cronjob_template_violates if {
	cronjob := {"kind": "CronJob", "metadata": {"name": "c", "namespace": "batch"}, "spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c"}], "volumes": [host_path]}}}}}}
	not data.check.result with input as {"items": [cronjob]}
}

test_daemonset_template_violates if {
	ds := {"kind": "DaemonSet", "metadata": {"name": "d", "namespace": "ops"}, "spec": {"template": {"spec": {"containers": [{"name": "c"}], "volumes": [host_path]}}}}
	not data.check.result with input as {"items": [ds]}
}

test_other_volume_types_comply if {
	pvc := {"name": "data", "persistentVolumeClaim": {"claimName": "data"}}
	cm := {"name": "hostpath-config", "configMap": {"name": "hostpath"}}
	data.check.result with input as {"items": [pod("shop", [empty_dir, pvc, cm])]}
}

test_no_volumes_complies if {
	data.check.result with input as {"items": [{"kind": "Pod", "metadata": {"name": "p", "namespace": "shop"}, "spec": {"containers": [{"name": "c"}]}}]}
}

test_system_namespace_is_exempt if {
	data.check.result with input as {"items": [pod("kube-system", [host_path])]}
}
