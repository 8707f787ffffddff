# CIS Kubernetes 5.1.5: default service accounts are not actively used. A pod spec that runs as
# the default ServiceAccount must not mount its token.
# Input: `kubectl get pods,deployments,statefulsets,... -A -o json` (a List), or one object.
package check

import rego.v1

default result := true

result := false if {
	some [_, spec] in pod_specs
	service_account(spec) == "default"
	object.get(spec, "automountServiceAccountToken", true) != false
}

# serviceAccountName wins; the deprecated serviceAccount field is its alias; neither (or empty)
# means default.
service_account(spec) := name if {
	names := [candidate |
		some field in ["serviceAccountName", "serviceAccount"]
		candidate := object.get(spec, field, "")
		is_string(candidate)
		candidate != ""
	]
	name := array.concat(names, ["default"])[0]
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
