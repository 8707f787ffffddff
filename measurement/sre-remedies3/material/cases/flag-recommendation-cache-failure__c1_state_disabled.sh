# expect: pass — set recommendationCacheFailure's state to DISABLED (flagd serves the code default, off).
flag_edit "f['recommendationCacheFailure']['state']='DISABLED'"
true
