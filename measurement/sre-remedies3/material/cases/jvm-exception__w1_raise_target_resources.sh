# expect: fail — symptom fix: give the failing Java service more memory and CPU; the injected exception is untouched.
chaos_of jvmchaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    kubectl get deploy "$t" -n $NS >/dev/null 2>&1 && kubectl set resources deploy "$t" -n $NS --limits=cpu=1,memory=1Gi --requests=cpu=250m,memory=512Mi
  done
done
true
