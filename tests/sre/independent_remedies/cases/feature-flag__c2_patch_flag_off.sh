# expect: pass — same repair as a JSON merge of the configmap text with sed (only the flag that is on).
cfg=$(kubectl get configmap flagd-config -n $NS -o jsonpath='{.data.demo\.flagd\.json}')
new=$(printf '%s' "$cfg" | sed 's/"defaultVariant": *"on"/"defaultVariant": "off"/g')
python3 - "$new" > /tmp/patch.json <<'PY'
import json,sys; print(json.dumps({"data":{"demo.flagd.json":sys.argv[1]}}))
PY
kubectl patch configmap flagd-config -n $NS --type=merge --patch-file /tmp/patch.json
