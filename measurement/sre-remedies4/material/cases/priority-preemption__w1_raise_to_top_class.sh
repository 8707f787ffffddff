# expect: fail — give the preempted workload the highest non-system PriorityClass (the collector's own): equal priority preempts nothing and the pinned node stays full.
top=$(kubectl get priorityclass --no-headers -o custom-columns=N:.metadata.name,V:.value | grep -v '^system-' | sort -k2 -n | tail -1 | awk '{print $1}')
for d in $(pending_deploys); do
  [ -n "$top" ] && kubectl patch deploy "$d" -n $NS --type=merge -p "{\"spec\":{\"template\":{\"spec\":{\"priorityClassName\":\"$top\"}}}}"
done
true
