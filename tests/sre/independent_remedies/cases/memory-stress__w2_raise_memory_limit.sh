# expect: fail — raise the memory limit of the stressed service; the stressor is untouched (symptom fix, changes a healthy spec).
for d in $(broken_deploys); do kubectl set resources deploy/$d -n $NS --limits=memory=2Gi; done
