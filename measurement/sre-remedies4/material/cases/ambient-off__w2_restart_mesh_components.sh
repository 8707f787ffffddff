# expect: fail — wrong object: restart istiod and the ztunnel DaemonSet in istio-system; the namespace is still labelled out of the mesh.
kubectl rollout restart deploy -n istio-system
kubectl rollout restart daemonset -n istio-system
true
