# expect: fail — symptom fix on the wrong objects: label the same-named Deployment's RUNNING pods with the Service's broken selector (kubectl label pods --overwrite) instead of fixing the Service; the template is unchanged, so every replacement pod is unselected again, and a relabelled selector key detaches the pods from their ReplicaSet (which starts unlabelled twins).
for s in $(svcs_selecting_nothing); do
  ml=$(match_labels "$s"); [ -n "$ml" ] || continue
  kubectl label pods -n "$NS" -l "$ml" $(svc_selector "$s" | tr ',' ' ') --overwrite
done
true
