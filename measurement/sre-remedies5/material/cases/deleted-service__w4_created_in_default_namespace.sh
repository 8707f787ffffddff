# expect: fail — wrong namespace: the correct Service (name, selector, port, targetPort) is created in `default` (the namespace was forgotten); the callers in otel-demo still resolve <name>.otel-demo to nothing, and a selector only selects pods of its own namespace.
for d in $(deploys_without_service); do
  p=$(container_port "$d")
  kubectl apply -n default -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: $d
  namespace: default
spec:
  selector:
$(match_labels_yaml "$d" 4)
  ports:
  - port: $p
    targetPort: $p
EOF
done
true
