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

test_get_node_proxy_in_second_rule_violates if {
	violates(role("ClusterRole", "r", [rule([""], ["nodes"], ["get"]), rule([""], ["nodes/proxy"], ["get"])]))
}

test_any_verb_violates if violates(role("ClusterRole", "r", [rule([""], ["nodes/proxy"], ["create"])]))

test_star_proxy_violates if violates(role("ClusterRole", "r", [rule([""], ["*/proxy"], ["get"])]))

test_core_wildcard_resource_violates if violates(role("ClusterRole", "r", [rule([""], ["*"], ["list"])]))

test_wildcard_group_violates if violates(role("Role", "r", [rule(["*"], ["nodes/proxy"], ["get"])]))

test_node_metrics_complies if complies(role("ClusterRole", "r", [rule([""], ["nodes", "nodes/metrics", "nodes/stats"], ["get"])]))

test_other_proxy_subresources_comply if complies(role("Role", "r", [rule([""], ["services/proxy", "pods/proxy"], ["get"])]))

test_wildcard_resource_other_group_complies if complies(role("ClusterRole", "r", [rule(["metrics.k8s.io"], ["*"], ["get"])]))

test_kubelet_api_admin_exempt if complies(role("ClusterRole", "system:kubelet-api-admin", [rule([""], ["nodes/proxy"], ["*"])]))
