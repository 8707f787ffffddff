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

test_all_wildcards_violates if violates(role("ClusterRole", "r", [rule(["*"], ["*"], ["*"])]))

test_wildcard_verbs_in_second_rule_violates if {
	violates(role("Role", "r", [rule([""], ["pods"], ["get"]), rule(["apps"], ["deployments"], ["*"])]))
}

test_wildcard_group_only_violates if violates(role("Role", "r", [rule(["*"], ["deployments"], ["get"])]))

test_wildcard_resource_only_violates if violates(role("Role", "r", [rule([""], ["*"], ["get"])]))

test_subresource_wildcard_violates if violates(role("Role", "r", [rule(["apps"], ["*/scale"], ["patch"])]))

test_explicit_rules_comply if {
	complies(role("Role", "r", [rule([""], ["pods", "pods/log"], ["get", "list"]), rule(["apps"], ["deployments/scale"], ["patch"])]))
}

test_non_resource_url_wildcard_complies if {
	complies(role("ClusterRole", "r", [{"nonResourceURLs": ["/livez*"], "verbs": ["get"]}]))
}

test_resource_names_star_complies if {
	complies(role("Role", "r", [object.union(rule([""], ["configmaps"], ["get"]), {"resourceNames": ["*"]})]))
}

test_annotation_with_star_complies if {
	obj := {"kind": "Role", "metadata": {"name": "r", "namespace": "a", "annotations": {"n": "*"}}, "rules": [rule([""], ["pods"], ["get"])]}
	complies(obj)
}

test_builtin_roles_exempt if {
	complies(role("ClusterRole", "system:gc", [rule(["*"], ["*"], ["*"])]))
	complies({"kind": "ClusterRole", "metadata": {"name": "cluster-admin", "labels": {"kubernetes.io/bootstrapping": "rbac-defaults"}}, "rules": [rule(["*"], ["*"], ["*"])]})
	complies({"kind": "Role", "metadata": {"name": "r", "namespace": "kube-system"}, "rules": [rule(["*"], ["*"], ["*"])]})
}

test_bootstrapping_label_with_other_value_not_exempt if {
	violates({"kind": "ClusterRole", "metadata": {"name": "x", "labels": {"kubernetes.io/bootstrapping": "custom"}}, "rules": [rule(["*"], ["*"], ["*"])]})
}
