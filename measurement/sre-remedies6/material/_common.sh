# Prepended to every case (the agent sandbox sees no host files). kubectl, awk and sed only; the
# helpers only LOOK at the cluster. Nothing here knows the answer or the fault type.
set -u
NS=otel-demo
# Deployments whose ready count differs from desired (or desired 0), one per line.
broken_deploys() {
  kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas} {.status.readyReplicas}{"\n"}{end}' |
    awk '$2=="0" || $2!=$3 {print $1}'
}
# Pod name -> owning Deployment name (strip the ReplicaSet hash and the pod suffix).
pod_to_deploy() { sed -E 's/-[a-z0-9]+-[a-z0-9]+$//'; }
# Deployments owning a pod whose STATUS column matches an extended regex ($1), one per line.
deploys_with_status() {
  kubectl get pods -n "$NS" --no-headers 2>/dev/null | awk -v re="$1" '$3 ~ re {print $1}' | pod_to_deploy | sort -u |
    while read d; do kubectl get deploy "$d" -n "$NS" >/dev/null 2>&1 && echo "$d"; done
  true
}
# Pods (names) of a Deployment whose STATUS matches $2.
pods_with_status() {
  kubectl get pods -n "$NS" --no-headers 2>/dev/null | awk -v d="$1" -v re="$2" '$3 ~ re && $1 ~ ("^" d "-[a-z0-9]+-[a-z0-9]+$") {print $1}'
  true
}
# Deployments whose pod waits on a failing init container (STATUS Init:...); when no pod shows
# that, the not-ready Deployments that have init containers.
init_stuck_deploys() {
  l=$(deploys_with_status '^Init:')
  if [ -z "$l" ]; then
    for d in $(broken_deploys); do
      [ -n "$(kubectl get deploy "$d" -n "$NS" -o jsonpath='{.spec.template.spec.initContainers[*].name}')" ] && echo "$d"
    done
  else echo "$l"; fi
  true
}
# Deployments owning a Pending pod.
pending_deploys() {
  kubectl get pods -n "$NS" --field-selector=status.phase=Pending --no-headers -o custom-columns=N:.metadata.name 2>/dev/null |
    pod_to_deploy | sort -u | while read d; do kubectl get deploy "$d" -n "$NS" >/dev/null 2>&1 && echo "$d"; done
  true
}
# A deployment's selector as k=v,k=v.
match_labels() {
  kubectl get deploy "$1" -n "$NS" -o go-template='{{range $k,$v := .spec.selector.matchLabels}}{{$k}}={{$v}},{{end}}' 2>/dev/null | sed 's/,$//'
}
# The same selector as YAML map lines indented by $2 spaces (values quoted).
match_labels_yaml() {
  kubectl get deploy "$1" -n "$NS" -o go-template='{{range $k,$v := .spec.selector.matchLabels}}{{$k}}: "{{$v}}"{{"\n"}}{{end}}' 2>/dev/null |
    sed "s/^/$(printf '%*s' "$2" '')/"
}
# A Service's selector as k=v,k=v (empty when it has none).
svc_selector() {
  kubectl get svc "$1" -n "$NS" -o go-template='{{range $k,$v := .spec.selector}}{{$k}}={{$v}},{{end}}' 2>/dev/null | sed 's/,$//'
}
# A deployment's first container's first declared port, and that port's name (may be empty).
container_port() {
  kubectl get deploy "$1" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].ports[0].containerPort}' 2>/dev/null
}
container_port_name() {
  kubectl get deploy "$1" -n "$NS" -o jsonpath='{.spec.template.spec.containers[0].ports[0].name}' 2>/dev/null
}
# Every port number and port name a deployment's containers declare, space separated.
declared_ports() {
  kubectl get deploy "$1" -n "$NS" -o jsonpath='{range .spec.template.spec.containers[*].ports[*]}{.containerPort} {.name} {end}' 2>/dev/null
}
# Deployments that declare a container port but have no Service of their name.
deploys_without_service() {
  for d in $(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
    [ -n "$(container_port "$d")" ] || continue
    kubectl get svc "$d" -n "$NS" >/dev/null 2>&1 || echo "$d"
  done
  true
}
# Services whose (non-empty) selector matches no pod of the namespace.
svcs_selecting_nothing() {
  for s in $(kubectl get svc -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
    sel=$(svc_selector "$s"); [ -n "$sel" ] || continue
    n=$(kubectl get pods -n "$NS" -l "$sel" --no-headers 2>/dev/null | wc -l)
    [ "$n" -eq 0 ] && echo "$s"
  done
  true
}
# Services whose first targetPort is neither a port number nor a port name the same-named
# Deployment declares.
svcs_with_closed_target_port() {
  for s in $(kubectl get svc -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
    kubectl get deploy "$s" -n "$NS" >/dev/null 2>&1 || continue
    tp=$(kubectl get svc "$s" -n "$NS" -o jsonpath='{.spec.ports[0].targetPort}')
    dp=" $(declared_ports "$s") "
    [ -n "$tp" ] || continue
    case "$dp" in *" $tp "*) ;; *) echo "$s" ;; esac
  done
  true
}
# HorizontalPodAutoscalers with a utilisation target below 50 %: "name target min max".
low_target_hpas() {
  kubectl get hpa -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}|{.spec.scaleTargetRef.name}|{.spec.minReplicas}|{.spec.maxReplicas}|{range .spec.metrics[*]}{.resource.target.averageUtilization} {end}{"\n"}{end}' 2>/dev/null |
    awk -F'|' '{n=split($5, u, " "); low=0; for (i=1; i<=n; i++) if (u[i]+0 < 50) low=1; if (low) print $1, $2, ($3==""?1:$3), $4}'
  true
}
# The revision before a deployment's current one (empty when none).
prev_revision() {
  kubectl rollout history deploy/"$1" -n "$NS" 2>/dev/null | awk '$1 ~ /^[0-9]+$/ {print $1}' | sort -n | tail -2 | head -1
}
cur_revision() {
  kubectl rollout history deploy/"$1" -n "$NS" 2>/dev/null | awk '$1 ~ /^[0-9]+$/ {print $1}' | sort -n | tail -1
}
# Every chaos-mesh object (Schedules included) as "resource name namespace".
chaos_objects() {
  for r in $(kubectl api-resources --no-headers -o name 2>/dev/null | grep -i chaos-mesh); do
    kubectl get "$r" -A --no-headers -o custom-columns=NS:.metadata.namespace,N:.metadata.name 2>/dev/null |
      awk -v r="$r" 'NF==2 {print r, $2, $1}'
  done
  true
}
# Chaos objects of one kind ($1, e.g. networkchaos) plus the Schedules whose spec.type is that kind.
chaos_of() {
  chaos_objects | while read r n ns; do
    case "$r" in
      "$1".*) echo "$r $n $ns" ;;
      schedules.*) t=$(kubectl get "$r" "$n" -n "$ns" -o jsonpath='{.spec.type}' 2>/dev/null)
                   [ "$(echo "$t" | awk '{print tolower($0)}')" = "$1" ] && echo "$r $n $ns" ;;
    esac
  done
  true
}
# Deployments whose pods a chaos object ($1 resource, $2 name, $3 namespace) selects by labelSelectors.
chaos_target_deploys() {
  sel=$(kubectl get "$1" "$2" -n "$3" -o go-template='{{with .spec.selector}}{{range $k,$v := .labelSelectors}}{{$k}}={{$v}},{{end}}{{end}}' 2>/dev/null | sed 's/,$//')
  [ -n "$sel" ] || return 0
  for ns in $(kubectl get "$1" "$2" -n "$3" -o jsonpath='{.spec.selector.namespaces[*]}' 2>/dev/null) ; do
    [ "$ns" = "$NS" ] || continue
    kubectl get pods -n "$NS" -l "$sel" --no-headers -o custom-columns=N:.metadata.name 2>/dev/null | pod_to_deploy
  done | sort -u
  true
}
# The ConfigMap holding the flagd flag file (a data value with "defaultVariant") and its data key.
flag_cm() {
  for c in $(kubectl get cm -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'); do
    kubectl get cm "$c" -n "$NS" -o jsonpath='{.data}' 2>/dev/null | grep -q defaultVariant && { echo "$c"; return 0; }
  done
  true
}
flag_key() {
  kubectl get cm "$1" -n "$NS" -o go-template='{{range $k,$v := .data}}{{if ne (len $v) 0}}{{$k}}{{"\n"}}{{end}}{{end}}' | while read k; do
    kubectl get cm "$1" -n "$NS" -o go-template="{{index .data \"$k\"}}" | grep -q defaultVariant && { echo "$k"; break; }
  done
  true
}
flag_text() { kubectl get cm "$1" -n "$NS" -o go-template="{{index .data \"$2\"}}"; }
# awk program: inside the block of flag F (brace depth from its "F": line), set the value of
# field K (a "K": "..." line) to V.
FLAG_SET_AWK='
{ line=$0
  if (!inb && line ~ ("\"" F "\"[ \t]*:")) { inb=1; depth=0; seen=0 }
  if (inb) {
    if (line ~ ("\"" K "\"[ \t]*:") && depth==1) sub(/:[ \t]*"[^"]*"/, ": \"" V "\"", line)
    o=gsub(/[{]/, "{", $0); c=gsub(/[}]/, "}", $0); depth+=o-c; if (o>0) seen=1
    if (seen && depth<=0) inb=0
  }
  print line }'
