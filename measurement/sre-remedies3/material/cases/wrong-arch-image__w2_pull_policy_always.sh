# expect: fail — symptom fix: set imagePullPolicy Always and restart, hoping for a fresh pull; the tag is the same single-arch image.
# "deployment containerIndex image" of crash-looping deployments whose image names another CPU architecture.
arch_images() {
  kubectl get deploy -n $NS -o json | python3 -c '
import json,sys,re
for d in json.load(sys.stdin)["items"]:
    for i,c in enumerate(d["spec"]["template"]["spec"]["containers"]):
        if re.search(r"(arm64|aarch64|armv7|ppc64le|s390x)", c["image"]): print(d["metadata"]["name"], i, c["image"])'
}

arch_images | while read d i img; do
  kubectl patch deploy "$d" -n $NS --type=json -p="[{\"op\":\"add\",\"path\":\"/spec/template/spec/containers/$i/imagePullPolicy\",\"value\":\"Always\"}]"
  kubectl rollout restart deploy "$d" -n $NS
done
true
