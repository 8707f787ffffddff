# expect: pass — set loadgeneratorFloodHomepage's defaultVariant back to off (its zero variant).
flag_edit "
g=f['loadgeneratorFloodHomepage']; ov=next((k for k,v in g['variants'].items() if v in (False,0) and not isinstance(v,str)), 'off')
g['defaultVariant']=ov"
true
