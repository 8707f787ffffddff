# CIS Kubernetes 5.2.8: minimize the admission of containers with the NET_RAW capability. Every
# container, init container and ephemeral container of a Pod or workload template outside the
# system namespaces must drop NET_RAW (or ALL) and must not add NET_RAW back. Container runtimes
# grant NET_RAW by default, so an unset capabilities block keeps it.
package check

import rego.v1

default result := true

result := false if {
	some spec in pod_specs
	some container in containers(spec)
	not drops_net_raw(container)
}

result := false if {
	some spec in pod_specs
	some container in containers(spec)
	some capability in capability_list(container, "add")
	upper(capability) == "NET_RAW"
}

# Names are compared case-insensitively, as the runtime upper-cases them.
drops_net_raw(container) if {
	some capability in capability_list(container, "drop")
	upper(capability) in {"NET_RAW", "ALL"}
}

# Where pod specs and containers live. Input: a List as `kubectl get <kinds> -A -o json`
# prints it, or a single object. Pods alone are not enough: a CronJob's template is no Pod until
# it runs, and static manifests hold only the controllers.

system_namespaces := {"kube-system", "kube-public", "kube-node-lease"}

objects := input.items if is_array(input.items)

objects := [input] if not input.items

# The pod spec of every Pod and workload template outside the system namespaces.
pod_specs contains spec if {
	some obj in objects
	not object.get(obj, ["metadata", "namespace"], "default") in system_namespaces
	spec := pod_spec(obj)
}

pod_spec(obj) := obj.spec if obj.kind == "Pod"

pod_spec(obj) := obj.spec.template.spec if obj.kind in template_kinds

pod_spec(obj) := obj.spec.jobTemplate.spec.template.spec if obj.kind == "CronJob"

template_kinds := {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ReplicationController", "Job"}

# Regular, init and ephemeral containers alike.
containers(spec) := [c |
	some field in ["containers", "initContainers", "ephemeralContainers"]
	some c in object.get(spec, field, [])
]

# The capabilities a container drops or adds; an absent or null list is empty (some .. in null
# is an error on some engines, undefined on others).
capability_list(container, which) := names if {
	names := object.get(container, ["securityContext", "capabilities", which], [])
	is_array(names)
} else := []
