# expect: pass — find the node(s) with spec.unschedulable=true and remove the field with a JSON patch (unset = schedulable, what uncordon does).
for n in $(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.spec.unschedulable}{"\n"}{end}' | awk '$2=="true" {print $1}'); do
  kubectl patch node "$n" --type=json -p '[{"op":"remove","path":"/spec/unschedulable"}]'
done
true
