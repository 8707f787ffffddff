# expect: fail — scale product-catalog to 3 replicas; every replica evaluates the same flag and fails the same product.
kubectl get deploy product-catalog -n "$NS" >/dev/null 2>&1 && kubectl scale deploy product-catalog -n "$NS" --replicas=3
true
