# expect: pass — rewrite the flag file with awk (inside the adHighCpu block — or adServiceHighCpu in older demos — set defaultVariant to "off") and `kubectl replace` the ConfigMap built from the edited file.
kubectl get configmap flagd-config -n $NS -o jsonpath='{.data.demo\.flagd\.json}' > /tmp/flags.json
awk '/"(adHighCpu|adServiceHighCpu)"[ ]*:/ {inb=1} inb && /"defaultVariant"/ {sub(/"defaultVariant"[ ]*:[ ]*"[^"]*"/, "\"defaultVariant\": \"off\""); inb=0} {print}' /tmp/flags.json > /tmp/flags.new
[ -s /tmp/flags.new ] && kubectl create configmap flagd-config -n $NS --from-file=demo.flagd.json=/tmp/flags.new --dry-run=client -o yaml | kubectl replace -f -
true
