# expect: pass — same diagnosis; keep both metrics but give each a sane target: CPU 70 % (the original) and memory 80 %; at the steady load neither is exceeded and the HPA settles at its minimum. (debatable: keeps the memory metric the fault added; passes only if the working set is below 80 % of the request)
low_target_hpas | while read h t mn mx; do
  kubectl patch hpa "$h" -n "$NS" --type=merge -p '{"spec":{"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}},{"type":"Resource","resource":{"name":"memory","target":{"type":"Utilization","averageUtilization":80}}}]}}'
done
true
