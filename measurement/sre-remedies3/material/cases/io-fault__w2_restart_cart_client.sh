# expect: fail — wrong object: restart the cart service (the datastore's client that reports the errors); the I/O fault is in valkey-cart.
kubectl rollout restart deploy cart -n $NS 2>/dev/null || kubectl rollout restart deploy cartservice -n $NS
true
