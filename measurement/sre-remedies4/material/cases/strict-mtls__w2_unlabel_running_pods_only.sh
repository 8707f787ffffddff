# expect: fail — partial fix: remove the opt-out label from the running pods only; the Deployment's template still opts out, so every new pod (restart, rollout, reschedule) leaves the mesh again. (debatable: on a live ambient mesh the relabelled pods would be enrolled until replaced)
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name}={.spec.template.metadata.labels.istio\.io/dataplane-mode}{"\n"}{end}' | awk -F= '$2=="none"{print $1}'); do
  kubectl label pods -n $NS -l "$(match_labels "$d")" istio.io/dataplane-mode-
done
true
