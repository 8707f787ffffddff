# expect: fail — symptom fix: put a memory-based HorizontalPodAutoscaler (1..4 replicas, 70 % of the memory request) on recommendation; every replica's cache still grows without bound under the flag and is OOM-killed.
kubectl get deploy recommendation -n "$NS" >/dev/null 2>&1 || exit 0
kubectl apply -n "$NS" -f - <<EOF2
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: recommendation-memory
  namespace: $NS
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: recommendation
  minReplicas: 1
  maxReplicas: 4
  metrics:
  - type: Resource
    resource:
      name: memory
      target:
        type: Utilization
        averageUtilization: 70
EOF2
true
