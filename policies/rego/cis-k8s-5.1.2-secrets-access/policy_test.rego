package check_test

import rego.v1

role(kind, name, rules) := {"kind": kind, "metadata": {"name": name, "namespace": "team-a"}, "rules": rules}

rule(groups, resources, verbs) := {"apiGroups": groups, "resources": resources, "verbs": verbs}

violates(obj) if not data.check.result with input as {"items": [obj]}

complies(obj) if data.check.result with input as {"items": [obj]}

test_get_secrets_violates if violates(role("Role", "r", [rule([""], ["secrets"], ["get"])]))

test_watch_in_second_rule_violates if {
	violates(role("ClusterRole", "r", [rule([""], ["configmaps"], ["get"]), rule([""], ["secrets"], ["watch"])]))
}

test_wildcard_verb_violates if violates(role("ClusterRole", "r", [rule([""], ["secrets"], ["*"])]))

test_wildcard_resource_in_core_group_violates if violates(role("Role", "r", [rule([""], ["*"], ["list"])]))

test_wildcard_group_violates if violates(role("Role", "r", [rule(["*"], ["secrets"], ["get"])]))

test_single_object_input_violates if {
	not data.check.result with input as role("Role", "r", [rule([""], ["secrets"], ["get"])])
}

test_create_only_complies if complies(role("Role", "r", [rule([""], ["secrets"], ["create", "update"])]))

test_wildcard_resource_in_other_group_complies if complies(role("Role", "r", [rule(["apps"], ["*"], ["get"])]))

test_similar_resource_name_complies if {
	complies(role("Role", "r", [rule(["secrets-store.csi.x-k8s.io"], ["secretproviderclasses"], ["get"])]))
}

test_non_resource_rule_complies if complies(role("ClusterRole", "r", [{"nonResourceURLs": ["/healthz"], "verbs": ["get"]}]))

test_aggregated_role_without_rules_complies if {
	complies({"kind": "ClusterRole", "metadata": {"name": "agg"}, "aggregationRule": {}})
}

test_system_prefix_exempt if complies(role("ClusterRole", "system:x", [rule([""], ["secrets"], ["get"])]))

test_bootstrapping_label_exempt if {
	obj := {"kind": "ClusterRole", "metadata": {"name": "edit", "labels": {"kubernetes.io/bootstrapping": "rbac-defaults"}}, "rules": [rule([""], ["secrets"], ["get"])]}
	complies(obj)
}

test_kube_system_role_exempt if {
	complies({"kind": "Role", "metadata": {"name": "r", "namespace": "kube-system"}, "rules": [rule([""], ["secrets"], ["get"])]})
}

test_other_kinds_ignored if complies({"kind": "Secret", "metadata": {"name": "s", "namespace": "team-a"}})

test_empty_list_complies if data.check.result with input as {"items": []}
