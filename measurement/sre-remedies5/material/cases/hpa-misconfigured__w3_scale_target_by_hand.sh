# expect: fail — symptom fix on the wrong owner: scale the HPA's Deployment back to 1 replica by hand; the HPA owns the replica count and, with its 20 %/30 % targets unchanged, scales it straight back to its maximum.
low_target_hpas | while read h t mn mx; do
  kubectl scale deploy "$t" -n "$NS" --replicas=1
done
true
