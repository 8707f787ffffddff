# expect: pass — same diagnosis; set the opt-out label of the pod template to ambient instead of removing it (the workload's own ambient label enrols it).
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}={.spec.template.metadata.labels.istio\.io/dataplane-mode}{"\n"}{end}' | awk -F= '$2=="none"{print $1}'); do
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"template":{"metadata":{"labels":{"istio.io/dataplane-mode":"ambient"}}}}}'
done
true
