# expect: fail — near miss: swap arm64 for amd64 in the image reference (…/demo-amd64:<tag>); the demo publishes no per-architecture amd64 repository, so the pull fails (ImagePullBackOff) instead of the exec. (debatable only if such an image existed)
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  kubectl get deploy "$d" -n "$NS" -o jsonpath='{range .spec.template.spec.containers[*]}{.name} {.image}{"\n"}{end}' |
  while read c img; do
    case "$img" in *arm64*) kubectl set image deploy/"$d" -n "$NS" "$c=$(echo "$img" | sed 's/arm64/amd64/g')" ;; esac
  done
done
true
