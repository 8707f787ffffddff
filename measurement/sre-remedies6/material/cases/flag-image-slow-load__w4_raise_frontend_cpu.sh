# expect: fail — symptom fix: give the frontend's containers more CPU (limit 2, request 500m); the image delay is injected by the flag, not caused by CPU, and stays.
kubectl get deploy frontend -n "$NS" >/dev/null 2>&1 || exit 0
kubectl set resources deploy/frontend -n "$NS" --limits=cpu=2 --requests=cpu=500m
true
