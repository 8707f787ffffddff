# expect: fail — wrong object: restart image-provider (the image server), which the flag does not touch.
kubectl rollout restart deploy image-provider -n $NS 2>/dev/null || kubectl rollout restart deploy imageprovider -n $NS
true
