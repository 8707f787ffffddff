# expect: fail — delete the pending pods; the selector still matches no node.
for d in $(broken_deploys); do kubectl delete pod -n $NS $(pods_of $d); done
