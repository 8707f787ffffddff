# expect: fail — destructive: delete the broken deployment (alerts "clear" because the service is gone).
for d in $(broken_deploys); do kubectl delete deploy/$d -n $NS; done
