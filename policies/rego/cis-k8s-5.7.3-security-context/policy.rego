# CIS Kubernetes 5.7.3: apply a security context to pods and containers. In every Pod and
# workload template outside the system namespaces, each container, init container and ephemeral
# container must run with runAsNonRoot: true (its own setting, or the pod's when it has none) and
# set allowPrivilegeEscalation: false and readOnlyRootFilesystem: true in its own securityContext
# (neither field exists at pod level). A non-zero runAsUser is not runAsNonRoot: the requirement
# asks for the field the kubelet enforces whatever user the image declares.
package check

import rego.v1

default result := true

result := false if {
	some spec in pod_specs
	some container in containers(spec)
	not runs_as_non_root(spec, container)
}

result := false if {
	some spec in pod_specs
	some container in containers(spec)
	not container.securityContext.allowPrivilegeEscalation == false
}

result := false if {
	some spec in pod_specs
	some container in containers(spec)
	not container.securityContext.readOnlyRootFilesystem == true
}

# The container's own setting wins; the pod's applies when the container has none.
runs_as_non_root(_, container) if container.securityContext.runAsNonRoot == true

runs_as_non_root(spec, container) if {
	object.get(container, ["securityContext", "runAsNonRoot"], null) == null
	spec.securityContext.runAsNonRoot == true
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
