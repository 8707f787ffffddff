# expect: fail — delete the failing Java service's pods; the JVMChaos re-attaches to the new ones.
chaos_of jvmchaos | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do
    for p in $(pods_of "$t"); do kubectl delete pod "$p" -n $NS --wait=false; done
  done
done
true
