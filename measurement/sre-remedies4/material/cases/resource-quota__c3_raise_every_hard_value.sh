# expect: pass — the ReplicaSet's FailedCreate says "exceeded quota"; raise every hard value of the namespace's ResourceQuota(s) far above the namespace's needs (memory 64Gi, cpu 64, pods 200).
for q in $(kubectl get resourcequota -n $NS -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  for k in $(kubectl get resourcequota "$q" -n $NS -o go-template='{{range $k,$v := .spec.hard}}{{$k}}{{"\n"}}{{end}}'); do
    case "$k" in
      *memory*) v=64Gi ;; *cpu*) v=64 ;; pods|count/pods) v=200 ;; *) continue ;;
    esac
    kubectl patch resourcequota "$q" -n $NS --type=merge -p "{\"spec\":{\"hard\":{\"$k\":\"$v\"}}}"
  done
done
true
