# expect: pass — uncordon the cordoned node(s), then delete the Pending pods so their ReplicaSets recreate them at once (nothing running is touched: a Pending pod serves nothing).
for n in $(cordoned_nodes); do kubectl uncordon "$n"; done
kubectl delete pods -n "$NS" --field-selector=status.phase=Pending --wait=false
true
