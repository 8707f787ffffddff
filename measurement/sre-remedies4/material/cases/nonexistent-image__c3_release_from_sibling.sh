# expect: pass — the broken Deployment's image does not exist; read the release the healthy services run (ghcr.io/open-telemetry/demo:<release>-<service>) and set the broken one to the same release of its own service.
rel=$(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.spec.template.spec.containers[0].image}{"\n"}{end}' |
      sed -n -E 's#^ghcr.io/open-telemetry/demo:([0-9]+\.[0-9]+\.[0-9]+)-.*#\1#p' | sort | uniq -c | sort -rn | head -1 | awk '{print $2}')
for d in $(broken_deploys); do
  c=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].name}')
  [ -n "$rel" ] && kubectl set image deploy "$d" -n $NS "$c=ghcr.io/open-telemetry/demo:$rel-$d"
done
true
