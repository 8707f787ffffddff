# expect: fail — symptom fix: give the Kafka broker's containers 2Gi of memory (limit; request 1Gi); the producer flood and the consumers' delay come from the flag and go on, the lag keeps growing.
kubectl get deploy kafka -n "$NS" >/dev/null 2>&1 || exit 0
kubectl set resources deploy/kafka -n "$NS" --limits=memory=2Gi --requests=memory=1Gi
true
