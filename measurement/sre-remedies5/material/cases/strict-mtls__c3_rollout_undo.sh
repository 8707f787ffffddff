# expect: pass — find the Deployment whose pod template opts out of the ambient mesh (istio.io/dataplane-mode: none); its latest rollout added the label: roll it back.
for d in $(kubectl get deploy -n "$NS" -o go-template='{{range .items}}{{.metadata.name}} {{index .spec.template.metadata.labels "istio.io/dataplane-mode"}}{{"\n"}}{{end}}' | awk '$2=="none" {print $1}'); do
  kubectl rollout undo deploy/"$d" -n "$NS"
done
true
