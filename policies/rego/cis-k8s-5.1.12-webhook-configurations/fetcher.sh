#!/usr/bin/env bash
# Every object the policy reads, as one List.
set -euo pipefail
kubectl get roles,clusterroles -A -o json > collected_data.json
