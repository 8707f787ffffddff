# expect: fail — destructive near miss: uncordon the cordoned node but first cordon and drain every OTHER node to "steer" pods there; the target is placed, but every other node is now unschedulable and its pods were evicted.
cn=$(cordoned_nodes)
for n in $(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  case " $(echo $cn) " in *" $n "*) continue ;; esac
  kubectl drain "$n" --ignore-daemonsets --delete-emptydir-data --force --timeout=60s
done
for n in $cn; do kubectl uncordon "$n"; done
true
