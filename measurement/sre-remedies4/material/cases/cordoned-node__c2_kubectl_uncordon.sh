# expect: pass — find the nodes marked unschedulable and `kubectl uncordon` them.
for n in $(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}={.spec.unschedulable}{"\n"}{end}' | awk -F= '$2=="true"{print $1}'); do
  kubectl uncordon "$n"
done
true
