# expect: fail — no repair: `kubectl rollout restart` the flooding client (the newest Deployment with no Service of its name, any namespace); its new pods flood the API server at the same rate.
kubectl get deploy -A --sort-by=.metadata.creationTimestamp -o jsonpath='{range .items[*]}{.metadata.namespace} {.metadata.name}{"\n"}{end}' |
  awk '{l[NR]=$0} END {for (i=NR; i>0; i--) print l[i]}' | while read ns d; do
    kubectl get svc "$d" -n "$ns" >/dev/null 2>&1 && continue
    echo "restarting $ns/$d"; kubectl rollout restart deploy/"$d" -n "$ns"; break
  done
true
