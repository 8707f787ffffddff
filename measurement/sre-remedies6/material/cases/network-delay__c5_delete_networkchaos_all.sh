# expect: pass — delete every NetworkChaos (kubectl delete networkchaos --all in each namespace holding one) and every Schedule of type NetworkChaos.
chaos_of networkchaos | while read r n ns; do
  case "$r" in schedules.*) kubectl delete "$r" "$n" -n "$ns" ;; esac
done
for ns in $(chaos_of networkchaos | awk '$1 ~ /^networkchaos/ {print $3}' | sort -u); do
  kubectl delete networkchaos --all -n "$ns"
done
true
