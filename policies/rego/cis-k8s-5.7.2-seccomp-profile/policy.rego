# CIS Kubernetes 5.7.2: ensure that a seccomp profile is set. In every Pod and workload template
# outside the system namespaces, each container, init container and ephemeral container must run
# under seccompProfile.type RuntimeDefault or Localhost: its own securityContext's, or the pod's
# when it sets none. Unconfined, no profile, and the seccomp.security.alpha.kubernetes.io
# annotations (ignored by the kubelet since Kubernetes 1.27) do not comply.
package check

import rego.v1

default result := true

result := false if {
	some spec in pod_specs
	some container in containers(spec)
	not confining(effective_profile(spec, container))
}

confining(type) if type in {"RuntimeDefault", "Localhost"}

# The container's own type wins; the pod's applies when the container sets none.
effective_profile(spec, container) := object.get(
	container, ["securityContext", "seccompProfile", "type"],
	object.get(spec, ["securityContext", "seccompProfile", "type"], "none"),
)

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
