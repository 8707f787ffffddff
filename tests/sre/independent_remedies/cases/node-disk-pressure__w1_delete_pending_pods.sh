# expect: fail — delete the Pending pods; the replacement is just as unschedulable.
for d in $(broken_deploys); do kubectl delete pod -n $NS $(pods_of $d); done
