# expect: pass — delete every PodChaos (kubectl delete podchaos --all in each namespace that holds one) and every Schedule of type PodChaos; the paused containers are restored.
for ns in $(chaos_of podchaos | awk '$1 ~ /^podchaos/ {print $3}' | sort -u); do
  kubectl delete podchaos --all -n "$ns"
done
chaos_of podchaos | awk '$1 ~ /^schedules/' | while read r n ns; do kubectl delete "$r" "$n" -n "$ns"; done
true