# --- added for sre-remedies6 (helpers still only LOOK) ---
# A deployment's pod-template labels, one k=v per line.
template_labels() {
  kubectl get deploy "$1" -n "$NS" -o go-template='{{range $k,$v := .spec.template.metadata.labels}}{{$k}}={{$v}}{{"\n"}}{{end}}' 2>/dev/null
}
# Number of pods of the namespace a label selector ($1, k=v,...) matches.
count_pods() { kubectl get pods -n "$NS" -l "$1" --no-headers 2>/dev/null | wc -l | tr -d ' '; }
# A template label (k=v) other than the whole matchLabels that selects exactly the Deployment's pods
# (same count as its matchLabels, all of them among its pods); empty when there is none.
unique_other_label() {
  ml=$(match_labels "$1"); [ -n "$ml" ] || return 0
  want=$(count_pods "$ml"); [ "$want" -gt 0 ] || return 0
  for kv in $(template_labels "$1"); do
    [ "$kv" = "$ml" ] && continue
    [ "$(count_pods "$kv")" = "$want" ] && [ "$(count_pods "$ml,$kv")" = "$want" ] && { echo "$kv"; return 0; }
  done
  true
}
# Nodes with spec.unschedulable=true.
cordoned_nodes() {
  kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name} {.spec.unschedulable}{"\n"}{end}' | awk '$2=="true" {print $1}'
}
# The first targetPort of a Service.
svc_target_port() { kubectl get svc "$1" -n "$NS" -o jsonpath='{.spec.ports[0].targetPort}' 2>/dev/null; }
# The value (a word) of field K (a "K": "..." line) at depth 1 of flag F's block.
FLAG_GET_AWK='
{ line=$0
  if (!inb && line ~ ("\"" F "\"[ \t]*:")) { inb=1; depth=0; seen=0 }
  if (inb) {
    if (depth==1 && line ~ ("\"" K "\"[ \t]*:")) { v=line; sub(/^[^:]*:[ \t]*"/, "", v); sub(/".*$/, "", v); print v; exit }
    o=gsub(/[{]/, "{", $0); c=gsub(/[}]/, "}", $0); depth+=o-c; if (o>0) seen=1
    if (seen && depth<=0) inb=0
  } }'
