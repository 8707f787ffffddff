# CIS Kubernetes 5.1.3: minimize wildcard use in Roles and ClusterRoles ("*" in apiGroups,
# resources or verbs, or "*/<subresource>"). Input: `kubectl get roles,clusterroles -A -o json`.
package check

import rego.v1

default result := true

result := false if {
	some role in roles
	some rule in role.rules
	uses_wildcard(rule)
}

uses_wildcard(rule) if "*" in rule.apiGroups

uses_wildcard(rule) if "*" in rule.verbs

uses_wildcard(rule) if {
	some resource in rule.resources
	startswith(resource, "*")
}

objects := input.items if input.items

objects := [input] if not input.items

roles contains obj if {
	some obj in objects
	obj.kind in {"Role", "ClusterRole"}
	not exempt(obj)
}

# Built-in roles that Kubernetes itself creates and maintains.
exempt(obj) if startswith(obj.metadata.name, "system:")

exempt(obj) if obj.metadata.labels["kubernetes.io/bootstrapping"] == "rbac-defaults"

exempt(obj) if obj.metadata.namespace in {"kube-system", "kube-public", "kube-node-lease"}
