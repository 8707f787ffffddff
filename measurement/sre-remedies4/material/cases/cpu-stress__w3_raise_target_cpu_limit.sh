# expect: fail — symptom fix: give the stressed service's containers 4 CPUs; the StressChaos keeps running in them.
chaos_objects | while read r n ns; do
  case "$r" in
    stresschaos*) for v in $(kubectl get "$r" "$n" -n "$ns" -o go-template='{{range $k,$v := .spec.selector.labelSelectors}}{{$v}}{{"\n"}}{{end}}'); do
                    kubectl get deploy "$v" -n $NS >/dev/null 2>&1 && kubectl set resources deploy "$v" -n $NS --limits=cpu=4 --requests=cpu=1
                  done ;;
  esac
done
true
