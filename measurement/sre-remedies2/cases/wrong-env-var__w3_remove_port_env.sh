# expect: fail — delete the service's <SERVICE>_PORT variable instead of correcting it; the service needs it to know where to listen.
for d in $(broken_deploys); do
  key="$(echo "$d" | tr 'a-z-' 'A-Z_')_PORT"
  kubectl set env deploy/"$d" -n $NS "$key-" || true
done
true
