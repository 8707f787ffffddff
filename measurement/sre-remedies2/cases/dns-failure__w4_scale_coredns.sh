# expect: fail — wrong object: scale CoreDNS up, blaming cluster DNS capacity.
kubectl scale deploy coredns -n kube-system --replicas=3 2>/dev/null || true
true
