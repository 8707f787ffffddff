# expect: fail — wrong object: turn off adHighCpu and adManualGc (the other ad flags), leaving adFailure on.
flag_edit "
for k in ('adHighCpu','adManualGc','adServiceHighCpu'):
    if k in f: f[k]['defaultVariant']='off'"
true
