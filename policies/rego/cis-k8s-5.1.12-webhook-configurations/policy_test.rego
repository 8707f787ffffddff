package check_test

import rego.v1

role(kind, name, rules) := {"kind": kind, "metadata": {"name": name, "namespace": "team-a"}, "rules": rules}

rule(groups, resources, verbs) := {"apiGroups": groups, "resources": resources, "verbs": verbs}

violates(obj) if not data.check.result with input as {"items": [obj]}

complies(obj) if data.check.result with input as {"items": [obj]}

adm := "admissionregistration.k8s.io"

test_empty_list_complies if data.check.result with input as {"items": []}

test_create_validating_violates if violates(role("ClusterRole", "r", [rule([adm], ["validatingwebhookconfigurations"], ["create"])]))

test_patch_mutating_in_second_rule_violates if {
	violates(role("ClusterRole", "r", [rule([""], ["secrets"], ["get"]), rule([adm], ["mutatingwebhookconfigurations"], ["patch"])]))
}

test_wildcard_resource_violates if violates(role("ClusterRole", "r", [rule([adm], ["*"], ["update"])]))

test_wildcard_group_and_verb_violates if violates(role("Role", "r", [rule(["*"], ["mutatingwebhookconfigurations"], ["*"])]))

test_deletecollection_violates if violates(role("ClusterRole", "r", [rule([adm], ["validatingwebhookconfigurations"], ["deletecollection"])]))

test_read_only_complies if complies(role("ClusterRole", "r", [rule([adm], ["validatingwebhookconfigurations", "mutatingwebhookconfigurations"], ["get", "list", "watch"])]))

test_admission_policies_comply if complies(role("ClusterRole", "r", [rule([adm], ["validatingadmissionpolicies"], ["create"])]))

test_look_alike_in_other_group_complies if complies(role("ClusterRole", "r", [rule(["gateway.example.com"], ["webhookconfigurations"], ["*"])]))

test_system_role_exempt if complies(role("ClusterRole", "system:controller:x", [rule([adm], ["mutatingwebhookconfigurations"], ["patch"])]))

test_bootstrapping_label_exempt if {
	complies({"kind": "ClusterRole", "metadata": {"name": "admin", "labels": {"kubernetes.io/bootstrapping": "rbac-defaults"}}, "rules": [rule([adm], ["*"], ["*"])]})
}
