# expect: pass — merge-patch spec.replicas of the zero deployment back to 1.
for d in $(zero_deploys); do kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"replicas":1}}'; done
true
