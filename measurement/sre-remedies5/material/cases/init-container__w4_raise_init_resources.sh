# expect: fail — wrong diagnosis: treat the init failure as starvation and give every init container of the stuck Deployment 512Mi/500m; its command is still not in its image, it fails as before.
for d in $(init_stuck_deploys); do
  n=$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{range .spec.template.spec.initContainers[*]}x{end}' | awk '{print length($0)}')
  i=0; ops=""
  while [ "$i" -lt "${n:-0}" ]; do
    [ -n "$ops" ] && ops="$ops,"
    ops="$ops{\"op\":\"add\",\"path\":\"/spec/template/spec/initContainers/$i/resources\",\"value\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"512Mi\"},\"limits\":{\"cpu\":\"500m\",\"memory\":\"512Mi\"}}}"
    i=$((i+1))
  done
  [ -n "$ops" ] && kubectl patch deploy "$d" -n "$NS" --type=json -p "[$ops]"
done
true
