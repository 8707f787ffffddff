# expect: fail — delete the OOMKilled pods; same limit, same OOM.
for d in $(broken_deploys); do kubectl delete pod -n $NS $(pods_of $d); done
