# expect: fail — wrong image: set the Deployment stuck in ImagePullBackOff/ErrImagePull to the image a healthy Deployment runs (the first one listed); the pull succeeds but the pod runs another service's binary, not this service.
good=""
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas} {.status.readyReplicas}{"\n"}{end}' | awk '$2!="0" && $2==$3 {print $1}'); do
  good=$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].image}'); [ -n "$good" ] && break
done
for d in $(deploys_with_status 'ImagePullBackOff|ErrImagePull|InvalidImageName'); do
  c=$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].name}')
  [ -n "$good" ] && kubectl set image deploy/"$d" -n "$NS" "$c=$good"
done
true
