# expect: fail — restart valkey-cart itself; it comes back with the same --requirepass.
# "deployment containerIndex" of containers that run valkey-server/redis-server with the given flag.
valkey_with() {
  kubectl get deploy -n $NS -o json | python3 -c '
import json,sys
for d in json.load(sys.stdin)["items"]:
    for i,c in enumerate(d["spec"]["template"]["spec"]["containers"]):
        words=" ".join((c.get("command") or [])+(c.get("args") or []))
        if sys.argv[1] in words: print(d["metadata"]["name"], i)' "$1"
}
# Rewrite the command/args of container $2 of deployment $1 with python statements over a (list).
valkey_args_edit() {
  kubectl get deploy "$1" -n $NS -o json | python3 -c '
import json,sys
c=json.load(sys.stdin)["spec"]["template"]["spec"]["containers"][int(sys.argv[1])]
ops=[]
for f in ("command","args"):
    a=list(c.get(f) or [])
    if not a: continue
    b=a[:]
    exec(sys.argv[2])
    if b!=a: ops.append({"op":"replace","path":"/spec/template/spec/containers/%s/%s"%(sys.argv[1],f),"value":b})
print(json.dumps(ops))' "$2" "$3" > /tmp/vk.json
  [ "$(cat /tmp/vk.json)" != "[]" ] && kubectl patch deploy "$1" -n $NS --type=json --patch-file /tmp/vk.json
  true
}

valkey_with requirepass | while read d i; do kubectl rollout restart deploy "$d" -n $NS; done
true
