# expect: fail — pin the deployment to arm64 nodes (kubernetes.io/arch=arm64); the cluster has none, so it goes from crash-looping to Pending.
# "deployment containerIndex image" of crash-looping deployments whose image names another CPU architecture.
arch_images() {
  kubectl get deploy -n $NS -o json | python3 -c '
import json,sys,re
for d in json.load(sys.stdin)["items"]:
    for i,c in enumerate(d["spec"]["template"]["spec"]["containers"]):
        if re.search(r"(arm64|aarch64|armv7|ppc64le|s390x)", c["image"]): print(d["metadata"]["name"], i, c["image"])'
}

arch_images | while read d i img; do
  kubectl patch deploy "$d" -n $NS --type=merge -p '{"spec":{"template":{"spec":{"nodeSelector":{"kubernetes.io/arch":"arm64"}}}}}'
done
true
