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

test_create_pods_violates if violates(role("Role", "r", [rule([""], ["pods"], ["create"])]))

test_create_cronjobs_in_second_rule_violates if {
	violates(role("Role", "r", [rule([""], ["pods"], ["get"]), rule(["batch"], ["cronjobs"], ["create"])]))
}

test_wildcard_verb_on_deployments_violates if violates(role("ClusterRole", "r", [rule(["apps"], ["deployments"], ["*"])]))

test_wildcard_resource_violates if violates(role("Role", "r", [rule([""], ["*"], ["create"])]))

test_wildcard_group_violates if violates(role("Role", "r", [rule(["*"], ["daemonsets"], ["create"])]))

test_pod_subresources_comply if {
	complies(role("Role", "r", [rule([""], ["pods/exec", "pods/eviction", "pods/portforward"], ["create"])]))
}

test_patch_deployments_complies if complies(role("Role", "r", [rule(["apps"], ["deployments"], ["update", "patch"])]))

test_create_configmaps_complies if complies(role("Role", "r", [rule([""], ["configmaps"], ["create"])]))

test_wildcard_resource_in_unrelated_group_complies if {
	complies(role("Role", "r", [rule(["monitoring.coreos.com"], ["*"], ["create"])]))
}

test_builtin_roles_exempt if {
	complies(role("ClusterRole", "system:controller:job-controller", [rule([""], ["pods"], ["create"])]))
	complies({"kind": "Role", "metadata": {"name": "r", "namespace": "kube-system"}, "rules": [rule(["apps"], ["daemonsets"], ["create"])]})
}
