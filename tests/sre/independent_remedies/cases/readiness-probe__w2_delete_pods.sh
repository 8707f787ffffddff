# expect: fail — delete the unready pods.
for d in $(broken_deploys); do kubectl delete pod -n $NS $(pods_of $d); done
