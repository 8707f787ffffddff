# CIS Kubernetes 5.2.5: minimize the admission of containers wishing to share the host network
# namespace. Input: what `kubectl get deploy,pods -A -o json` prints (a List), or one object.
package check

import rego.v1

default result := true

result := false if {
	some workload in workloads
	pod_spec(workload).hostNetwork == true
}

workloads := input.items if input.items

workloads := [input] if not input.items

pod_spec(obj) := obj.spec.template.spec if obj.spec.template.spec

pod_spec(obj) := obj.spec.jobTemplate.spec.template.spec if obj.spec.jobTemplate

pod_spec(obj) := obj.spec if obj.kind == "Pod"
