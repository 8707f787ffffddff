# CIS Kubernetes 5.1.12: minimize access to webhook configuration objects.
# Input: `kubectl get roles,clusterroles -A -o json` (a List), or one object.
package check

import rego.v1

default result := true

result := false if {
	some role in roles
	some rule in role.rules
	covers(rule.verbs, {"create", "update", "patch", "delete", "deletecollection"})
	covers(rule.apiGroups, {"admissionregistration.k8s.io"})
	covers_resource(rule.resources, {"validatingwebhookconfigurations", "mutatingwebhookconfigurations"})
}

# RBAC matching: "*" in a rule's list covers every value; in resources "*/<sub>" covers that
# subresource of every resource.
covers(values, wanted) if {
	some value in values
	value in wanted
}

covers(values, _) if "*" in values

covers_resource(resources, wanted) if covers(resources, wanted)

covers_resource(resources, wanted) if {
	some resource in resources
	startswith(resource, "*/")
	some target in wanted
	endswith(target, substring(resource, 1, -1))
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
