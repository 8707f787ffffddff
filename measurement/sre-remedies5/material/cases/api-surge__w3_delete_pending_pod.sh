# expect: fail — symptom fix: delete the pod the API server left Pending; its replacement is created during the surge too and is not bound either; the client keeps flooding the API.
for d in $(pending_deploys); do
  for p in $(pods_with_status "$d" 'Pending'); do kubectl delete pod "$p" -n "$NS" --wait=false; done
done
true
