# expect: fail — wrong mechanism: give the Pending deployment a toleration for every taint; the scheduler refuses it for anti-affinity, not for a taint.
pending_deploys() {
  kubectl get pods -n $NS --field-selector=status.phase=Pending --no-headers -o custom-columns=N:.metadata.name 2>/dev/null |
    sed -E 's/-[a-z0-9]+-[a-z0-9]+$//' | sort -u | while read d; do
      kubectl get deploy "$d" -n $NS >/dev/null 2>&1 && echo "$d"
    done
  true
}

for d in $(pending_deploys); do
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"template":{"spec":{"tolerations":[{"operator":"Exists"}]}}}}'
done
true
