# expect: pass — find the Deployment that wants 0 replicas and set spec.replicas to 1 with a JSON patch (replace).
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas}{"\n"}{end}' | awk '$2=="0" {print $1}'); do
  kubectl patch deploy "$d" -n "$NS" --type=json -p '[{"op":"replace","path":"/spec/replicas","value":1}]'
done
true
