# expect: pass — pause the experiment with chaos-mesh's pause annotation instead of deleting it.
chaos_objects | while read obj ns; do kubectl annotate $obj -n $ns experiment.chaos-mesh.org/pause=true --overwrite; done
