import re,glob,collections
rows=collections.OrderedDict()
for f in sorted(glob.glob('*.sass')):
    name,sm,_=f.split('.')
    ins=[re.sub(r'\s*;.*','',l.split('*/',1)[1]).strip() for l in open(f) if re.match(r'\s+/\*[0-9a-f]{4}\*/',l)]
    ins=[i for i in ins if not i.startswith(('NOP','BSSY','BSYNC'))]
    at=[i for i in ins if re.search(r'\bATOM(G)?\.|\bRED',i)]
    a=at[0] if at else '?'
    m=re.search(r'ATOMG?\.E?\.?([A-Z0-9.x]+?)\.STRONG\.GPU (P\w+)',a)
    mods=a.split()[0] if not a.startswith('@') else a.split()[1]
    pd = a.split()[1] if not a.startswith('@') else a.split()[2]
    pd=pd.rstrip(',')
    q='QSPC' in ' '.join(ins)
    shared=[i.split()[0] for i in ins if i.startswith(('ATOMS','@!P0 ATOMS')) or 'ATOMS' in i.split()[0]]
    loc=[i.split()[0] for i in ins if re.match(r'(LD|ST)(\.|\s)',i)]
    rows[(name,sm)]=(mods,pd,q,sorted(set(shared)),sorted(set(loc)))
by=collections.defaultdict(dict)
for (n,sm),v in rows.items(): by[n][sm]=v
for n,d in by.items():
    vals=set(map(str,d.values()))
    if len(vals)==1: print(n,'ALL',list(d.values())[0])
    else:
        for sm,v in sorted(d.items()): print(n,sm,v)
