#!/usr/bin/env bash
# Collect every object that carries a pod spec, in all namespaces, as one List (kubectl prints a
# List when several kinds are asked for). The cluster's KUBECONFIG comes from the environment.
set -euo pipefail
kubectl get pods,deployments,statefulsets,daemonsets,replicasets,jobs,cronjobs -A -o json \
	>collected_data.json
