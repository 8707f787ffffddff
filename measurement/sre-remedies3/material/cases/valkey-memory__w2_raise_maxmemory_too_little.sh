# expect: fail — near miss: raise maxmemory to 40mb, still below the cart's ~48 MB of data (per docs/sre-faults.md); writes still fail with OOM.
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

valkey_with --maxmemory | while read d i; do
  valkey_args_edit "$d" "$i" '

import re
def setmm(b, val):
    for k,x in enumerate(b):
        if x == "--maxmemory" and k+1 < len(b): b[k+1] = val
        elif " " in x or x.startswith("--maxmemory="): b[k] = re.sub(r"--maxmemory([ =])[0-9]+[A-Za-z]*", r"--maxmemory\g<1>" + val, x)

setmm(b, "40mb")'
done
true
