# expect: fail — delete the delayed pods; the chaos applies to the replacements.
chaos_of network | while read r n ns; do
  for t in $(chaos_targets "$r" "$n" "$ns"); do for p in $(pods_of "$t"); do kubectl delete pod "$p" -n $NS --wait=false; done; done
done
true
