# CIS Kubernetes 5.4.1: secrets as files, not environment variables (secretKeyRef, envFrom
# secretRef) in any container list. Input: `kubectl get pods,deployments,... -A -o json`.
package check

import rego.v1

default result := true

result := false if {
	some [_, spec] in pod_specs
	some list in ["containers", "initContainers", "ephemeralContainers"]
	some container in object.get(spec, list, [])
	secret_in_environment(container)
}

secret_in_environment(container) if {
	some var in container.env
	var.valueFrom.secretKeyRef
}

secret_in_environment(container) if {
	some source in container.envFrom
	source.secretRef
}

objects := input.items if input.items

objects := [input] if not input.items

# Every object that carries a pod spec, with that spec; system namespaces are exempt. An object
# without a namespace (a static manifest) lands in default.
pod_specs contains [obj, spec] if {
	some obj in objects
	spec := pod_spec(obj)
	not object.get(obj, ["metadata", "namespace"], "default") in {"kube-system", "kube-public", "kube-node-lease"}
}

pod_spec(obj) := obj.spec if obj.kind == "Pod"

pod_spec(obj) := obj.spec.template.spec if {
	obj.kind in {"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ReplicationController", "Job"}
}

pod_spec(obj) := obj.spec.jobTemplate.spec.template.spec if obj.kind == "CronJob"
