# expect: fail — workaround with a wide blast radius: label every Deployment's pod template ambient (each workload opts in by itself) while the namespace stays out; every pod of the demo is restarted and the namespace setting is left wrong. (debatable: the pods do join the mesh)
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"template":{"metadata":{"labels":{"istio.io/dataplane-mode":"ambient"}}}}}'
done
true
