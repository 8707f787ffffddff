# expect: pass — find the container whose image names another architecture (arm64/aarch64 in its repository or tag) and set it to the same reference without the architecture suffix (…/demo-arm64:<tag> → …/demo:<tag>), the multi-arch release.
for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
  kubectl get deploy "$d" -n "$NS" -o jsonpath='{range .spec.template.spec.containers[*]}{.name} {.image}{"\n"}{end}' |
  while read c img; do
    case "$img" in *arm64*|*aarch64*) ;; *) continue ;; esac
    new=$(echo "$img" | sed -E 's/[-_.](arm64|aarch64)//g')
    echo "$d/$c: $img -> $new"
    kubectl set image deploy/"$d" -n "$NS" "$c=$new"
  done
done
true
