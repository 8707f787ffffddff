# expect: pass — multiply every hard limit of the namespace quota by 10 (pods, cpu, memory, requests and limits).
for q in $(kubectl get resourcequota -n $NS -o jsonpath='{.items[*].metadata.name}'); do
  patch=$(kubectl get resourcequota "$q" -n $NS -o json | python3 -c '
import json,re,sys
d=json.load(sys.stdin); h=d["spec"].get("hard",{}); out={}
for k,v in h.items():
    m=re.fullmatch(r"([0-9.]+)([A-Za-z]*)", str(v))
    if not m: continue
    n=float(m.group(1))*10; out[k]=("%d" % n if n==int(n) else "%g" % n)+m.group(2)
print(json.dumps({"spec":{"hard":out}}))')
  kubectl patch resourcequota "$q" -n $NS --type=merge -p "$patch"
done
true
