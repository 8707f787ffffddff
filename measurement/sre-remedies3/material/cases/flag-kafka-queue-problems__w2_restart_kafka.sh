# expect: fail — restart the Kafka broker; the producer flood and consumer delay resume from the flag.
kubectl rollout restart deploy kafka -n $NS 2>/dev/null || kubectl rollout restart statefulset kafka -n $NS
true
