# expect: fail — destructive: delete the mis-set HPA; KubeHpaMaxedOut goes with it, but the service loses autoscaling altogether and stays at the 3 replicas the bad targets gave it.
low_target_hpas | while read h t mn mx; do
  kubectl delete hpa "$h" -n "$NS"
done
true
