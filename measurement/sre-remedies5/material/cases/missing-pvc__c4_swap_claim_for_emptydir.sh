# expect: pass — find the volume whose persistentVolumeClaim does not exist and turn it into an emptyDir of the same name (mounts kept), so the pod schedules and starts. (debatable: the accepted repair removes the volume or rolls back; this keeps a scratch volume the service never had)
for d in $(pending_deploys); do
  kubectl get deploy "$d" -n "$NS" -o go-template='{{range $i, $v := .spec.template.spec.volumes}}{{if $v.persistentVolumeClaim}}{{$i}} {{$v.name}} {{$v.persistentVolumeClaim.claimName}}{{"\n"}}{{end}}{{end}}' |
  while read i v c; do
    kubectl get pvc "$c" -n "$NS" >/dev/null 2>&1 && continue
    kubectl patch deploy "$d" -n "$NS" --type=json -p "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/volumes/$i\",\"value\":{\"name\":\"$v\",\"emptyDir\":{}}}]"
  done
done
true
