package check_test

import rego.v1

pod(ns, spec) := {"kind": "Pod", "metadata": {"name": "p", "namespace": ns}, "spec": spec}

hardened := {"name": "ok", "securityContext": {"allowPrivilegeEscalation": false}}

escalating := {"name": "bad", "securityContext": {"allowPrivilegeEscalation": true}}

unset := {"name": "unset", "securityContext": {"runAsUser": 1000}}

test_explicit_true_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [hardened, escalating]})]}
}

test_unset_flag_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [unset]})]}
}

test_missing_security_context_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [{"name": "bare"}]})]}
}

test_unset_in_init_container_violates if {
	not data.check.result with input as {"items": [pod("shop", {"containers": [hardened], "initContainers": [unset]})]}
}

test_unset_in_ephemeral_container_violates if {
	not data.check.result with input as {"items": [pod("ops", {"containers": [hardened], "ephemeralContainers": [{"name": "debug"}]})]}
}

test_cronjob_template_violates if {
	cronjob := {"kind": "CronJob", "metadata": {"name": "c", "namespace": "batch"}, "spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c"}]}}}}}}
	not data.check.result with input as {"items": [cronjob]}
}

test_string_false_is_not_false if {
	quoted := {"name": "q", "securityContext": {"allowPrivilegeEscalation": "false"}}
	not data.check.result with input as {"items": [pod("shop", {"containers": [quoted]})]}
}

test_every_container_false_complies if {
	data.check.result with input as {"items": [pod("shop", {"containers": [hardened, hardened], "initContainers": [hardened], "ephemeralContainers": [hardened]})]}
}

test_system_namespace_is_exempt if {
	data.check.result with input as {"items": [pod("kube-system", {"containers": [escalating, unset]})]}
}
