# expect: pass — find the node(s) with spec.unschedulable=true and set it back to false with a merge patch (what uncordon does, without the uncordon verb).
for n in $(kubectl get nodes --no-headers -o custom-columns=N:.metadata.name,U:.spec.unschedulable | awk '$2=="true"{print $1}'); do
  kubectl patch node "$n" --type=merge -p '{"spec":{"unschedulable":false}}'
done
true
