# expect: fail — symptom fix: lower maxReplicas to the minimum so the HPA cannot scale out; the 20 %/30 % targets stay, the HPA still wants more than its maximum and sits at it (KubeHpaMaxedOut: current = max).
low_target_hpas | while read h t mn mx; do
  kubectl patch hpa "$h" -n "$NS" --type=merge -p "{\"spec\":{\"maxReplicas\":$mn}}"
done
true
