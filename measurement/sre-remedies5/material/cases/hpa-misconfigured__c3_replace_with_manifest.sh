# expect: pass — find the HPA with a utilisation target below 50 % and `kubectl replace` it with a hand-written autoscaling/v2 manifest: same name, target, min and max, one metric CPU averageUtilization 70 (the set-up's value; the added memory metric goes).
low_target_hpas | while read h t mn mx; do
  echo "HPA $h on $t: targets too low, replacing"
  kubectl replace -n "$NS" -f - <<EOF
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: $h
  namespace: $NS
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: $t
  minReplicas: $mn
  maxReplicas: $mx
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 70
EOF
done
true
