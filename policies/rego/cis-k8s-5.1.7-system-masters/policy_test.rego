package check_test

import rego.v1

binding(kind, name, role_kind, role_name, subjects) := {
	"kind": kind,
	"metadata": {"name": name, "namespace": "team-a"},
	"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": role_kind, "name": role_name},
	"subjects": subjects,
}

user(name) := {"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": name}

group(name) := {"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": name}

violates(obj) if not data.check.result with input as {"items": [obj]}

complies(obj) if data.check.result with input as {"items": [obj]}

test_empty_list_complies if data.check.result with input as {"items": []}

test_plain_binding_violates if {
	violates(binding("ClusterRoleBinding", "b", "ClusterRole", "cluster-admin", [group("system:masters")]))
}

test_second_subject_violates if {
	violates(binding("ClusterRoleBinding", "b", "ClusterRole", "admin", [user("ops"), group("system:masters")]))
}

test_read_only_role_binding_violates if {
	violates(binding("RoleBinding", "b", "ClusterRole", "view", [group("system:masters")]))
}

test_builtin_binding_exempt if {
	obj := object.union(
		binding("ClusterRoleBinding", "cluster-admin", "ClusterRole", "cluster-admin", [group("system:masters")]),
		{"metadata": {"labels": {"kubernetes.io/bootstrapping": "rbac-defaults"}}},
	)
	complies(obj)
}

test_kube_system_exempt if {
	obj := object.union(binding("RoleBinding", "b", "ClusterRole", "view", [group("system:masters")]), {"metadata": {"namespace": "kube-system"}})
	complies(obj)
}

test_user_with_group_name_complies if {
	complies(binding("ClusterRoleBinding", "b", "ClusterRole", "admin", [user("system:masters")]))
}

test_similar_group_names_comply if {
	complies(binding("RoleBinding", "b", "ClusterRole", "view", [group("system:masters-readonly"), group("masters")]))
}

test_binding_without_subjects_complies if {
	complies({"kind": "ClusterRoleBinding", "metadata": {"name": "b"}, "roleRef": {"kind": "ClusterRole", "name": "view"}})
}
