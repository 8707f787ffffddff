# expect: pass — read the ReplicaSets' FailedCreate events ("exceeded quota: NAME, ...") and delete exactly the ResourceQuota they name.
for q in $(kubectl get events -n "$NS" -o jsonpath='{range .items[*]}{.reason}|{.message}{"\n"}{end}' | awk -F'|' '$1=="FailedCreate"' |
           sed -n 's/.*exceeded quota: \([^,]*\),.*/\1/p' | sort -u); do
  echo "quota $q refuses pods: deleting it"
  kubectl delete resourcequota "$q" -n "$NS"
done
true
