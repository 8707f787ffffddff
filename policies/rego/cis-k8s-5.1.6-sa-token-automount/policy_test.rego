package check_test

import rego.v1

pod(spec) := {"kind": "Pod", "metadata": {"name": "p", "namespace": "team-a"}, "spec": spec}

deployment(spec) := {"kind": "Deployment", "metadata": {"name": "d", "namespace": "team-a"}, "spec": {"template": {"spec": spec}}}

cronjob(spec) := {
	"kind": "CronJob", "metadata": {"name": "c", "namespace": "team-a"},
	"spec": {"jobTemplate": {"spec": {"template": {"spec": spec}}}},
}

in_namespace(obj, ns) := object.union(obj, {"metadata": {"namespace": ns}})

violates(obj) if not data.check.result with input as {"items": [obj]}

complies(obj) if data.check.result with input as {"items": [obj]}

test_empty_list_complies if data.check.result with input as {"items": []}

containers := [{"name": "c", "image": "nginx"}]

test_unset_violates if violates(deployment({"containers": containers}))

test_explicit_true_violates if violates(pod({"automountServiceAccountToken": true, "containers": containers}))

test_cronjob_template_violates if violates(cronjob({"containers": containers}))

test_dedicated_service_account_still_needs_the_field if {
	violates(deployment({"serviceAccountName": "web", "containers": containers}))
}

test_statefulset_violates if {
	violates({"kind": "StatefulSet", "metadata": {"name": "s", "namespace": "a"}, "spec": {"template": {"spec": {"containers": containers}}}})
}

test_static_manifest_without_namespace_violates if {
	violates({"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": containers}})
}

test_false_complies if {
	complies(pod({"automountServiceAccountToken": false, "containers": containers}))
	complies(cronjob({"automountServiceAccountToken": false, "containers": containers}))
}

test_service_account_object_ignored if {
	complies({"kind": "ServiceAccount", "metadata": {"name": "default", "namespace": "a"}})
}

test_system_namespace_exempt if complies(in_namespace(deployment({"containers": containers}), "kube-system"))
