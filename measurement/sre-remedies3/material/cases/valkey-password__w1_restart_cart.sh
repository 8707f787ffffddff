# expect: fail — restart the cart (the client that gets NOAUTH); it still sends no password.
kubectl rollout restart deploy cart -n $NS 2>/dev/null || kubectl rollout restart deploy cartservice -n $NS
true
