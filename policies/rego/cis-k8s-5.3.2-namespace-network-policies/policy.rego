# CIS Kubernetes 5.3.2: every namespace has at least one NetworkPolicy of its own.
# Input: `kubectl get namespaces,networkpolicies -A -o json` (a List).
package check

import rego.v1

default result := true

result := false if {
	some namespace in objects
	namespace.kind == "Namespace"
	not namespace.metadata.name in {"kube-system", "kube-public", "kube-node-lease"}
	not namespace.metadata.name in protected
}

objects := input.items if input.items

objects := [input] if not input.items

# A NetworkPolicy applies to the namespace it lives in (a static manifest without one: default),
# whatever its name or selectors say.
protected contains object.get(policy.metadata, "namespace", "default") if {
	some policy in objects
	policy.kind == "NetworkPolicy"
}
