"""The entries of an incident snapshot folder an agent is given (the rest of a scenario folder,
ground truth first, stays out of its workspace). Its own module: the diagnosis scenarios
(``sre.agents.scenarios``) and the mitigation suite (``sre.twin.suite``) both copy them, and
neither may import the other."""

SNAPSHOT_ENTRIES = ("alerts", "metrics", "k8s_events_raw.tsv", "k8s_objects_raw.tsv",
                    "otel_logs_raw.tsv", "otel_traces_raw.tsv", "operational_topology.json")  # fmt: skip
