# expect: fail — workaround on the wrong object: add a toleration for node.kubernetes.io/unschedulable to the Pending deployment so it lands on the cordoned node; the node stays cordoned. (debatable: on a real cluster the pod would run)
pending_deploys() {
  kubectl get pods -n $NS --field-selector=status.phase=Pending --no-headers -o custom-columns=N:.metadata.name 2>/dev/null |
    sed -E 's/-[a-z0-9]+-[a-z0-9]+$//' | sort -u | while read d; do
      kubectl get deploy "$d" -n $NS >/dev/null 2>&1 && echo "$d"
    done
  true
}

for d in $(pending_deploys); do
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"template":{"spec":{"tolerations":[{"key":"node.kubernetes.io/unschedulable","operator":"Exists","effect":"NoSchedule"}]}}}}'
done
true
