# CIS Kubernetes 5.1.7: avoid use of the system:masters group (bindings with it as a subject).
# Input: `kubectl get clusterrolebindings,rolebindings -A -o json` (a List), or one object.
package check

import rego.v1

default result := true

result := false if {
	some binding in bindings
	some subject in binding.subjects
	subject.kind == "Group"
	subject.name == "system:masters"
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
