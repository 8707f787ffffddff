# expect: fail — wrong mechanism: add a second, generous ResourceQuota (pods 200, cpu and memory 64/64Gi for requests and limits) beside the exhausted one; every quota of a namespace is enforced, so the tight one still refuses the pod.
kubectl apply -n "$NS" -f - <<EOF
apiVersion: v1
kind: ResourceQuota
metadata:
  name: roomy-quota
  namespace: $NS
spec:
  hard:
    pods: "200"
    requests.cpu: "64"
    requests.memory: 64Gi
    limits.cpu: "64"
    limits.memory: 64Gi
EOF
true
