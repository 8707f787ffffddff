# expect: fail — add a toleration for disk-pressure so the pod lands on a node that is out of disk.
for d in $(broken_deploys); do
  kubectl patch deploy/$d -n $NS --type=merge -p '{"spec":{"template":{"spec":{"tolerations":[{"key":"node.kubernetes.io/disk-pressure","operator":"Exists","effect":"NoSchedule"}]}}}}'
done
