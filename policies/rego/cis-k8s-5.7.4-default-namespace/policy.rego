# CIS Kubernetes 5.7.4: the default namespace should not be used.
# Input: `kubectl get pods,deployments,...,services,configmaps,secrets,... -A -o json`.
package check

import rego.v1

default result := true

result := false if {
	some obj in objects
	obj.kind in checked_kinds
	# A static manifest without a namespace is applied to default.
	object.get(obj, ["metadata", "namespace"], "default") == "default"
	not kept_by_kubernetes(obj)
}

# An object without a name is no built-in one (and engines differ on `not` over undefined refs).
kept_by_kubernetes(obj) if [obj.kind, object.get(obj, ["metadata", "name"], "")] in built_in

objects := input.items if input.items

objects := [input] if not input.items

checked_kinds := {
	"Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ReplicationController",
	"Job", "CronJob", "Service", "ConfigMap", "Secret", "ServiceAccount", "PersistentVolumeClaim",
}

# Objects Kubernetes itself keeps in every cluster's default namespace.
built_in := {
	["Service", "kubernetes"],
	["ServiceAccount", "default"],
	["ConfigMap", "kube-root-ca.crt"],
}
