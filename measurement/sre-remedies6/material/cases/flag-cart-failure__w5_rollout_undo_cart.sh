# expect: fail — wrong mechanism: roll back the cart Deployment as if a release caused the failures; the failure share comes from the flag, which the rollback does not touch (and a rollback of an unchanged Deployment changes nothing or rolls cart to an older release).
kubectl rollout undo deploy/cart -n "$NS"
true
