# expect: fail — symptom fix: raise recommendation's memory limit to 2Gi; the cache still grows without bound.
kubectl set resources deploy recommendation -n $NS --limits=memory=2Gi --requests=memory=512Mi
true
