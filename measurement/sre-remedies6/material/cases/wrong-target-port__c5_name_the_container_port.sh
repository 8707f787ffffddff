# expect: pass — find the Service whose targetPort is neither a port number nor a port name its Deployment declares; when the targetPort is a NAME, give the Deployment's first container port that name (JSON patch of the template), unless its current name is used by a probe; when it is a number (or the name is in use), point the targetPort at the container port's name, naming an unnamed port `serving` first.
for s in $(svcs_with_closed_target_port); do
  tp=$(svc_target_port "$s"); old=$(container_port_name "$s")
  probes=$(kubectl get deploy "$s" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].readinessProbe}{.spec.template.spec.containers[0].livenessProbe}{.spec.template.spec.containers[0].startupProbe}')
  used=no; [ -n "$old" ] && case "$probes" in *"\"$old\""*) used=yes ;; esac
  case "$tp" in
    *[!0-9]*)
      if [ "$used" = no ]; then
        echo "$s: naming container port $(container_port "$s") '$tp'"
        kubectl patch deploy "$s" -n "$NS" --type=json -p "[{\"op\":\"add\",\"path\":\"/spec/template/spec/containers/0/ports/0/name\",\"value\":\"$tp\"}]"
        continue
      fi ;;
  esac
  name=$old
  if [ -z "$name" ]; then
    name=serving
    kubectl patch deploy "$s" -n "$NS" --type=json -p '[{"op":"add","path":"/spec/template/spec/containers/0/ports/0/name","value":"serving"}]'
  fi
  kubectl patch svc "$s" -n "$NS" --type=json -p "[{\"op\":\"replace\",\"path\":\"/spec/ports/0/targetPort\",\"value\":\"$name\"}]"
done
true
