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

rbac := "rbac.authorization.k8s.io"

test_bind_clusterroles_violates if violates(role("ClusterRole", "r", [rule([rbac], ["clusterroles"], ["bind"])]))

test_escalate_roles_violates if violates(role("Role", "r", [rule([rbac], ["roles"], ["escalate"])]))

test_impersonate_in_second_rule_violates if {
	violates(role("Role", "r", [rule([""], ["pods"], ["get"]), rule([""], ["serviceaccounts"], ["impersonate"])]))
}

test_impersonate_users_and_groups_violates if violates(role("ClusterRole", "r", [rule([""], ["users", "groups"], ["impersonate"])]))

test_wildcard_verb_on_roles_violates if violates(role("ClusterRole", "r", [rule([rbac], ["roles"], ["*"])]))

test_wildcard_resource_violates if violates(role("ClusterRole", "r", [rule(["*"], ["*"], ["impersonate"])]))

test_read_roles_complies if complies(role("ClusterRole", "r", [rule([rbac], ["roles", "clusterroles"], ["get", "list", "watch"])]))

test_create_rolebindings_complies if complies(role("Role", "r", [rule([rbac], ["rolebindings"], ["create", "update"])]))

test_wildcard_verb_on_configmaps_complies if complies(role("Role", "r", [rule([""], ["configmaps"], ["*"])]))

test_pod_binding_subresource_complies if complies(role("ClusterRole", "r", [rule([""], ["pods/binding", "bindings"], ["create"])]))

test_builtin_exempt if {
	complies(role("ClusterRole", "system:controller:clusterrole-aggregation-controller", [rule([rbac], ["clusterroles"], ["escalate"])]))
	complies({"kind": "ClusterRole", "metadata": {"name": "admin", "labels": {"kubernetes.io/bootstrapping": "rbac-defaults"}}, "rules": [rule([""], ["serviceaccounts"], ["impersonate"])]})
}
