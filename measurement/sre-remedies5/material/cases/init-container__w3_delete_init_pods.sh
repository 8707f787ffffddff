# expect: fail — delete the pods stuck in Init:CrashLoopBackOff; the ReplicaSet recreates them from the same template, whose init container fails the same way.
for d in $(init_stuck_deploys); do
  for p in $(pods_with_status "$d" '.'); do kubectl delete pod "$p" -n "$NS" --wait=false; done
done
true
