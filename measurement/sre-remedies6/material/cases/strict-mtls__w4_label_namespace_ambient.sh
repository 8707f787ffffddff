# expect: fail — near miss: (re)label the application namespace istio.io/dataplane-mode=ambient; the pods' own template label `none` overrides the namespace's, so the workload stays outside the mesh and its plaintext is still refused.
kubectl label ns "$NS" istio.io/dataplane-mode=ambient --overwrite
true
