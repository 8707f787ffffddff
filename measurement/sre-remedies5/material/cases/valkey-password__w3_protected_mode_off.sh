# expect: fail — wrong knob: append `--protected-mode no` to the Valkey server started with --requirepass; protected mode only governs password-less servers, the password requirement stays and the cart's commands are still refused (NOAUTH).
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  cmd=$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].command}')
  args=$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].args}')
  case "$cmd $args" in *--requirepass*) ;; *) continue ;; esac
  f=args; [ -n "$args" ] || f=command
  kubectl patch deploy "$d" -n "$NS" --type=json -p "[{\"op\":\"add\",\"path\":\"/spec/template/spec/containers/0/$f/-\",\"value\":\"--protected-mode\"},{\"op\":\"add\",\"path\":\"/spec/template/spec/containers/0/$f/-\",\"value\":\"no\"}]"
done
true
