#!/usr/bin/env bash
# Every Role and ClusterRole in the cluster, as one List.
set -euo pipefail
kubectl get roles,clusterroles -A -o json > collected_data.json
