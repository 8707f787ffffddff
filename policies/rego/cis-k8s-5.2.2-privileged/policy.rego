# CIS Kubernetes 5.2.2: minimize the admission of privileged containers.
package check

import rego.v1

default result := true

result := false if {
	some obj in objects
	some container in containers(obj)
	container.securityContext.privileged == true
}

objects := input.items if input.items

objects := [input] if not input.items

containers(obj) := array.concat(object.get(spec(obj), "containers", []), object.get(spec(obj), "initContainers", []))

spec(obj) := obj.spec.template.spec if obj.spec.template.spec

spec(obj) := obj.spec if obj.kind == "Pod"
