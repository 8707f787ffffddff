# expect: fail — stop the load generator altogether (scale to 0): the flood stops with all synthetic traffic and the flag stays on. (debatable: it is the flood's source)
kubectl scale deploy load-generator -n $NS --replicas=0 2>/dev/null || kubectl scale deploy loadgenerator -n $NS --replicas=0
true
