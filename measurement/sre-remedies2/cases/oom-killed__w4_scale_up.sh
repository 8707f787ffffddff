# expect: fail — add replicas to the OOMing deployment; each replica OOMs.
for d in $(broken_deploys); do kubectl scale deploy "$d" -n $NS --replicas=3; done
true
