# expect: fail — symptom fix: scale the Kafka broker Deployment to 3 replicas to absorb the flood; the flag keeps flooding the queue and delaying the consumers (and a single-node demo broker does not form a cluster by scaling).
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' | awk '$1=="kafka"'); do
  kubectl scale deploy "$d" -n "$NS" --replicas=3
done
true
