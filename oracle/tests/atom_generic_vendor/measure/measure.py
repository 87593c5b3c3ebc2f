import subprocess, sys, re, itertools
ops = ['add','min','max','inc','dec','and','or','xor','exch','cas']
tys = ['b32','u32','s32','u64','s64','b64','f32','f64','f16','bf16','f16x2','bf16x2']
def kern(op,ty,red,sm):
    rt = {'f16':'b16','bf16':'b16'}.get(ty, 'b64' if ty in('u64','s64','b64','f64') else 'b32')
    name = f"{'red' if red else 'atom'}_{op}_{ty}"
    noftz = '.noftz' if ty in ('f16','bf16','f16x2','bf16x2') and op=='add' else ''
    ins = f"{'red' if red else 'atom'}.{op}{noftz}.{ty}"
    if red:
        body = f"{ins} [%a], %b;"
        if op=='cas': return None
    else:
        body = f"{ins} %d, [%a], %b" + (", %c;" if op=='cas' else ";") + f"\nst.global.{rt} [%a2], %d;"
    return name, f""".visible .entry {name}(.param .u64 pa, .param .u64 pb)
{{
.reg .{rt} %b, %c, %d;
.reg .u64 %a, %a2;
ld.param.u64 %a, [pa];
ld.param.u64 %a2, [pb];
ld.{rt} %b, [%a2+8];
ld.{rt} %c, [%a2+16];
{body}
ret;
}}
"""
sm = sys.argv[1]
res = {}
for red in (False, True):
  for op in ops:
    for ty in tys:
        k = kern(op,ty,red,sm)
        if k is None: continue
        name, src = k
        ptx = f".version 7.8\n.target sm_{sm}\n.address_size 64\n" + src
        open(f'{name}.{sm}.ptx','w').write(ptx)
        r = subprocess.run(['ptxas',f'-arch=sm_{sm}','-O3',f'{name}.{sm}.ptx','-o',f'{name}.{sm}.cubin'],capture_output=True,text=True)
        if r.returncode:
            res[name]='refused'
            continue
        s = subprocess.run(['cuobjdump','-sass',f'{name}.{sm}.cubin'],capture_output=True,text=True).stdout
        open(f'{name}.{sm}.sass','w').write(s)
        atoms = [re.sub(r'\s*/\*.*','',l.split('*/',1)[1]).strip() for l in s.splitlines() if re.search(r'\b(ATOM|RED|QSPC|ATOMS|ATOMG)\b',l) and '*/' in l]
        q = 'QSPC' in s
        res[name] = ('GUARD ' if q else 'plain ') + ' | '.join(a.rstrip(' ;') for a in atoms[:2])
for k,v in res.items(): print(sm, k, v)
