# expect: fail — wrong mechanism: roll back product-catalog as if a release broke the product; the failure is served by the flag, which the rollback does not touch.
kubectl rollout undo deploy/product-catalog -n "$NS"
true
