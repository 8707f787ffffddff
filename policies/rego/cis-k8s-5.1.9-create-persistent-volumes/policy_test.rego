package check_test

import rego.v1

role(kind, name, rules) := {"kind": kind, "metadata": {"name": name, "namespace": "team-a"}, "rules": rules}

rule(groups, resources, verbs) := {"apiGroups": groups, "resources": resources, "verbs": verbs}

violates(obj) if not data.check.result with input as {"items": [obj]}

complies(obj) if data.check.result with input as {"items": [obj]}

test_empty_list_complies if data.check.result with input as {"items": []}

test_non_resource_rule_complies if complies(role("ClusterRole", "r", [{"nonResourceURLs": ["/healthz"], "verbs": ["get"]}]))

test_aggregated_role_without_rules_complies if {
	complies({"kind": "ClusterRole", "metadata": {"name": "agg"}, "aggregationRule": {}})
}

test_create_pv_violates if violates(role("ClusterRole", "r", [rule([""], ["persistentvolumes"], ["create"])]))

test_wildcard_verb_in_second_rule_violates if {
	violates(role("ClusterRole", "r", [rule(["storage.k8s.io"], ["storageclasses"], ["get"]), rule([""], ["persistentvolumes"], ["*"])]))
}

test_core_wildcard_resource_violates if violates(role("ClusterRole", "r", [rule([""], ["*"], ["create"])]))

test_wildcard_group_violates if violates(role("ClusterRole", "r", [rule(["*"], ["persistentvolumes"], ["create"])]))

test_create_claims_complies if complies(role("Role", "r", [rule([""], ["persistentvolumeclaims"], ["create"])]))

test_read_pv_complies if complies(role("ClusterRole", "r", [rule([""], ["persistentvolumes"], ["get", "list", "watch"])]))

test_wildcard_resource_other_group_complies if {
	complies(role("ClusterRole", "r", [rule(["snapshot.storage.k8s.io"], ["*"], ["create"])]))
}

test_provisioner_exempt if {
	complies(role("ClusterRole", "system:persistent-volume-provisioner", [rule([""], ["persistentvolumes"], ["create"])]))
}
