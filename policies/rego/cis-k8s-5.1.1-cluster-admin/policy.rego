# CIS Kubernetes 5.1.1: the cluster-admin ClusterRole is bound only by the built-in bindings.
# Input: `kubectl get clusterrolebindings,rolebindings -A -o json` (a List), or one object.
package check

import rego.v1

default result := true

# A RoleBinding may reference the ClusterRole too; a namespaced Role named cluster-admin is not it.
result := false if {
	some binding in bindings
	binding.roleRef.kind == "ClusterRole"
	binding.roleRef.name == "cluster-admin"
}

objects := input.items if input.items

objects := [input] if not input.items

bindings contains obj if {
	some obj in objects
	obj.kind in {"RoleBinding", "ClusterRoleBinding"}
	not exempt(obj)
}

# Built-in bindings that Kubernetes itself creates and maintains.
exempt(obj) if startswith(obj.metadata.name, "system:")

exempt(obj) if obj.metadata.labels["kubernetes.io/bootstrapping"] == "rbac-defaults"

exempt(obj) if obj.metadata.namespace in {"kube-system", "kube-public", "kube-node-lease"}
