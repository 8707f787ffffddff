package check_test

import rego.v1

namespace(name) := {"kind": "Namespace", "metadata": {"name": name}}

netpol(name, ns) := {"kind": "NetworkPolicy", "metadata": {"name": name, "namespace": ns}, "spec": {"podSelector": {}}}

check(items) if data.check.result with input as {"items": items}

test_namespace_without_policy_violates if not check([namespace("team-a")])

test_policy_in_another_namespace_does_not_count if {
	not check([namespace("team-b"), namespace("team-c"), netpol("team-b-deny-all", "team-c")])
}

test_one_of_two_namespaces_uncovered_violates if {
	not check([namespace("a"), namespace("b"), netpol("p", "a")])
}

test_every_namespace_covered_complies if {
	check([namespace("a"), namespace("b"), netpol("p", "a"), netpol("q", "b"), netpol("r", "b")])
}

test_allow_all_policy_counts if {
	allow_all := object.union(netpol("allow-all", "a"), {"spec": {"ingress": [{}]}})
	check([namespace("a"), allow_all])
}

test_static_policy_without_namespace_covers_default if {
	check([namespace("default"), {"kind": "NetworkPolicy", "metadata": {"name": "p"}}])
}

test_system_namespaces_exempt if {
	check([namespace("kube-system"), namespace("kube-public"), namespace("kube-node-lease")])
}

test_policies_without_namespaces_comply if check([netpol("p", "a")])

test_empty_list_complies if check([])
