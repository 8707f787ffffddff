package check_test

import rego.v1

obj(kind, name, ns) := {"kind": kind, "metadata": {"name": name, "namespace": ns}}

violates(o) if not data.check.result with input as {"items": [o]}

complies(o) if data.check.result with input as {"items": [o]}

test_deployment_in_default_violates if violates(obj("Deployment", "web", "default"))

test_cronjob_in_default_violates if violates(obj("CronJob", "cleanup", "default"))

test_secret_and_service_in_default_violate if {
	violates(obj("Secret", "api-key", "default"))
	violates(obj("Service", "web", "default"))
	violates(obj("PersistentVolumeClaim", "data", "default"))
}

test_missing_namespace_is_default if violates({"kind": "Pod", "metadata": {"name": "p"}})

test_similar_names_in_default_violate if {
	violates(obj("Service", "kubernetes-dashboard", "default"))
	violates(obj("ServiceAccount", "web", "default"))
	violates(obj("ConfigMap", "kubernetes", "default"))
}

test_built_in_objects_comply if {
	complies(obj("Service", "kubernetes", "default"))
	complies(obj("ServiceAccount", "default", "default"))
	complies(obj("ConfigMap", "kube-root-ca.crt", "default"))
}

test_other_namespaces_comply if {
	complies(obj("Deployment", "web", "default-apps"))
	complies(object.union(obj("Pod", "p", "ops"), {"metadata": {"labels": {"namespace": "default"}}}))
}

test_namespace_object_itself_complies if complies({"kind": "Namespace", "metadata": {"name": "default"}})

test_unchecked_kind_complies if complies(obj("NetworkPolicy", "deny-all", "default"))

test_single_object_input if not data.check.result with input as obj("Job", "j", "default")

test_empty_list_complies if data.check.result with input as {"items": []}
