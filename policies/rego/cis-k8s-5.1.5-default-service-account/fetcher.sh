#!/usr/bin/env bash
# Every object the policy reads, as one List.
set -euo pipefail
kubectl get pods,deployments,statefulsets,daemonsets,replicasets,replicationcontrollers,jobs,cronjobs -A -o json > collected_data.json
