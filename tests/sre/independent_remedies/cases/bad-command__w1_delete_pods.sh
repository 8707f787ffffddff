# expect: fail — deleting the crash-looping pods; the new ones run the same bad command.
for d in $(broken_deploys); do kubectl delete pod -n $NS $(pods_of $d); done
