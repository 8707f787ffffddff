# expect: fail — wrong object: delete every NetworkPolicy of the application namespace, taking the partition for a policy; the partition is Chaos Mesh's (iptables in the pods), it stays, and any legitimate isolation goes.
kubectl delete networkpolicy --all -n "$NS"
true
