# expect: pass — same diagnosis; `kubectl create service nodeport NAME --tcp=P:P` (a NodePort Service also has a cluster IP and the port the callers dial) and `kubectl set selector` to the Deployment's matchLabels. (debatable: the original was a ClusterIP Service; this one also opens the port on every node)
for d in $(deploys_without_service); do
  p=$(container_port "$d")
  kubectl create service nodeport "$d" -n "$NS" --tcp="$p:$p"
  kubectl set selector svc "$d" -n "$NS" "$(match_labels "$d")"
done
true
