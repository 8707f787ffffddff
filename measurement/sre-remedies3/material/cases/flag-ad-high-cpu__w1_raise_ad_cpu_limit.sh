# expect: fail — symptom fix: give the ad service 2 CPUs; the flag keeps burning CPU.
kubectl set resources deploy ad -n $NS --limits=cpu=2 --requests=cpu=500m
true
