# expect: fail — delete the readiness probe altogether (hides the check instead of fixing it). (debatable)
for d in $(broken_deploys); do
  kubectl patch deploy/$d -n $NS --type=json -p='[{"op":"remove","path":"/spec/template/spec/containers/0/readinessProbe"}]'
done
