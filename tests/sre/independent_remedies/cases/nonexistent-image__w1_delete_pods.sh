# expect: fail — delete the pods that cannot pull; the new ones cannot either.
for d in $(broken_deploys); do kubectl delete pod -n $NS $(pods_of $d); done
