package check_test

import rego.v1

pod(ns, spec) := {"kind": "Pod", "metadata": {"name": "p", "namespace": ns}, "spec": spec}

with_ports(ports) := {"name": "c", "image": "nginx", "ports": ports}

test_host_port_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [with_ports([{"containerPort": 80, "hostPort": 80}])]})]}
}

test_host_port_on_second_port_violates if {
	ports := [{"containerPort": 8080}, {"containerPort": 8443, "hostPort": 443}]
	not data.check.result with input as {"items": [pod("shop", {"containers": [with_ports(ports)]})]}
}

test_host_port_in_second_container_violates if {
	ds := {"kind": "DaemonSet", "metadata": {"name": "d", "namespace": "ops"}, "spec": {"template": {"spec": {"containers": [{"name": "a"}, with_ports([{"containerPort": 9100, "hostPort": 9100}])]}}}}
	not data.check.result with input as {"items": [ds]}
}

test_host_port_in_init_container_violates if {
	sts := {"kind": "StatefulSet", "metadata": {"name": "s", "namespace": "payments"}, "spec": {"template": {"spec": {"containers": [{"name": "a"}], "initContainers": [with_ports([{"containerPort": 1, "hostPort": 5433}])]}}}}
	not data.check.result with input as {"items": [sts]}
}

test_cronjob_template_violates if {
	cronjob := {"kind": "CronJob", "metadata": {"name": "c", "namespace": "batch"}, "spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [with_ports([{"containerPort": 53, "hostPort": 53, "protocol": "UDP"}])]}}}}}}
	not data.check.result with input as {"items": [cronjob]}
}

test_host_port_zero_complies if {
	data.check.result with input as {"items": [pod("shop", {"containers": [with_ports([{"containerPort": 8080, "hostPort": 0}])]})]}
}

test_container_port_named_host_port_complies if {
	data.check.result with input as {"items": [pod("shop", {"containers": [with_ports([{"name": "host-port", "containerPort": 443}])]})]}
}

test_system_namespace_is_exempt if {
	data.check.result with input as {"items": [pod("kube-system", {"containers": [with_ports([{"containerPort": 80, "hostPort": 80}])]})]}
}
