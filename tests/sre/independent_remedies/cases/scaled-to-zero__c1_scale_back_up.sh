# expect: pass — a deployment sits at 0 replicas; scale it back to 1.
for d in $(kubectl get deploy -n $NS -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas}{"\n"}{end}' | awk '$2=="0"{print $1}'); do kubectl scale deploy/$d -n $NS --replicas=1; done
