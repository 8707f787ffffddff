# expect: fail — wrong object: delete Chaos Mesh's chaos-daemon pods; the DaemonSet recreates them, the NetworkChaos object still asks for the loss and the controller re-applies it (the tc rules live in the target pods' network namespace anyway).
kubectl get pods -A -o jsonpath='{range .items[*]}{.metadata.namespace} {.metadata.name}{"\n"}{end}' |
  awk '$2 ~ /^chaos-daemon-/' | while read ns p; do kubectl delete pod "$p" -n "$ns" --wait=false; done
true
