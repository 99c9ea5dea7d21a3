#!/usr/bin/env python3
"""The warp-level matrix forms (mma.sync dense and sparse, wmma.load/store/
mma, ldmatrix/stmatrix/movmatrix) that ptxas -arch=sm_90a accepts.

  warp_forms.py [OUT]          ask ptxas (CUDA needed); write the accepted
                               forms to OUT (default warp_forms.txt here)
  warp_forms.py --check PTXI   run every candidate form through `PTXI check`
                               and compare with the committed list

Each candidate is one instruction line of one kernel; ptxas and ptxi both
report every bad line, so one file holds them all.  A form is named by its
mnemonic and, where it has one, the sparsity selector (`sel=N`) and the
state space and stride of wmma.load/store."""
import os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BITS = {'f16': 16, 'bf16': 16, 'tf32': 32, 'f32': 32, 'f64': 64, 'e4m3': 8, 'e5m2': 8, 's8': 8,
        'u8': 8, 's4': 4, 'u4': 4, 'b1': 1, 's32': 32, 'b16': 16, 'b8': 8}
PAIRS = [('f16', 'f16'), ('bf16', 'bf16'), ('tf32', 'tf32'), ('f64', 'f64'), ('e4m3', 'e4m3'),
         ('e4m3', 'e5m2'), ('e5m2', 'e4m3'), ('e5m2', 'e5m2'), ('s8', 's8'), ('s8', 'u8'), ('u8', 's8'),
         ('u8', 'u8'), ('s4', 's4'), ('s4', 'u4'), ('u4', 's4'), ('u4', 'u4'), ('b1', 'b1'), ('f16', 'bf16')]
ACC = [('f16', 'f16'), ('f32', 'f32'), ('f32', 'f16'), ('f16', 'f32'), ('s32', 's32'), ('f64', 'f64')]


def mnk(s):
    m, n, k = s[1:].replace('n', ' ').replace('k', ' ').split()
    return int(m), int(n), int(k)


def regs(n, prefix, start=0):
    n = min(n, 16)   # no form has more; longer vectors only make bad forms longer
    return '{' + ','.join('%%%s%d' % (prefix, start + i) for i in range(max(1, n))) + '}'


def rk(t):
    return 'fd' if t == 'f64' else 'r'


