# expect: fail — destructive, wrong object: delete Chaos Mesh's controller-manager Deployment to "stop the chaos"; the PodChaos object and its injected failure stay (nothing is left to recover the pods) and the chaos tooling is broken.
kubectl get deploy -A -o jsonpath='{range .items[*]}{.metadata.namespace} {.metadata.name}{"\n"}{end}' |
  awk '$2 ~ /chaos-controller-manager/' | while read ns d; do kubectl delete deploy "$d" -n "$ns"; done
true