# awk program: inside flag F's "variants" block, give variant S the value of the variant named
# "off" (the file's own off value), keeping the line's trailing comma.
FLAG_VARIANT_OFF_AWK='
function val(l,  v) { v=l; sub(/^[^:]*:[ \t]*/, "", v); sub(/,[ \t]*$/, "", v); return v }
{ lines[NR]=$0 }
END {
  for (i=1; i<=NR; i++) {
    l=lines[i]
    if (!inb && l ~ ("\"" F "\"[ \t]*:")) { inb=1; depth=0; seen=0 }
    if (inb) {
      if (l ~ /"variants"[ \t]*:/) { invar=1; vd=0 }
      if (invar && l ~ /"off"[ \t]*:/) offv=val(l)
      if (invar && l ~ ("\"" S "\"[ \t]*:")) si=i
      t=l; o=gsub(/[{]/, "{", t); c=gsub(/[}]/, "}", t); depth+=o-c; if (o>0) seen=1
      if (invar) { vd+=o-c; if (vd<=0) invar=0 }
      if (seen && depth<=0) inb=0
    }
  }
  if (si && offv != "") { l=lines[si]; comma=(l ~ /,[ \t]*$/) ? "," : ""; sub(/:.*$/, ": " offv comma, l); lines[si]=l }
  for (i=1; i<=NR; i++) print lines[i]
}'
# Write text $3 back under data key $2 of ConfigMap $1 with a JSON merge patch (labels kept).
flag_write() {
  esc=$(printf '%s\n' "$3" | awk 'BEGIN{ORS=""} {gsub(/\\/,"\\\\"); gsub(/"/,"\\\""); gsub(/\t/,"\\t"); if (NR>1) print "\\n"; print}')
  kubectl patch cm "$1" -n "$NS" --type=merge -p "{\"data\":{\"$2\":\"$esc\"}}"
}
# Give flag $1's selected variant ($2, default: its defaultVariant) the value of its "off" variant,
# in the flagd ConfigMap, written back with flag_write.
flag_variant_off() {
  cm=$(flag_cm); [ -n "$cm" ] || return 0
  k=$(flag_key "$cm"); txt=$(flag_text "$cm" "$k")
  sv=${2:-$(printf '%s\n' "$txt" | awk -v F="$1" -v K=defaultVariant "$FLAG_GET_AWK")}
  [ -n "$sv" ] && [ "$sv" != off ] || { echo "$1: selected variant '$sv', nothing to do"; return 0; }
  echo "$1: variant $sv -> value of off"
  flag_write "$cm" "$k" "$(printf '%s\n' "$txt" | awk -v F="$1" -v S="$sv" "$FLAG_VARIANT_OFF_AWK")"
}
