# expect: fail — no repair: cordon the node(s) the CPU-stressed pods run on; a cordon only stops new placements, the stressor keeps burning CPU in the running pods.
chaos_of stresschaos | while read r n ns; do
  case "$r" in schedules.*) continue ;; esac
  for d in $(chaos_target_deploys "$r" "$n" "$ns"); do
    for node in $(kubectl get pods -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.nodeName}{"\n"}{end}' | awk -v d="$d" '$1 ~ ("^" d "-[a-z0-9]+-[a-z0-9]+$") {print $2}' | sort -u); do
      kubectl cordon "$node"
    done
  done
done
true
