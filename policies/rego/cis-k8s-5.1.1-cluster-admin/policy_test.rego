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

test_cluster_role_binding_violates if {
	violates(binding("ClusterRoleBinding", "ci-admin", "ClusterRole", "cluster-admin", [user("ci")]))
}

test_role_binding_to_cluster_admin_violates if {
	violates(binding("RoleBinding", "team-admins", "ClusterRole", "cluster-admin", [group("leads")]))
}

test_lookalike_label_value_violates if {
	obj := object.union(
		binding("ClusterRoleBinding", "cluster-admin-oncall", "ClusterRole", "cluster-admin", [user("a")]),
		{"metadata": {"labels": {"kubernetes.io/bootstrapping": "custom"}}},
	)
	violates(obj)
}

test_builtin_binding_exempt if {
	obj := object.union(
		binding("ClusterRoleBinding", "cluster-admin", "ClusterRole", "cluster-admin", [group("system:masters")]),
		{"metadata": {"labels": {"kubernetes.io/bootstrapping": "rbac-defaults"}}},
	)
	complies(obj)
}

test_system_prefix_exempt if complies(binding("ClusterRoleBinding", "system:x", "ClusterRole", "cluster-admin", [user("a")]))

test_kube_system_exempt if {
	obj := object.union(binding("RoleBinding", "b", "ClusterRole", "cluster-admin", [user("a")]), {"metadata": {"namespace": "kube-system"}})
	complies(obj)
}

test_namespaced_role_named_cluster_admin_complies if {
	complies(binding("RoleBinding", "b", "Role", "cluster-admin", [user("a")]))
}

test_admin_cluster_role_complies if complies(binding("RoleBinding", "b", "ClusterRole", "admin", [user("a")]))

test_cluster_admin_role_object_ignored if {
	complies({"kind": "ClusterRole", "metadata": {"name": "cluster-admin"}, "rules": []})
}
