# expect: pass — point the readiness probe (tcpSocket/httpGet/grpc) at the container's declared port.
for d in $(broken_deploys); do
  port=$(cport_of "$d"); [ -z "$port" ] && continue
  kubectl get deploy "$d" -n $NS -o json | python3 -c '
import json,sys
port=int(sys.argv[1]); d=json.load(sys.stdin); c=d["spec"]["template"]["spec"]["containers"][0]
p=c.get("readinessProbe") or {}
for k in ("tcpSocket","httpGet","grpc"):
    if k in p: p[k]["port"]=port
print(json.dumps([{"op":"replace","path":"/spec/template/spec/containers/0/readinessProbe","value":p}]))' "$port" > /tmp/rp.json
  kubectl patch deploy "$d" -n $NS --type=json -p="$(cat /tmp/rp.json)"
done
true
