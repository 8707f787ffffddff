# expect: fail — wrong object: scale image-provider (the image server) to 3 replicas; the delay is the frontend's flag, not the server's capacity.
kubectl get deploy image-provider -n "$NS" >/dev/null 2>&1 && kubectl scale deploy image-provider -n "$NS" --replicas=3
true
