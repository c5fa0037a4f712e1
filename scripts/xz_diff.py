#!/usr/bin/python3
"""xz_diff.py - xzcat against xz -dc on mutated .xz files (not part of
make check: it runs until it has tried N inputs).

    python3 scripts/xz_diff.py [-n N] [-s SEED] [ZEROBOX]

Small .xz files made here with xz (presets, checks, blocks, filters,
concatenated streams) and testsuite/xz/ are mutated: cut short, bits
flipped, bytes changed, inserted or deleted, and LZMA2 chunk headers and
range-coder bytes changed on purpose.  For each, xzcat and xz -dc must
agree on the exit status and the message, and xzcat's output must be
xz's when both succeed, a prefix of xz's when both fail.  Differing
inputs are kept in xz-diff-*.xz in the current directory.
"""
import glob
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def make_seeds(tmp):
    data = bytes(range(256)) * 40 + b'hello world\n' * 300
    with open('/bin/sh', 'rb') as f:
        exe = f.read(40000)
    cases = [
        ('a', data, ['--check=none']), ('b', data, ['--check=crc32', '-0']),
        ('c', data, ['-9e', '--check=sha256']), ('d', exe, ['--block-size=7000']),
        ('e', exe, ['--x86', '--lzma2=dict=4KiB', '--check=none']),
        ('f', exe, ['--arm64', '--lzma2=dict=64KiB,lc=2,lp=2', '--check=none']),
        ('g', exe, ['--armthumb', '--lzma2']), ('h', exe, ['--delta=dist=3', '--lzma2']),
        ('i', exe, ['-T2', '--block-size=8000', '--check=none']),
    ]
    seeds = []
    for name, raw, opts in cases:
        out = subprocess.run(['xz', '-c'] + opts, input=raw, capture_output=True).stdout
        seeds.append(out)
    seeds.append(seeds[0] + seeds[1])
    for path in sorted(glob.glob(os.path.join(HERE, '..', 'testsuite', 'xz', 'good-*.xz'))):
        if 'bcj' not in path:
            with open(path, 'rb') as f:
                seeds.append(f.read())
    return seeds


def chunk_spots(b):
    """Offsets of the first block's LZMA2 chunk headers and range-coder
    bytes: (kind, offset) pairs."""
    spots = []
    try:
        i = 12 + (b[12] + 1) * 4
        while i < len(b):
            c = b[i]
            if c == 0:
                break
            if c in (1, 2):
                spots += [('ctl', i), ('size', i + 1), ('size', i + 2)]
                i += 3 + (b[i + 1] << 8 | b[i + 2]) + 1
            elif c >= 0x80:
                size = (b[i + 3] << 8 | b[i + 4]) + 1
                head = 6 if c >= 0xc0 else 5
                spots += [('ctl', i), ('size', i + 1), ('size', i + 3)]
                if head == 6:
                    spots.append(('props', i + 5))
                spots += [('rc0', i + head), ('rc1', i + head + 1)]
                i += head + size
            else:
                break
    except IndexError:
        pass
    return [s for s in spots if s[1] < len(b)]


def mutate(rnd, b):
    b = bytearray(b)
    spots = chunk_spots(b)
    if spots and rnd.randrange(3) == 0:
        kind, i = rnd.choice(spots)
        if kind == 'ctl':
            b[i] = rnd.choice([0, 1, 2, 3, 0x80, 0xa0, 0xc0, 0xe0, rnd.randrange(256)])
        elif kind == 'props':
            b[i] = rnd.choice([0, 8, 0x5d, 224, 225, rnd.randrange(256)])
        elif kind == 'rc0':
            b[i] = rnd.choice([1, 0x80, 0xff])
        else:
            b[i] = (b[i] + rnd.choice([-2, -1, 1, 2, 0x80])) & 0xff
    else:
        for _ in range(rnd.choice([1, 1, 2, 3])):
            if not b:
                break
            i = rnd.randrange(len(b))
            how = rnd.randrange(5)
            if how == 0:
                b[i] ^= 1 << rnd.randrange(8)
            elif how == 1:
                b[i] = rnd.choice([0, 0xff, 0x80, 1, rnd.randrange(256)])
            elif how == 2:
                del b[i]
            elif how == 3:
                b.insert(i, rnd.randrange(256))
            else:
                b[i] = rnd.randrange(256)
    if rnd.randrange(4) == 0 and b:
        b = b[:rnd.randrange(len(b))]
    return bytes(b)


def run(argv, data, name):
    p = subprocess.run(argv, input=data, capture_output=True)
    err = p.stderr.decode('latin1')
    prefix = name + ': '
    return p.returncode, p.stdout, err[len(prefix):] if err.startswith(prefix) else err


def main():
    args = sys.argv[1:]
    count, seed = 2000, 1
    while args and args[0] in ('-n', '-s'):
        if args[0] == '-n':
            count = int(args[1])
        else:
            seed = int(args[1])
        args = args[2:]
    zerobox = args[0] if args else os.path.join(HERE, '..', 'zerobox')
    rnd = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        seeds = make_seeds(tmp)
    bad = 0
    for n in range(count):
        data = mutate(rnd, rnd.choice(seeds))
        xr, xo, xe = run(['xz', '-dc'], data, 'xz')
        zr, zo, ze = run([zerobox, 'xzcat'], data, 'xzcat')
        ok = xr == zr and xe == ze and (xo == zo if xr == 0 else xo.startswith(zo))
        if not ok:
            bad += 1
            name = 'xz-diff-%d-%d.xz' % (seed, n)
            with open(name, 'wb') as f:
                f.write(data)
            print('%s: xz %d %r / xzcat %d %r' % (name, xr, xe.strip(), zr, ze.strip()))
    print('%d inputs, %d differ' % (count, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
