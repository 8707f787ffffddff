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

test_create_token_violates if violates(role("Role", "r", [rule([""], ["serviceaccounts/token"], ["create"])]))

test_wildcard_verb_in_second_rule_violates if {
	violates(role("ClusterRole", "r", [rule([""], ["serviceaccounts"], ["create"]), rule([""], ["serviceaccounts/token"], ["*"])]))
}

test_star_token_violates if violates(role("Role", "r", [rule([""], ["*/token"], ["create"])]))

test_core_wildcard_resource_violates if violates(role("Role", "r", [rule([""], ["*"], ["create"])]))

test_create_serviceaccounts_complies if complies(role("Role", "r", [rule([""], ["serviceaccounts"], ["create"])]))

test_get_token_complies if complies(role("Role", "r", [rule([""], ["serviceaccounts/token"], ["get", "list"])]))

test_create_secrets_complies if complies(role("Role", "r", [rule([""], ["secrets"], ["create"])]))

test_builtin_exempt if {
	complies(role("ClusterRole", "system:kube-controller-manager", [rule([""], ["serviceaccounts/token"], ["create"])]))
	complies({"kind": "Role", "metadata": {"name": "r", "namespace": "kube-system"}, "rules": [rule([""], ["serviceaccounts/token"], ["create"])]})
}
