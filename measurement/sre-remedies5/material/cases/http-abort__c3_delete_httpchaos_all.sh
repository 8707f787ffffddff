# expect: pass — delete every HTTPChaos (kubectl delete httpchaos --all in each namespace holding one) and every Schedule of type HTTPChaos.
for ns in $(chaos_of httpchaos | awk '$1 ~ /^httpchaos/ {print $3}' | sort -u); do
  kubectl delete httpchaos --all -n "$ns"
done
chaos_of httpchaos | awk '$1 ~ /^schedules/' | while read r n ns; do kubectl delete "$r" "$n" -n "$ns"; done
true
