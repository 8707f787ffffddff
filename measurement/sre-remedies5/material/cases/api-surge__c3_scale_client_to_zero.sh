# expect: pass — the API server answers 429 and a new pod is not bound: the workload flooding it is the newest Deployment, one with no Service of its own (an API client, not a demo service); stop it by scaling it to 0.
c=$(kubectl get deploy -n "$NS" --sort-by=.metadata.creationTimestamp -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' |
    while read d; do kubectl get svc "$d" -n "$NS" >/dev/null 2>&1 || echo "$d"; done | tail -1)
[ -n "$c" ] && { echo "flooding client: $c"; kubectl scale deploy "$c" -n "$NS" --replicas=0; }
true
