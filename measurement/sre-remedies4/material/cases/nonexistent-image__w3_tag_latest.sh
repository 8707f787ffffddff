# expect: fail — set the broken image to a `latest-<service>` tag; the demo publishes no such tag, so the pull still fails.
for d in $(broken_deploys); do
  c=$(kubectl get deploy "$d" -n $NS -o jsonpath='{.spec.template.spec.containers[0].name}')
  kubectl set image deploy "$d" -n $NS "$c=ghcr.io/open-telemetry/demo:latest-$d"
done
true
