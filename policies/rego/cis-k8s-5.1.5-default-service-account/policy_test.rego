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

test_unset_account_violates if violates(deployment({"containers": containers}))

test_explicit_default_in_cronjob_violates if violates(cronjob({"serviceAccountName": "default", "containers": containers}))

test_empty_account_name_violates if violates(pod({"serviceAccountName": "", "containers": containers}))

test_explicit_automount_true_violates if {
	violates(pod({"automountServiceAccountToken": true, "containers": containers}))
}

test_deprecated_field_default_violates if violates(pod({"serviceAccount": "default", "containers": containers}))

test_name_wins_over_deprecated_field if {
	violates(pod({"serviceAccountName": "default", "serviceAccount": "other", "containers": containers}))
}

test_dedicated_account_complies if complies(deployment({"serviceAccountName": "web", "containers": containers}))

test_similar_name_complies if complies(deployment({"serviceAccountName": "default-reader", "containers": containers}))

test_deprecated_field_dedicated_complies if complies(pod({"serviceAccount": "shipper", "containers": containers}))

test_default_without_token_complies if {
	complies(cronjob({"serviceAccountName": "default", "automountServiceAccountToken": false, "containers": containers}))
}

test_system_namespace_exempt if complies(in_namespace(deployment({"containers": containers}), "kube-system"))
