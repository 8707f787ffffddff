# expect: fail — wrong mechanism: create a LimitRange with a default memory limit of 1Gi (request 256Mi) in the namespace; defaults only apply to containers that declare no limit, and the OOMing container declares its too-low one.
kubectl apply -n "$NS" -f - <<EOF
apiVersion: v1
kind: LimitRange
metadata:
  name: memory-defaults
  namespace: $NS
spec:
  limits:
  - type: Container
    default:
      memory: 1Gi
    defaultRequest:
      memory: 256Mi
EOF
true
