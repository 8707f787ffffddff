#!/usr/bin/env bash
# Every object the policy reads, as one List.
set -euo pipefail
kubectl get clusterrolebindings,rolebindings -A -o json > collected_data.json
