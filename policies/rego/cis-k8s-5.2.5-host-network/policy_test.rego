package check_test

import rego.v1

deployment(host_network) := {"kind": "Deployment", "spec": {"template": {"spec": {"hostNetwork": host_network, "containers": [{"name": "c"}]}}}}

test_host_network_deployment_violates if {
	not data.check.result with input as {"items": [deployment(true)]}
}

test_plain_deployment_complies if {
	data.check.result with input as {"items": [deployment(false)]}
}

test_host_network_pod_violates if {
	not data.check.result with input as {"kind": "Pod", "spec": {"hostNetwork": true}}
}

test_empty_cluster_complies if {
	data.check.result with input as {"items": []}
}
