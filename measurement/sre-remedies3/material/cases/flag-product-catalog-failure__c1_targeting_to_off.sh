# expect: pass — productCatalogFailure is turned on by its targeting rule: make every branch of the rule return off, and the default off.
flag_edit "
def fix(x):
    if isinstance(x, list): return [fix(y) for y in x]
    if isinstance(x, dict): return {k: fix(v) for k, v in x.items()}
    return 'off' if x == 'on' else x
g=f['productCatalogFailure']
if 'targeting' in g: g['targeting']=fix(g['targeting'])
g['defaultVariant']='off'"
true
