package check

default result = false

result {
	input.kind == "Pod"
	not input.spec.hostNetwork
}
