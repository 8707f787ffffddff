package check_test

import rego.v1

role(kind, name, rules) := {"kind": kind, "metadata": {"name": name, "namespace": "team-a"}, "rules": rules}

rule(groups, resources, verbs) := {"apiGroups": groups, "resources": resources, "verbs": verbs}

violates(obj) if not data.check.result with input as {"items": [obj]}

complies(obj) if data.check.result with input as {"items": [obj]}

csr := "certificates.k8s.io"

test_empty_list_complies if data.check.result with input as {"items": []}

test_update_approval_violates if violates(role("ClusterRole", "r", [rule([csr], ["certificatesigningrequests/approval"], ["update"])]))

test_wildcard_verb_and_group_in_second_rule_violates if {
	violates(role("ClusterRole", "r", [rule([csr], ["certificatesigningrequests"], ["get"]), rule(["*"], ["certificatesigningrequests/approval"], ["*"])]))
}

test_any_resource_approval_violates if violates(role("Role", "r", [rule([csr], ["*/approval"], ["update"])]))

test_wildcard_resource_violates if violates(role("ClusterRole", "r", [rule([csr], ["*"], ["update"])]))

test_read_approval_complies if complies(role("ClusterRole", "r", [rule([csr], ["certificatesigningrequests/approval"], ["get", "list"])]))

test_status_update_complies if complies(role("ClusterRole", "r", [rule([csr], ["certificatesigningrequests/status"], ["update"])]))

test_other_group_approval_complies if complies(role("ClusterRole", "r", [rule(["changes.example.com"], ["changerequests/approval"], ["update"])]))

test_non_resource_rule_complies if complies(role("ClusterRole", "r", [{"nonResourceURLs": ["/healthz"], "verbs": ["get"]}]))

test_system_role_exempt if complies(role("ClusterRole", "system:controller:certificate-controller", [rule([csr], ["certificatesigningrequests/approval"], ["update"])]))

test_kube_system_role_exempt if {
	complies({"kind": "Role", "metadata": {"name": "r", "namespace": "kube-system"}, "rules": [rule([csr], ["certificatesigningrequests/approval"], ["update"])]})
}
