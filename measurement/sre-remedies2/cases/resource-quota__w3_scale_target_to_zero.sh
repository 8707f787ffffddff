# expect: fail — scale the deployment that cannot get pods to 0 so the ReplicaSet stops failing (no service).
for d in $(broken_deploys); do kubectl scale deploy "$d" -n $NS --replicas=0; done
true
