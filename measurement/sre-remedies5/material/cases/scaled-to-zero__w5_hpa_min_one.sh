# expect: fail — wrong mechanism: put a HorizontalPodAutoscaler (min 1, max 2, CPU 70 %) on the Deployment at 0 replicas, expecting it to enforce the minimum; Kubernetes disables autoscaling for a target at zero replicas (ScalingDisabled), so it stays at 0.
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas}{"\n"}{end}' | awk '$2=="0" {print $1}'); do
  kubectl autoscale deploy "$d" -n "$NS" --min=1 --max=2 --cpu-percent=70
done
true
