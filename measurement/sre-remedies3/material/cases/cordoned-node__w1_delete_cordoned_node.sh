# expect: fail — destructive: delete the cordoned Node object instead of uncordoning it.
for n in $(kubectl get nodes --no-headers -o custom-columns=N:.metadata.name,U:.spec.unschedulable | awk '$2=="true"{print $1}'); do
  kubectl delete node "$n"
done
true
