# expect: fail — restart cart and its Valkey datastore (blaming the store); the flag is still served on and the cart keeps failing its share of requests.
for d in cart valkey-cart; do
  kubectl get deploy "$d" -n "$NS" >/dev/null 2>&1 && kubectl rollout restart deploy/"$d" -n "$NS"
done
true
