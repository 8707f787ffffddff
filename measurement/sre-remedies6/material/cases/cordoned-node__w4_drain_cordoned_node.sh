# expect: fail — the opposite of the repair: `kubectl drain` the cordoned node (ignoring DaemonSets, deleting emptyDir data); it stays unschedulable and every pod still running on it is evicted, so the Pending one still has nowhere to go and more services lose their pods.
for n in $(cordoned_nodes); do
  kubectl drain "$n" --ignore-daemonsets --delete-emptydir-data --force --timeout=60s
done
true
