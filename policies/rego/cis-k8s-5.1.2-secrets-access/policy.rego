# CIS Kubernetes 5.1.2: minimize access to secrets. No Role or ClusterRole may grant get, list or
# watch on secrets. Input: `kubectl get roles,clusterroles -A -o json` (a List), or one object.
package check

import rego.v1

default result := true

result := false if {
	some role in roles
	some rule in role.rules
	reads_secrets(rule)
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

# Secrets live in the core group (""); "*" stands for every group, resource or verb.
reads_secrets(rule) if {
	some group in rule.apiGroups
	group in {"", "*"}
	some resource in rule.resources
	resource in {"secrets", "*"}
	some verb in rule.verbs
	verb in {"get", "list", "watch", "*"}
}
