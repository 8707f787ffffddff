# expect: fail — destructive: stop flagd so no flag is served at all.
kubectl scale deploy flagd -n $NS --replicas=0 || true
true
