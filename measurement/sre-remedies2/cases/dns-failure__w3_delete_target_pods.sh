# expect: fail — delete the pods whose lookups fail; the DNSChaos applies to the new ones.
chaos_of dns | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do for p in $(pods_of "$t"); do kubectl delete pod "$p" -n $NS --wait=false; done; done
done
true
