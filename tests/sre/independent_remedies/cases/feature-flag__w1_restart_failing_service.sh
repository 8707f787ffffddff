# expect: fail — restart every deployment named in the latest alerts (symptom); the flag stays on.
last=alerts/$(ls alerts | tail -1)
for d in $(kubectl get deploy -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  if grep -q "\"$d\"" "$last"; then kubectl rollout restart deploy/$d -n $NS; fi
done
