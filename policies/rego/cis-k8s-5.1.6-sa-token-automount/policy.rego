# CIS Kubernetes 5.1.6: service account tokens only where necessary; here no workload needs one, so
# every pod spec must set automountServiceAccountToken: false.
# Input: `kubectl get pods,deployments,statefulsets,... -A -o json` (a List), or one object.
package check

import rego.v1

default result := true

# Unset means mounted (the default), so anything but an explicit false violates.
result := false if {
	some [_, spec] in pod_specs
	object.get(spec, "automountServiceAccountToken", true) != false
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
