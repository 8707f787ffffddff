# expect: pass — set the state of the CPU flag (adHighCpu, or adServiceHighCpu in older demos) to DISABLED; flagd then answers the code default (off).
flag_edit "
for k in ('adHighCpu','adServiceHighCpu'):
    if k in f and f[k].get('defaultVariant')!='off': f[k]['state']='DISABLED'"
true
