package check_test

import rego.v1

test_privileged_init_container_violates if {
	pod := {"kind": "Pod", "spec": {"containers": [{"name": "a"}], "initContainers": [{"name": "b", "securityContext": {"privileged": true}}]}}
	not data.check.result with input as pod
}

test_unprivileged_pod_complies if {
	pod := {"kind": "Pod", "spec": {"containers": [{"name": "a", "securityContext": {"privileged": false}}]}}
	data.check.result with input as pod
}

todo_test_ephemeral_containers if {
	false
}