def mma_line(shape, d, a, b, c, extra, sp=None, sel=0, lay='.row.col'):
    m, n, k = mnk(shape)
    ka = k // 2 if sp else k
    na = max(1, m * ka * BITS[a] // 1024) if a != 'f64' else max(1, m * ka // 32)
    nb = max(1, k * n * BITS[b] // 1024) if b != 'f64' else max(1, k * n // 32)
    nc = m * n // (64 if c == 'f16' else 32)
    nd = m * n // (64 if d == 'f16' else 32)
    if shape == 'm8n8k4' and a == 'f16':
        na, nb, nc, nd = 2, 2, 4 if c == 'f16' else 8, 4 if d == 'f16' else 8
    mn = 'mma%s.sync.aligned.%s%s%s.%s.%s.%s.%s%s' % (sp or '', shape, lay, '.satfinite' if 'sat' in extra else '',
                                                    d, a, b, c, extra.replace('sat', ''))
    ops = [regs(nd, rk(d)), regs(na, rk(a), 10), regs(nb, rk(b), 20), regs(nc, rk(c), 30)]
    if sp:
        ops += ['%r90', str(sel)]
    return mn + (' sel=%d' % sel if sp else ''), '%s %s;' % (mn, ', '.join(ops))


WSHAPES = ['m16n16k16', 'm32n8k16', 'm8n32k16', 'm16n16k8', 'm8n8k4', 'm8n8k32', 'm8n8k128']


def wregs(frag, shape, t):
    m, n, k = mnk(shape)
    r, c = {'a': (m, k), 'b': (k, n), 'c': (m, n), 'd': (m, n)}[frag]
    if frag in 'cd':
        return 2 if (t == 'f64' or (m == 8 and n == 8)) else (m * n // 64 if t == 'f16' else m * n // 32)
    if t == 'f16':
        return 8
    return max(1, r * c // 32 if t == 'f64' else r * c * BITS[t] // 1024)


def forms():
    for shape in ['m8n8k4', 'm8n8k16', 'm8n8k32', 'm8n8k128', 'm16n8k4', 'm16n8k8', 'm16n8k16',
                  'm16n8k32', 'm16n8k64', 'm16n8k128', 'm16n8k256']:
        for a, b in PAIRS:
            for d, c in ACC:
                for extra in (('.xor.popc', '.and.popc') if a == 'b1' else ('', 'sat')):
                    lays = ('.row.col', '.row.row', '.col.col', '.col.row') if shape == 'm8n8k4' and a == 'f16' else ('.row.col',)
                    for lay in lays:
                        key, line = mma_line(shape, d, a, b, c, extra, lay=lay)
                        yield key + (' ' + lay if lay != '.row.col' else ''), line
    for shape in ['m16n8k8', 'm16n8k16', 'm16n8k32', 'm16n8k64', 'm16n8k128']:
        for a, b in PAIRS:
            if a in ('b1', 'f64'):
                continue
            for d, c in ACC[:5]:
                for extra in ('', 'sat') if d == 's32' else ('',):
                    for sp in ('.sp', '.sp::ordered_metadata'):
                        for sel in range(5):
                            yield mma_line(shape, d, a, b, c, extra, sp=sp, sel=sel)
    for shape in WSHAPES:
        for frag in 'abc':
            for t in ['f16', 'bf16', 'tf32', 'f32', 'f64', 's8', 'u8', 's4', 'u4', 'b1', 's32']:
                for lay in ('row', 'col'):
                    for ss in ('', '.global', '.shared', '.shared::cta'):
                        n = wregs(frag, shape, t)
                        mn = 'wmma.load.%s.sync.aligned.%s.%s%s.%s' % (frag, lay, shape, ss, t)
                        yield mn, '%s %s, [%%rd1], 64;' % (mn, regs(n, rk(t)))
                        if ss == '':
                            yield mn + ' nostride', '%s %s, [%%rd1];' % (mn, regs(n, rk(t)))
        for t in ['f16', 'f32', 'f64', 's32', 'bf16']:
            for lay in ('row', 'col'):
                for ss in ('', '.shared::cta'):
                    n = wregs('d', shape, t)
                    mn = 'wmma.store.d.sync.aligned.%s.%s%s.%s' % (lay, shape, ss, t)
                    yield mn, '%s [%%rd1], %s, %%r99;' % (mn, regs(n, rk(t)))
        for la in ('row', 'col'):
            for lb in ('row', 'col'):
                for d, c in ACC:
                    if d in ('f16', 'f32') and c in ('f16', 'f32'):
                        mn = 'wmma.mma.sync.aligned.%s.%s.%s.%s.%s' % (la, lb, shape, d, c)
                        yield mn, '%s %s, %s, %s, %s;' % (mn, regs(wregs('d', shape, d), 'r'), regs(8, 'r', 10),
                                                          regs(8, 'r', 20), regs(wregs('c', shape, c), 'r', 30))
                    for a, b in PAIRS:
                        for pre, post in (('', ''), ('', '.satfinite'), ('.xor.popc', ''), ('.and.popc', ''),
                                          ('', '.rn'), ('', '.rz')):
                            if (pre and a != 'b1') or (post == '.satfinite' and d != 's32') or \
                               (post in ('.rn', '.rz') and a != 'f64') or (a == 'b1' and not pre):
                                continue
                            mn = 'wmma.mma%s.sync.aligned.%s.%s.%s%s.%s.%s.%s.%s%s' % (
                                pre, la, lb, shape, post if post in ('.rn', '.rz') else '', d, a, b, c,
                                post if post == '.satfinite' else '')
                            yield mn, '%s %s, %s, %s, %s;' % (
                                mn, regs(wregs('d', shape, d), rk(d)), regs(wregs('a', shape, a), rk(a), 10),
                                regs(wregs('b', shape, b), rk(b), 20), regs(wregs('c', shape, c), rk(c), 30))
    for op in ('ldmatrix', 'stmatrix'):
        for shape in ('m8n8', 'm16n16', 'm8n16', 'm16n8'):
            for x in ('x1', 'x2', 'x4'):
                for tr in ('', '.trans'):
                    for t in ('b16', 'b8'):
                        for ss in ('.shared', '.shared::cta', ''):
                            mn = '%s.sync.aligned.%s.%s%s%s.%s' % (op, shape, x, tr, ss, t)
                            n = int(x[1])
                            line = ('%s %s, [%%rd1];' if op == 'ldmatrix' else '%s [%%rd1], %s;') % (mn, regs(n, 'r'))
                            yield mn, line
    for tr in ('.trans', ''):
        for t in ('b16', 'b8'):
            mn = 'movmatrix.sync.aligned.m8n8%s.%s' % (tr, t)
            yield mn, '%s %%r1, %%r2;' % mn


HEAD = """.version 8.7
.target sm_90a
.address_size 64
.visible .entry k()
{
.reg .b32 %r<100>;
.reg .b64 %rd<4>;
.reg .f64 %fd<100>;
"""
NHEAD = HEAD.count('\n')


def write_ptx(path, fs):
    with open(path, 'w') as f:
        f.write(HEAD)
        for _, line in fs:
            f.write(line + '\n')
        f.write('ret;\n}\n')


def bad_lines(text, pat):
    return {int(m.group(1)) for m in re.finditer(pat, text)}


def main():
    fs = list(forms())
    keys = [k for k, _ in fs]
    assert len(set(keys)) == len(keys), 'duplicate form names'
    tmp = tempfile.mkdtemp()
    ptx = os.path.join(tmp, 'forms.ptx')
    write_ptx(ptx, fs)
    if len(sys.argv) > 2 and sys.argv[1] == '--check':
        # ptxi check shows at most 100 errors a file (a form may have several): 30 forms a file
        files = []
        for j in range(0, len(fs), 30):
            files.append(os.path.join(tmp, 'f%05d.ptx' % j))
            write_ptx(files[-1], fs[j:j + 30])
        r = subprocess.run([sys.argv[2], 'check'] + files, capture_output=True, text=True)
        bad = {(int(m.group(1)), int(m.group(2))) for m in
               re.finditer(r'f(\d+)\.ptx:(\d+):\d+: error', r.stdout + r.stderr)}
        ptxi_ok = {k for i, k in enumerate(keys) if (i // 30 * 30, i % 30 + NHEAD + 1) not in bad}
        want = set()
        with open(os.path.join(HERE, 'warp_forms.txt')) as f:
            for line in f:
                if line.strip() and not line.startswith('#'):
                    want.add(line.rstrip('\n'))
        extra, missing = sorted(ptxi_ok - want), sorted(want - ptxi_ok)
        for k in extra[:40]:
            print('  ptxi accepts, ptxas rejects:', k)
        for k in missing[:40]:
            print('  ptxas accepts, ptxi rejects:', k)
        print('%s warp-level forms: %d tried, %d accepted by ptxas; ptxi disagrees on %d (%d accepted too many, '
              '%d refused)' % ('FAIL' if extra or missing else 'PASS', len(fs), len(want), len(extra) + len(missing),
                              len(extra), len(missing)))
        sys.exit(1 if extra or missing else 0)
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, 'warp_forms.txt')
    # ptxas names the line of a parse error, but a file with such errors is
    # never checked further, and some errors name no line of ours: a chunk
    # is re-run without its named lines until it passes or names none, and
    # split in two when it fails naming none of its lines
    def ptxas_bad(idx):
        write_ptx(ptx, [fs[i] for i in idx])
        r = subprocess.run(['ptxas', '-arch=sm_90a', ptx, '-o', os.devnull], capture_output=True, text=True)
        if r.returncode == 0:
            return set()
        named = {idx[n - NHEAD - 1] for n in bad_lines(r.stderr, r'ptx, line (\d+); error')
                 if 0 <= n - NHEAD - 1 < len(idx)}
        if named:
            rest = [i for i in idx if i not in named]
            return named | (ptxas_bad(rest) if rest else set())
        if len(idx) == 1:
            return set(idx)
        h = len(idx) // 2
        return ptxas_bad(idx[:h]) | ptxas_bad(idx[h:])
    bad = set()
    for j in range(0, len(fs), 90):
        bad |= ptxas_bad(list(range(j, min(j + 90, len(fs)))))
    ver = subprocess.run(['ptxas', '--version'], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    with open(out, 'w') as f:
        f.write('# %s -arch=sm_90a: the warp-level matrix forms it accepts, out of %d tried by\n'
                '# tests/tc/warp_forms.py (every form not listed was rejected)\n' % (ver, len(fs)))
        for i, k in enumerate(keys):
            if i not in bad:
                f.write(k + '\n')
    print(len(fs), 'forms,', len(fs) - len(bad), 'accepted')


main()
