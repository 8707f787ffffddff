# expect: fail — scale the lagging consumers (accounting, fraud-detection); the flag keeps flooding the queue and delaying consumption.
for d in accounting fraud-detection; do kubectl scale deploy "$d" -n $NS --replicas=3 2>/dev/null; done
true
