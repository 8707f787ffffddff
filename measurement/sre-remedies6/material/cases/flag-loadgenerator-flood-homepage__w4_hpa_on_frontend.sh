# expect: fail — symptom fix: put a HorizontalPodAutoscaler (1..5 replicas, CPU 60 %) on the frontend to absorb the flood; the flag keeps flooding the homepage and the extra frontends only spread the same excess load.
kubectl get deploy frontend -n "$NS" >/dev/null 2>&1 || exit 0
kubectl autoscale deploy frontend -n "$NS" --min=1 --max=5 --cpu-percent=60
true
