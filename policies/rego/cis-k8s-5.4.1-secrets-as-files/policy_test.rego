package check_test

import rego.v1

pod(spec) := {"kind": "Pod", "metadata": {"name": "p", "namespace": "team-a"}, "spec": spec}

deployment(spec) := {"kind": "Deployment", "metadata": {"name": "d", "namespace": "team-a"}, "spec": {"template": {"spec": spec}}}

cronjob(spec) := {
	"kind": "CronJob", "metadata": {"name": "c", "namespace": "team-a"},
	"spec": {"jobTemplate": {"spec": {"template": {"spec": spec}}}},
}

in_namespace(obj, ns) := object.union(obj, {"metadata": {"namespace": ns}})

violates(obj) if not data.check.result with input as {"items": [obj]}

complies(obj) if data.check.result with input as {"items": [obj]}

test_empty_list_complies if data.check.result with input as {"items": []}

secret_env := {"name": "PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}}

test_secret_key_ref_violates if violates(deployment({"containers": [{"name": "c", "env": [secret_env]}]}))

test_init_container_violates if {
	violates(deployment({"initContainers": [{"name": "i", "env": [secret_env]}], "containers": [{"name": "c"}]}))
}

test_ephemeral_container_violates if {
	violates(pod({"containers": [{"name": "c"}], "ephemeralContainers": [{"name": "e", "env": [secret_env]}]}))
}

test_env_from_in_second_container_of_cronjob_violates if {
	violates(cronjob({"containers": [{"name": "a"}, {"name": "b", "envFrom": [{"secretRef": {"name": "db"}}]}]}))
}

test_second_env_var_violates if {
	violates(pod({"containers": [{"name": "c", "env": [{"name": "A", "value": "1"}, secret_env]}]}))
}

test_secret_volume_complies if {
	complies(deployment({"containers": [{"name": "c", "volumeMounts": [{"name": "s", "mountPath": "/s"}]}], "volumes": [{"name": "s", "secret": {"secretName": "db"}}]}))
}

test_config_map_references_comply if {
	c := {"name": "c", "env": [{"name": "A", "valueFrom": {"configMapKeyRef": {"name": "m", "key": "a"}}}], "envFrom": [{"configMapRef": {"name": "m"}}]}
	complies(pod({"containers": [c]}))
}

test_secret_named_plain_value_complies if {
	complies(pod({"containers": [{"name": "c", "env": [{"name": "DB_PASSWORD_FILE", "value": "/etc/db/password"}]}]}))
}

test_system_namespace_exempt if {
	complies(in_namespace(deployment({"containers": [{"name": "c", "env": [secret_env]}]}), "kube-system"))
}
